import Foundation

/// Folds text so that a search ignores case and accents, as the reader's `/word` does: each
/// character becomes its lower-case form without combining marks (`É` and `e\u{301}` both
/// become `e`), curly quotes become straight ones, and runs of spaces and tabs become one
/// space. Folding is done on bytes, a character at a time, so a file is searched by pieces
/// without being decoded into strings.
///
/// Not `Sendable`: it caches the folding of each character met, and each search owns one.
final class TextFolding {
  /// ASCII bytes folded: upper case to lower case, tab to space.
  private static let ascii: [UInt8] = (0..<128).map { byte in
    if (0x41...0x5A).contains(byte) { return UInt8(byte + 0x20) }
    return byte == 0x09 ? 0x20 : UInt8(byte)
  }
  /// ``ascii`` where the hot loop reads it, allocated once and never freed.
  ///
  /// `nonisolated(unsafe)` is safe: written once by the lazy initialiser, then only read.
  nonisolated(unsafe) private static let asciiTable: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 128)
    table.initialize(from: ascii, count: 128)
    return UnsafePointer(table)
  }()
  /// The folding of each character met so far (beyond ASCII), as UTF-8.
  private var cache: [UInt32: [UInt8]] = [:]
  /// The folding of each Windows-1252 byte from 0x80 (a Latin-1 text has no other).
  private lazy var latin1: [[UInt8]] = (0x80..<0x100).map {
    fold(TextBytes.windows1252[$0])
  }

  /// `words` folded: what the text is searched for; empty when nothing is left to find.
  func needle(_ words: String) -> [UInt8] {
    var out: [UInt8] = []
    var lastSpace = true
    for scalar in words.unicodeScalars {
      let folded = scalar.isASCII ? [Self.ascii[Int(scalar.value)]] : fold(scalar)
      for byte in folded {
        let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x0D
        if isSpace, lastSpace { continue }
        out.append(isSpace ? 0x20 : byte)
        lastSpace = isSpace
      }
    }
    while out.last == 0x20 { out.removeLast() }
    return out
  }

  /// The folding of one character beyond ASCII, as UTF-8 (cached).
  func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
    if let known = cache[scalar.value] { return known }
    let folded: [UInt8]
    switch scalar.value {
    case 0x2018, 0x2019, 0x201B, 0x2032: folded = [0x27]
    case 0x201C, 0x201D, 0x201F, 0x2033: folded = [0x22]
    case 0x00A0, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: folded = [0x20]
    default:
      if scalar.properties.generalCategory == .nonspacingMark {
        folded = []
      } else {
        let decomposed = String(scalar).decomposedStringWithCanonicalMapping.lowercased()
        let kept = decomposed.unicodeScalars.filter {
          $0.properties.generalCategory != .nonspacingMark
        }
        folded = Array(String(String.UnicodeScalarView(kept)).utf8)
      }
    }
    cache[scalar.value] = folded
    return folded
  }

  /// The high bit of each of eight bytes.
  private static let highBits: UInt64 = 0x8080_8080_8080_8080
  /// 0x01 in each of eight bytes.
  private static let ones: UInt64 = 0x0101_0101_0101_0101

  /// 0x80 in each byte of `word` (ASCII bytes only) that equals `byte`, 0 in the others.
  @inline(__always) private static func equalBytes(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let difference = word ^ (ones &* UInt64(byte))
    // A byte under 0x80 plus 0x7F reaches 0x80 unless it is 0, and never carries over.
    let nonZero = ((difference &+ ones &* 0x7F) | difference) & highBits
    return ~nonZero & highBits
  }

  /// `word` (ASCII bytes only) with A to Z turned to a to z.
  @inline(__always) private static func lowercased(_ word: UInt64) -> UInt64 {
    let atLeastA = (word &+ ones &* (0x80 - 0x41)) & highBits
    let pastZ = (word &+ ones &* (0x80 - 0x5B)) & highBits
    return word | ((atLeastA & ~pastZ) >> 2)
  }

  /// Where folded text is written: reused by every piece, grown when a piece needs more.
  private var output = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
  private var outputCapacity = 0

  deinit {
    output.deallocate()
  }

  /// Folds `source` (decoded as `encoding`), which starts at byte `base` of the file. The
  /// result's bytes live in this folding's buffer, valid until the next call.
  func fold(_ source: UnsafeBufferPointer<UInt8>, base: Int, encoding: TextBytes.Encoding)
    -> FoldedBytes
  {
    var out = FoldedBytes(base: base)
    let count = source.count
    // A character folds to at most 3 bytes per byte of it (a Windows-1252 byte to a 3-byte
    // character); a longer folding makes room itself below.
    reserve(count * 3 + 16)
    guard let input = source.baseAddress else {
      out.bytes = UnsafeBufferPointer(start: output, count: 0)
      return out
    }
    // Locals, so the loop touches no class storage and no lazily initialised static.
    var destination = output
    var capacity = outputCapacity
    var written = 0
    var lastSpace = false
    var index = 0
    let ascii = Self.asciiTable
    while index < count {
      // Eight ASCII bytes at a time when they hold no tab and no second space in a row
      // (most of a text): upper case turned to lower case all at once.
      if index + 8 <= count, written + 8 <= capacity {
        let word = UnsafeRawPointer(input + index).loadUnaligned(as: UInt64.self)
        if word & Self.highBits == 0 {
          let spaces = Self.equalBytes(word, 0x20)
          if Self.equalBytes(word, 0x09) == 0, spaces & (spaces << 8) == 0,
            !(lastSpace && word & 0xFF == 0x20)
          {
            UnsafeMutableRawPointer(destination + written).storeBytes(
              of: Self.lowercased(word), as: UInt64.self)
            written += 8
            index += 8
            lastSpace = word >> 56 == 0x20
            continue
          }
        }
      }
      let byte = input[index]
      if byte < 0x80 {
        let folded = ascii[Int(byte)]
        if folded != 0x20 {
          destination[written] = folded
          written += 1
          lastSpace = false
        } else if !lastSpace {
          destination[written] = 0x20
          written += 1
          lastSpace = true
        } else {
          // A second space: nothing in the folded text stands for it.
          out.diverge(folded: written, source: index, foldedEnd: written, sourceEnd: index + 1)
        }
        index += 1
        continue
      }
      let length: Int
      let folded: [UInt8]
      if encoding == .windows1252 {
        length = 1
        folded = latin1[Int(byte) - 0x80]
      } else {
        (length, folded) = foldUTF8(source, at: index)
      }
      var emitted = folded
      if folded == [0x20] {
        if lastSpace { emitted = [] }
        lastSpace = true
      } else if !folded.isEmpty {
        lastSpace = false
      }
      if written + emitted.count + (count - index) * 3 > capacity {
        output = destination
        reserve(written + emitted.count + (count - index) * 3 + 16, keeping: written)
        destination = output
        capacity = outputCapacity
      }
      let start = written
      for folded in emitted {
        destination[written] = folded
        written += 1
      }
      if emitted.count != length {
        out.diverge(folded: start, source: index, foldedEnd: written, sourceEnd: index + length)
      }
      index += length
    }
    out.bytes = UnsafeBufferPointer(start: destination, count: written)
    return out
  }

  /// Makes the output buffer hold at least `capacity` bytes, keeping its first `keeping`.
  private func reserve(_ capacity: Int, keeping: Int = 0) {
    guard capacity > outputCapacity else { return }
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    if keeping > 0 { bigger.update(from: output, count: keeping) }
    output.deallocate()
    output = bigger
    outputCapacity = capacity
  }

  /// The length of the UTF-8 character at `index` and its folding; an invalid byte is one
  /// character of its own (U+FFFD, as the reader shows it).
  private func foldUTF8(_ source: UnsafeBufferPointer<UInt8>, at index: Int) -> (Int, [UInt8]) {
    let lead = source[index]
    let length: Int
    var value: UInt32
    switch lead {
    case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
    default: return (1, [0xEF, 0xBF, 0xBD])
    }
    guard index + length <= source.count else { return (1, [0xEF, 0xBF, 0xBD]) }
    for offset in 1..<length {
      let next = source[index + offset]
      guard next & 0xC0 == 0x80 else { return (1, [0xEF, 0xBF, 0xBD]) }
      value = value << 6 | UInt32(next & 0x3F)
    }
    guard let scalar = Unicode.Scalar(value) else { return (length, [0xEF, 0xBF, 0xBD]) }
    return (length, fold(scalar))
  }
}
