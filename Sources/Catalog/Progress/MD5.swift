import Foundation

/// MD5 (RFC 1321), the digest kosync is built on: the user key is the MD5 of the password, and
/// a document is known by the MD5 of samples of its file (``DocumentKey``). Not for anything
/// that needs a secure hash; Foundation has none on Linux, and this needs no library.
public struct MD5: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32) = (
    0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476
  )
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  /// The per-round shift amounts, four for each of the four rounds.
  private static let shifts: [UInt32] = [
    7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21,
  ]
  /// floor(abs(sin(i + 1)) * 2^32), as the RFC defines the table.
  private static let constants: [UInt32] = (0..<64).map { index in
    UInt32(truncatingIfNeeded: Int64(abs(sin(Double(index + 1))) * 4_294_967_296))
  }

  /// A digest of nothing yet.
  public init() {}

  /// The lower-case hex digest of `bytes`.
  public static func hex(_ bytes: some Collection<UInt8>) -> String {
    var digest = MD5()
    digest.update(bytes)
    return digest.finish()
  }

  /// The lower-case hex digest of `text`'s UTF-8.
  public static func hex(_ text: String) -> String {
    hex(Array(text.utf8))
  }

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: some Collection<UInt8>) {
    length &+= UInt64(bytes.count)
    pending.append(contentsOf: bytes)
    var start = 0
    while pending.count - start >= 64 {
      compress(pending[start..<start + 64])
      start += 64
    }
    pending.removeFirst(start)
  }

  /// Pads the message and returns its digest as 32 lower-case hex digits.
  public mutating func finish() -> String {
    let bits = length &* 8
    var tail: [UInt8] = [0x80]
    while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
    for index in 0..<8 { tail.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))) }
    let saved = length
    update(tail)
    length = saved
    let words = [state.0, state.1, state.2, state.3]
    return words.map { word in
      (0..<4).map { String(format: "%02x", (word >> (8 * UInt32($0))) & 0xff) }.joined()
    }.joined()
  }

  private mutating func compress(_ block: ArraySlice<UInt8>) {
    var words = [UInt32](repeating: 0, count: 16)
    let base = block.startIndex
    for index in 0..<16 {
      let offset = base + index * 4
      words[index] =
        UInt32(block[offset]) | UInt32(block[offset + 1]) << 8 | UInt32(block[offset + 2]) << 16
        | UInt32(block[offset + 3]) << 24
    }
    var (a, b, c, d) = state
    for step in 0..<64 {
      var mixed: UInt32
      let index: Int
      switch step / 16 {
      case 0:
        mixed = (b & c) | (~b & d)
        index = step
      case 1:
        mixed = (d & b) | (~d & c)
        index = (5 * step + 1) % 16
      case 2:
        mixed = b ^ c ^ d
        index = (3 * step + 5) % 16
      default:
        mixed = c ^ (b | ~d)
        index = (7 * step) % 16
      }
      mixed = mixed &+ a &+ Self.constants[step] &+ words[index]
      a = d
      d = c
      c = b
      let shift = Self.shifts[(step / 16) * 4 + step % 4]
      b = b &+ ((mixed << shift) | (mixed >> (32 - shift)))
    }
    state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
  }
}
