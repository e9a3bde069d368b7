import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Searches one mapped file for folded words, at the pace of its bytes: a stretch with no byte
/// past ASCII (most of an English text) is searched as it is, by ``ASCIINeedle``; only the
/// lines around a byte past ASCII (an accent, a curly quote, all of a Latin-1 or Cyrillic text)
/// are folded (``TextFolding``) and searched folded, a few megabytes at a time, so memory stays
/// bounded whatever the file's size or line lengths; the pages read are given back every few
/// megabytes. Both find the same first match on each line as folding the whole file would. The
/// encoding and the "not text" test are the reader's (``TextBytes/encoding(of:)``,
/// ``BookText/notTextReason(_:encoding:)``), made on the same first bytes (``SearchedText``).
final class TextScanner {
  /// Bytes folded at a time: as many as the reader looks at to choose the encoding.
  static let pieceSize = TextBytes.encodingSample
  /// Pages read are given back to the kernel after this many bytes.
  static let releaseEvery = 8 << 20
  /// ASCII between two lines with bytes past it, up to this long, is folded with them rather
  /// than searched apart (each fold has a cost of its own).
  static let foldedGap = 4096

  /// What a scan found out about the file.
  enum Outcome: Equatable {
    /// Searched (to its end, or until told to stop).
    case searched
    /// Not text, and why (as the reader says it).
    case notText(String)
  }

  private let folding: TextFolding
  private let needle: [UInt8]
  private let ascii: ASCIINeedle?
  private let pieceSize: Int
  /// The encoding of the file being scanned.
  private(set) var encoding = TextBytes.Encoding.utf8

  /// A scanner for `needle` (folded by `folding`).
  init(needle: [UInt8], folding: TextFolding, pieceSize: Int = TextScanner.pieceSize) {
    self.needle = needle
    self.folding = folding
    ascii = ASCIINeedle(needle)
    self.pieceSize = max(pieceSize, needle.count * 8 + 1024)
  }

  /// How far before a forced cut (a line longer than a piece) a match may start and still be
  /// found whole: a folded byte comes from at most four bytes, plus room for spaces that
  /// folding collapses.
  private var overlap: Int { needle.count * 4 + 256 }

  @inline(__always) private static func isLineEnd(_ byte: UInt8) -> Bool {
    byte == 0x0A || byte == 0x0D
  }

  /// Calls `found` with the file bytes of the first match on each line of `text`, in order,
  /// until its end or until `found` returns false.
  func scan(_ text: SearchedText, found: (Range<Int>) -> Bool) -> Outcome {
    encoding = text.encoding
    guard let base = text.base else { return .searched }
    let count = text.count
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let origin = count >= 3 && (0..<3).allSatisfy { base[$0] == bom[$0] } ? 3 : 0
    if let reason = SearchedText.notTextReason(
      text.buffer(origin..<min(count, origin + 8192)), encoding: encoding)
    {
      return .notText(reason)
    }
    var released = 0
    func release(upTo position: Int) {
      guard position - released >= Self.releaseEvery else { return }
      text.release(released..<position)
      released = position
    }
    // The next byte past ASCII at or after `start` (a line's start or the line end before
    // it), `limit` when there is none before it: from the positions choosing the encoding
    // noted, then by reading (past the first 4 MiB, or past as many as were noted).
    var cursor = 0
    func nextHigh(from start: Int, to limit: Int) -> Int {
      guard start < text.highBytesEnd else {
        return Self.nextHighByte(base, from: start, to: limit)
      }
      let noted = text.highBytes
      while cursor < noted.count, noted[cursor] < start { cursor += 1 }
      if cursor < noted.count { return min(noted[cursor], limit) }
      return text.highBytesEnd >= limit
        ? limit : Self.nextHighByte(base, from: text.highBytesEnd, to: limit)
    }
    // Always at a line's start, or at the line end before it.
    var position = origin
    while position < count {
      let high = nextHigh(from: position, to: count)
      // The start of the line that byte is on (the end of the text when there is none).
      var special = high
      while special < count, special > position, !Self.isLineEnd(base[special - 1]) {
        special -= 1
      }
      if special > position, let ascii {
        guard searchASCII(ascii, base, position..<special, found, release) else { return .searched }
      }
      release(upTo: special)
      if high == count { break }
      // The line holding that byte, and the next ones while such bytes come close together.
      var end = lineEnd(base, from: high, count: count)
      while end < count {
        let limit = min(count, end + Self.foldedGap)
        let next = nextHigh(from: end, to: limit)
        guard next < limit else { break }
        end = lineEnd(base, from: next, count: count)
      }
      guard searchFolded(base, special..<end, found, release) else { return .searched }
      position = end
    }
    return .searched
  }

  /// The first line end at or after `from` (or `count`).
  private func lineEnd(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
    var position = from
    while position < count, !Self.isLineEnd(base[position]) { position += 1 }
    return position
  }

  /// The first byte past ASCII in `base[from..<to]`, or `to`: 64 bytes at a time (four
  /// vector loads ORed, one test), then a word at a time to the byte.
  static func nextHighByte(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    let highBits: UInt64 = 0x8080_8080_8080_8080
    var position = from
    let raw = UnsafeRawPointer(base)
    while position + 64 <= to {
      let bytes =
        raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
        | raw.loadUnaligned(fromByteOffset: position + 16, as: SIMD16<UInt8>.self)
        | raw.loadUnaligned(fromByteOffset: position + 32, as: SIMD16<UInt8>.self)
        | raw.loadUnaligned(fromByteOffset: position + 48, as: SIMD16<UInt8>.self)
      // Read as two words: `any()` of a vector comparison is a call.
      let words = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
      if (words[0] | words[1]) & highBits != 0 { break }
      position += 64
    }
    while position + 8 <= to {
      let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
      let high = UInt64(littleEndian: word) & highBits
      // The lowest set bit is the first such byte's (the word read little-endian).
      if high != 0 { return position + high.trailingZeroBitCount / 8 }
      position += 8
    }
    while position < to, base[position] < 0x80 { position += 1 }
    return position
  }

  /// The ASCII lines in `range` (whole lines, no byte past ASCII), searched unfolded.
  private func searchASCII(
    _ ascii: ASCIINeedle, _ base: UnsafePointer<UInt8>, _ range: Range<Int>,
    _ found: (Range<Int>) -> Bool, _ release: (Int) -> Void
  ) -> Bool {
    var from = range.lowerBound
    while from < range.upperBound {
      // Candidates a window at a time, so the pages behind are given back as the scan goes.
      let window = min(range.upperBound, from + Self.releaseEvery)
      guard let match = ascii.first(in: base, from: from, candidates: window, end: range.upperBound)
      else {
        release(window)
        if window == range.upperBound { return true }
        from = window
        continue
      }
      guard found(match) else { return false }
      // One match per line: the next is looked for after this line's end.
      from = lineEnd(base, from: match.upperBound, count: range.upperBound)
    }
    return true
  }

  /// `range` (whole lines) folded a piece at a time and searched folded; false when told to
  /// stop.
  private func searchFolded(
    _ base: UnsafePointer<UInt8>, _ range: Range<Int>, _ found: (Range<Int>) -> Bool,
    _ release: (Int) -> Void
  ) -> Bool {
    var begin = range.lowerBound
    var skipLine = false
    while begin < range.upperBound {
      // Up to the last line end of the piece; a line longer than a piece is cut `overlap`
      // bytes before the piece's end, and what is folded goes on to the end so a match across
      // the cut is found whole.
      let limit = min(range.upperBound, begin + pieceSize)
      var end = limit
      var foldEnd = limit
      if limit < range.upperBound {
        var last = limit - 1
        while last >= begin, !Self.isLineEnd(base[last]) { last -= 1 }
        if last >= begin {
          end = last + 1
          foldEnd = end
        } else {
          end = max(begin + 1, limit - overlap)
          while end > begin + 1, base[end] & 0xC0 == 0x80 { end -= 1 }
        }
      }
      let folded = folding.fold(
        UnsafeBufferPointer(start: base + begin, count: foldEnd - begin), base: begin,
        encoding: encoding)
      var from = 0
      if skipLine {
        if let lineEnd = folded.lineEnd(from: 0) {
          from = lineEnd
          skipLine = false
        } else {
          from = folded.bytes.count
        }
      }
      while let match = folded.find(needle, from: from) {
        let start = folded.fileOffset(ofStart: match.lowerBound)
        // Past the cut: found again, whole, in the next piece.
        if start >= end { break }
        if !found(start..<folded.fileOffset(ofEnd: match.upperBound)) { return false }
        // One match per line: the next is looked for after this line's end.
        guard let lineEnd = folded.lineEnd(from: match.upperBound) else {
          skipLine = true
          break
        }
        from = lineEnd
      }
      begin = end
      release(begin)
    }
    return true
  }
}
