/// Finds where bzip2 blocks may start: every bit offset of the compressed bytes holding one of
/// the two 48-bit magics of the format, a block's (0x314159265359, π) or a stream's end
/// (0x177245385090, √π). Blocks are not byte-aligned, and the same 48 bits may also occur
/// inside compressed data by chance: what is found is a candidate, which only decoding
/// confirms (``ParallelBzip2`` joins a candidate that fails with the next one).
struct Bzip2Scanner {
  /// A block's magic, the first 48 bits of every block.
  static let blockMagic: UInt64 = 0x3141_5926_5359
  /// The end-of-stream magic, followed by the stream's combined CRC and padding to a byte.
  static let endMagic: UInt64 = 0x1772_4538_5090

  /// What a candidate's 48 bits are.
  enum Kind: Equatable, Sendable {
    case block, end
  }

  /// A bit offset from the start of the compressed input (bit 0 is the first byte's highest
  /// bit, bzip2's order) holding one of the magics.
  struct Candidate: Equatable, Sendable {
    var bit: Int
    var kind: Kind
  }

  /// For each byte value, which (magic, bit shift) pairs may hold it as their third byte:
  /// bit `shift` for the block magic, `8 + shift` for the end magic. One look-up per byte
  /// passes over the other 15 of 16 bytes without a comparison.
  private static let third: [UInt16] = {
    var table = [UInt16](repeating: 0, count: 256)
    for (index, magic) in [blockMagic, endMagic].enumerated() {
      for shift in 0..<8 {
        // A magic at bit `shift` of byte i covers all of byte i + 2: its bits 16 - shift to
        // 23 - shift.
        let byte = Int((magic >> (24 + UInt64(shift))) & 0xFF)
        table[byte] |= 1 << (index * 8 + shift)
      }
    }
    return table
  }()

  /// The absolute index of the next byte whose candidates are not yet reported.
  private(set) var next = 0

  /// Reports, in order, the candidates starting in the bytes of `bytes` (which hold the
  /// input's bytes from absolute index `base` on) not reported before. Each needs 8 bytes from
  /// its first; the last 7 wait for more input unless `final`, when the input ends there (a
  /// magic must then fit whole). Throws when `bytes` begin after the next byte to scan (bytes
  /// not scanned were dropped): ``ParallelBzip2`` never drops past ``next``, so it does not,
  /// but a read before `bytes` would be out of bounds, so it is a failure, never a trap.
  mutating func scan(
    _ bytes: UnsafeRawBufferPointer, base: Int, final: Bool, _ found: (Candidate) -> Void
  ) throws(ParallelBzip2.Failure) {
    let count = bytes.count
    guard count > 0 else { return }
    let limit = final ? count : count - 7
    var index = next - base
    guard index >= 0 else {
      throw ParallelBzip2.Failure(reason: "damaged bzip2 data at byte \(next)")
    }
    let third = Self.third
    let totalBits = (base + count) * 8
    third.withUnsafeBufferPointer { third in
      while index < limit {
        let probe = index + 2
        let mask = probe < count ? third[Int(bytes[probe])] : 0
        if mask != 0 {
          var window: UInt64 = 0
          for offset in 0..<8 {
            let at = index + offset
            window = window << 8 | UInt64(at < count ? bytes[at] : 0)
          }
          for shift in 0..<8 where mask & (0x101 << shift) != 0 {
            let value = (window >> UInt64(16 - shift)) & 0xFFFF_FFFF_FFFF
            let bit = (base + index) * 8 + shift
            // Past the end of a final input the window is zeros: a magic must fit whole.
            guard bit + 48 <= totalBits else { continue }
            if mask & (1 << shift) != 0, value == Self.blockMagic {
              found(Candidate(bit: bit, kind: .block))
            } else if mask & (0x100 << shift) != 0, value == Self.endMagic {
              found(Candidate(bit: bit, kind: .end))
            }
          }
        }
        index += 1
      }
    }
    next = base + max(index, 0)
  }
}
