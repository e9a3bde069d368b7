import Foundation
import TestSupport
import Testing

@testable import GutendexEngine

/// Hostile bzip2 never traps the process: the bounds the reader's window and scanner are read
/// within are checked as ``ParallelBzip2/Failure``s ("damaged bzip2 data at byte N"), and
/// damaged input of many kinds (a bit flipped anywhere, cut anywhere, a magic written over or
/// into the bits, a stream header in the middle) is one such failure, or reads as a prefix of
/// what was compressed (bytes after the last whole stream are ignored, as bzip2 does), never
/// another error and never wrong bytes.
@Suite struct Bzip2DamageTests {
  // MARK: - The boundary functions

  @Test func theWindowRefusesBitsBeforeItsFirstByteOrPastItsLast() throws {
    var window = Bzip2Window(capacity: 64)
    let bytes = (0..<32).map { UInt8($0 * 7 & 0xFF) }
    bytes.withUnsafeBytes { window.append($0) }
    window.drop(before: 16)
    #expect(window.base == 16 && window.end == 32)
    // Held: read as they are (bytes 16 to 21, the first 48 bits from byte 16).
    let expected = bytes[16..<22].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    #expect(try window.bits(at: 16 * 8, width: 48) == expected)
    let before = #expect(throws: ParallelBzip2.Failure.self) {
      _ = try window.bits(at: 15 * 8 + 7, width: 48)
    }
    #expect(before?.reason == "damaged bzip2 data at byte 15")
    var out: [UInt8] = []
    #expect(try window.copyBits(from: 16 * 8, to: 32 * 8, into: &out) == 8)
    #expect(out == Array(bytes[16...]))
    for (from, to) in [(15 * 8, 20 * 8), (16 * 8, 32 * 8 + 1), (20 * 8, 20 * 8), (21 * 8, 20 * 8)] {
      var copied: [UInt8] = []
      #expect(throws: ParallelBzip2.Failure.self, "bits \(from)..<\(to)") {
        _ = try window.copyBits(from: from, to: to, into: &copied)
      }
      #expect(copied.isEmpty, "nothing is copied from bits \(from)..<\(to)")
    }
    // The same bits, a bit shifted, from inside the window.
    var shifted: [UInt8] = []
    #expect(try window.copyBits(from: 16 * 8 + 3, to: 18 * 8, into: &shifted) == 5)
    #expect(shifted == [bytes[16] << 3 | bytes[17] >> 5, bytes[17] << 3 & 0xF8])
  }

  @Test func theScannerRefusesBytesThatBeginAfterTheNextOneToScan() throws {
    var scanner = Bzip2Scanner()
    let bytes = [UInt8](repeating: 0x55, count: 32)
    try bytes.withUnsafeBytes { try scanner.scan($0, base: 0, final: false) { _ in } }
    // The last 7 bytes wait for more: the next to scan is byte 25.
    #expect(scanner.next == 25)
    // Bytes from 30 on: 25 to 29 were dropped unscanned.
    let dropped = #expect(throws: ParallelBzip2.Failure.self) {
      try bytes[30...].withUnsafeBytes { try scanner.scan($0, base: 30, final: true) { _ in } }
    }
    #expect(dropped?.reason == "damaged bzip2 data at byte 25")
    #expect(scanner.next == 25, "nothing was scanned")
    // From byte 25 on, as the reader hands them, the scan goes on.
    try bytes[25...].withUnsafeBytes { try scanner.scan($0, base: 25, final: true) { _ in } }
    #expect(scanner.next == 32)
  }

  // MARK: - Damaged input through the reader

  /// What reading `input` gave: the bytes, or the failure's line.
  enum Outcome {
    case read(Data)
    case failed(String)
  }

  static func outcome(_ input: Data) throws -> Outcome {
    do {
      // Small pieces and buffers: the window drops and grows, blocks are large for a buffer.
      let (out, _) = try ParallelBzip2Tests.decompress(input, piece: 3_001, bufferSize: 64 << 10)
      return .read(out)
    } catch let failure as ParallelBzip2.Failure {
      return .failed(failure.reason)
    }
  }

  /// Two streams of two blocks each (level 1: 100 kB blocks).
  static let data = ParallelBzip2Tests.text(250_000, seed: 9)
  static let compressed: Data = (try? Bzip2Writer.compress(data, level: 1, streams: 2)) ?? Data()

  /// Checks that `input` reads as a prefix of the data or fails with one line; how it went.
  static func check(_ input: Data, _ what: String) throws -> Bool {
    switch try outcome(input) {
    case .read(let out):
      #expect(data.starts(with: out), "\(what): \(out.count) bytes that are not the data's")
      return false
    case .failed(let reason):
      #expect(!reason.isEmpty && !reason.contains("\n"), "\(what): \(reason)")
      return true
    }
  }

  /// `input` with the 48 bits of `magic` written over (or, `inserting`, into) bit `bit`.
  static func withMagic(_ magic: UInt64, at bit: Int, in input: Data, inserting: Bool) -> Data {
    var bytes = [UInt8](input)
    func set(_ index: Int, _ on: Bool, in bytes: inout [UInt8]) {
      let mask = UInt8(0x80) >> UInt8(index % 8)
      if on { bytes[index / 8] |= mask } else { bytes[index / 8] &= ~mask }
    }
    let magicBit = { (index: Int) in magic >> UInt64(47 - index) & 1 != 0 }
    guard inserting else {
      for index in 0..<48 where bit + index < bytes.count * 8 {
        set(bit + index, magicBit(index), in: &bytes)
      }
      return Data(bytes)
    }
    // 48 bits are 6 bytes: the byte holding `bit` becomes 7 (its bits before, the magic, its
    // bits from `bit` on), and every later byte moves down whole.
    let byte = bit / 8
    let shift = bit % 8
    var seven = [UInt8](repeating: 0, count: 7)
    for index in 0..<56 {
      let on: Bool
      if index < shift {
        on = bytes[byte] & (0x80 >> UInt8(index)) != 0
      } else if index < shift + 48 {
        on = magicBit(index - shift)
      } else {
        on = bytes[byte] & (0x80 >> UInt8(index - 48)) != 0
      }
      set(index, on, in: &seven)
    }
    bytes.replaceSubrange(byte..<byte + 1, with: seven)
    return Data(bytes)
  }

  @Test func aBitFlippedAnywhereIsOneFailureOrAPrefix() throws {
    let compressed = Self.compressed
    try #require(compressed.count > 20_000)
    var generator = Bzip2Writer.SplitMix(seed: 11)
    var failures = 0
    // The headers and the ends of both streams, then places all over the bits.
    var bits = Array(0..<40) + Array((compressed.count * 8 - 88)..<(compressed.count * 8))
    bits += (0..<60).map { _ in Int(generator.next() % UInt64(compressed.count * 8)) }
    for bit in bits {
      var flipped = compressed
      flipped[bit / 8] ^= 0x80 >> UInt8(bit % 8)
      if try Self.check(flipped, "bit \(bit) flipped") { failures += 1 }
    }
    // Most flips are damage the reader sees (a block's CRC, a table, a magic).
    #expect(failures > bits.count / 2, "\(failures) of \(bits.count)")
  }

  @Test func cutAnywhereIsOneFailureOrAPrefix() throws {
    let compressed = Self.compressed
    var generator = Bzip2Writer.SplitMix(seed: 12)
    var lengths = Array(0..<24) + Array((compressed.count - 24)..<compressed.count)
    lengths += (0..<24).map { _ in Int(generator.next() % UInt64(compressed.count)) }
    for length in lengths {
      let outcome = try Self.outcome(compressed.prefix(length))
      guard case .failed(let reason) = outcome else {
        // Cut between the streams: the first one is whole, and what is left is not bzip2.
        if case .read(let out) = outcome { #expect(Self.data.starts(with: out)) }
        continue
      }
      #expect(!reason.contains("\n"), "cut at \(length): \(reason)")
    }
  }

  /// A magic where no block or stream end is: over the bits (a block cut short, a false end)
  /// and into them (every bit after it moved), at places all over the input.
  @Test(arguments: [Bzip2Scanner.blockMagic, Bzip2Scanner.endMagic])
  func aMagicWrittenOverOrIntoTheBitsIsOneFailureOrAPrefix(magic: UInt64) throws {
    let compressed = Self.compressed
    var generator = Bzip2Writer.SplitMix(seed: magic)
    for index in 0..<20 {
      let bit = 32 + Int(generator.next() % UInt64(compressed.count * 8 - 80))
      let inserting = index % 2 == 1
      let input = Self.withMagic(magic, at: bit, in: compressed, inserting: inserting)
      #expect(input.count == compressed.count + (inserting ? 6 : 0))
      // The magic is there, where it was put: the reader takes it for a candidate.
      var scanner = Bzip2Scanner()
      var found: [Bzip2Scanner.Candidate] = []
      try input.withUnsafeBytes { try scanner.scan($0, base: 0, final: true) { found.append($0) } }
      #expect(found.contains { $0.bit == bit }, "bit \(bit)")
      _ = try Self.check(input, "\(inserting ? "into" : "over") bit \(bit)")
    }
  }

  /// A stream's header ("BZh9") in the middle of the first stream's bits, at every bit offset
  /// of one byte, and two stream ends one after the other.
  @Test func aStreamHeaderOrEndWhereABlockGoesIsOneFailure() throws {
    let compressed = Self.compressed
    for shift in 0..<8 {
      var input = compressed
      let at = compressed.count / 4
      let header = Self.withMagic(
        0x425A_6839_0000 >> UInt64(shift), at: 0, in: Data(count: 6), inserting: false)
      input.replaceSubrange(at..<at + 6, with: header)
      #expect(try Self.check(input, "a header at byte \(at), shift \(shift)"))
    }
    // The first block's bits replaced by a stream end right after the header: the end's CRC
    // is not the blocks' (there were none), or the end is cut short.
    let ends = Self.withMagic(Bzip2Scanner.endMagic, at: 32, in: compressed, inserting: true)
    #expect(try Self.check(ends, "a stream end before the first block"))
  }
}
