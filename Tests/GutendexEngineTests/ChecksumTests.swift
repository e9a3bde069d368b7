import TestSupport
import Testing

@testable import GutendexEngine

/// The index's checksum (``CatalogueSnapshot/checksum(_:continuing:)``) is zlib's CRC-32 for
/// every input, whichever way it is computed (carry-less multiplication on processors that
/// have it, for 64 bytes and more; zlib's function otherwise): held here to a bit-by-bit
/// CRC-32 written from the definition, on every length around the paths' edges, every
/// alignment, continued from any value and split anywhere.
@Suite("Index checksum")
struct ChecksumTests {
  /// CRC-32 one bit at a time (reflected, polynomial 0xEDB88320, zlib's pre- and
  /// post-inversion): the definition, sharing nothing with the code under test.
  static func reference(_ bytes: some Sequence<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
    var register = ~previous
    for byte in bytes {
      register ^= UInt32(byte)
      for _ in 0..<8 {
        register = register & 1 != 0 ? (register >> 1) ^ 0xEDB8_8320 : register >> 1
      }
    }
    return ~register
  }

  static func checksum(_ bytes: ArraySlice<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { CatalogueSnapshot.checksum($0, continuing: previous) }
  }

  /// The check values every CRC-32 implementation is held to.
  @Test func knownValues() {
    #expect(Self.checksum(ArraySlice("123456789".utf8)) == 0xCBF4_3926)
    // 1,024 bytes: long enough for the folded path (Python's zlib.crc32 says the same).
    let ramp = Array((0..<1024).map { UInt8($0 % 256) })
    #expect(Self.checksum(ramp[...]) == 0xB70B_4C26)
    #expect(Self.reference(ramp) == 0xB70B_4C26)
    #expect(Self.checksum([]) == 0)
    #expect(Self.checksum([], continuing: 0x1234_5678) == 0x1234_5678)
  }

  /// Every length up to 600 (the folded path starts at 64, folds 64 bytes then 16 at a time,
  /// and leaves up to 15 to zlib), at every alignment of 16, from random starting values.
  @Test func everyLengthAndAlignment() {
    var generator = SeededGenerator(seed: 0xC3C)
    let bytes = (0..<(600 + 16)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for length in 0...600 {
      let offset = length % 16
      let slice = bytes[offset..<offset + length]
      let previous = length % 3 == 0 ? 0 : UInt32.random(in: 0...UInt32.max, using: &generator)
      #expect(
        Self.checksum(slice, continuing: previous) == Self.reference(slice, continuing: previous),
        "length \(length) at offset \(offset) from \(previous)")
    }
  }

  /// A long input (all the byte values, and runs of zeros and of 0xFF that a wrong constant
  /// would still fold differently), whole and continued from a split at random points.
  @Test func longInputsWholeAndSplit() {
    var generator = SeededGenerator(seed: 0x5EC7)
    var bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes.replaceSubrange(1000..<9000, with: repeatElement(0, count: 8000))
    bytes.replaceSubrange(20_000..<28_000, with: repeatElement(0xFF, count: 8000))
    let whole = Self.reference(bytes)
    #expect(Self.checksum(bytes[...]) == whole)
    for _ in 0..<20 {
      let split = Int.random(in: 0...bytes.count, using: &generator)
      let first = Self.checksum(bytes[..<split])
      #expect(Self.checksum(bytes[split...], continuing: first) == whole, "split at \(split)")
    }
  }

  /// One bit flipped anywhere in a long input changes the checksum (what the index's checks
  /// rely on), on the folded path as on zlib's.
  @Test func aFlippedBitChangesIt() {
    var generator = SeededGenerator(seed: 0xF11B)
    var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let sound = Self.checksum(bytes[...])
    for _ in 0..<200 {
      let at = Int.random(in: 0..<bytes.count, using: &generator)
      let bit = UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
      bytes[at] ^= bit
      #expect(Self.checksum(bytes[...]) != sound, "byte \(at)")
      #expect(Self.checksum(bytes[...]) == Self.reference(bytes), "byte \(at)")
      bytes[at] ^= bit
    }
  }
}
