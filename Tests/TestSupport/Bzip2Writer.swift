import CBzip2
import Foundation

/// Compresses test data with libbz2 the ways the feed's reader must take: any block size
/// (level 1 makes 100 kB blocks, so a small feed has many), several streams one after another
/// (as pbzip2 writes), and data made so that a block's own header holds the 48 bits of a
/// block magic (``falseMagicBytes``), which the reader must not take for a block.
public enum Bzip2Writer {
  /// `data` as bzip2: `streams` streams of about equal parts, each at `level` (1-9).
  public static func compress(_ data: Data, level: Int = 9, streams: Int = 1) throws -> Data {
    if let reason = gb_bz2_load() { throw HarnessFailure(description: String(cString: reason)) }
    let size = (data.count + streams - 1) / max(streams, 1)
    var out = Data()
    var start = 0
    repeat {
      let part = data[start..<min(start + max(size, 1), data.count)]
      var room = part.count + part.count / 100 + 600
      var buffer = [UInt8](repeating: 0, count: room)
      let status = part.withUnsafeBytes { input in
        buffer.withUnsafeMutableBytes { output in
          gb_bz2_compress(input.baseAddress, input.count, Int32(level), output.baseAddress, &room)
        }
      }
      guard status == BZ_OK else {
        throw HarnessFailure(description: "libbz2 could not compress (\(status))")
      }
      out.append(contentsOf: buffer[..<room])
      start += part.count
    } while start < data.count
    return out
  }

  /// Bytes whose bzip2 blocks each hold, right after their 24-bit origin pointer, the 48 bits
  /// of `magic` (a block's, 0x314159265359, or a stream end's, 0x177245385090): a block's
  /// header lists the byte values it uses, 16 bits saying which ranges of 16 values appear and
  /// then 16 bits for each of them, and these bytes use exactly the values that spell the
  /// magic there (the ranges of its first 16 bits; in the first two of them, the values whose
  /// bits are its next 16 and its last 16; one value in each other range). `count` bytes of
  /// them, no byte twice in a row (runs of four would add bzip2's run-length counts).
  public static func falseMagicBytes(count: Int, magic: UInt64 = 0x3141_5926_5359) -> Data {
    let ranges = (0..<16).filter { (magic >> 32) & (0x8000 >> UInt64($0)) != 0 }
    var values: [UInt8] = []
    for (index, range) in ranges.enumerated() {
      guard index < 2 else {
        values.append(UInt8(range * 16))
        continue
      }
      let bits = (magic >> (index == 0 ? 16 : 0)) & 0xFFFF
      for bit in 0..<16 where bits & (0x8000 >> UInt64(bit)) != 0 {
        values.append(UInt8(range * 16 + bit))
      }
    }
    var generator = SplitMix(seed: magic)
    var out = Data(capacity: count)
    var previous: UInt8?
    while out.count < count {
      let value = values[Int(generator.next() % UInt64(values.count))]
      guard value != previous else { continue }
      out.append(value)
      previous = value
    }
    return out
  }

  /// A small deterministic generator (the tests' data must be the same from run to run).
  public struct SplitMix {
    var state: UInt64
    /// A generator whose numbers depend on `seed` alone.
    public init(seed: UInt64) { state = seed }
    /// The next number (SplitMix64).
    public mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
