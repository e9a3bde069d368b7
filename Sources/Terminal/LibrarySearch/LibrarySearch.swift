import Catalog
import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `library search`: finds words in every downloaded plain text, a file at a time, each file
/// mapped and scanned at the pace of its bytes (``TextScanner``), case- and
/// accent-insensitively. A match in the Project Gutenberg header or licence is passed over, as
/// the reader folds them away; the chapter is the reader's table of contents'. Both are kept
/// with the library when the download is recorded (``contents(of:)``); for a download recorded
/// without them (or whose file changed since) they are worked out once, for a book that has a
/// match, and only for the search that needs them.
package final class LibrarySearch {
  /// What the search met, in the order of the library.
  package enum Event: Sendable {
    /// A line with the words.
    case match(LibraryMatch)
    /// A text that could not be searched, and why (missing, unreadable, not text).
    case skipped(LibraryEntry, String)
  }

  /// The version of what ``contents(of:)`` works out: contents kept by another version are
  /// worked out again. Raise it whenever the reader's table of contents (or the PG header and
  /// licence it leaves out) is found differently.
  package static let contentsVersion = 1

  private let folding = TextFolding()
  private let needle: [UInt8]
  private let scanner: TextScanner
  /// Cells the line of a match is cut to.
  private let cells: Int

  /// A search for `words` whose lines are cut to `cells` terminal cells.
  package init(words: String, cells: Int) {
    needle = folding.needle(words)
    scanner = TextScanner(needle: needle, folding: folding)
    self.cells = max(20, cells)
  }

  /// False when the words fold to nothing (only spaces, or only combining marks).
  package var hasWords: Bool { !needle.isEmpty }

  /// True for the downloads searched: plain text (the reader's format).
  package static func isPlainText(_ entry: LibraryEntry) -> Bool {
    entry.format == "txt" || entry.format.lowercased().hasPrefix("text/plain")
  }

  /// What a search needs of `entry`'s text besides its words (its body and chapters), to keep
  /// with the library; nil for a download that is not plain text, or a file that cannot be
  /// read or is not text.
  package static func contents(of entry: LibraryEntry) -> LibraryContents? {
    guard isPlainText(entry), let bytes = try? TextBytes(path: entry.path) else { return nil }
    let text = BookText(bytes: bytes)
    guard text.notText == nil else { return nil }
    let chapters = TableOfContents(text, in: text.bodyBytes).entries.map {
      LibraryContents.Chapter(title: $0.title, offset: $0.offset)
    }
    return LibraryContents(
      id: entry.id, format: entry.format, size: Int64(bytes.count), version: contentsVersion,
      body: text.bodyBytes, chapters: chapters)
  }

  /// Searches each plain-text entry in turn, calling `handle` with what it finds; stops when
  /// `handle` returns false. `kept` holds the contents the library keeps, by download.
  package func run(
    _ entries: [LibraryEntry], kept: [LibraryContents] = [], _ handle: (Event) -> Bool
  ) {
    var contents: [String: LibraryContents] = [:]
    for found in kept where found.version == Self.contentsVersion {
      contents["\(found.id)\t\(found.format)"] = found
    }
    for entry in entries where Self.isPlainText(entry) {
      guard search(entry, kept: contents["\(entry.id)\t\(entry.format)"], handle) else { return }
    }
  }

  /// The body and chapters of a text, however they were found.
  private struct Parts {
    var body: Range<Int>?
    var chapters: [LibraryContents.Chapter]
  }

  /// Searches one file; false when told to stop.
  private func search(_ entry: LibraryEntry, kept: LibraryContents?, _ handle: (Event) -> Bool)
    -> Bool
  {
    // Without blocking: a FIFO where a book was must not hang the search.
    let descriptor: Int32
    do {
      descriptor = try RegularFile.open(entry.path, flags: O_RDONLY)
    } catch {
      let reason =
        error.isAbsent
        ? "its file \(entry.path) is missing"
        : error.reason.hasPrefix("is ")
          ? "\(entry.path) is not a regular file" : "cannot read \(error.description)"
      return handle(.skipped(entry, reason))
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      return handle(.skipped(entry, "\(entry.path) is not a regular file"))
    }
    let bytes: SearchedText
    do {
      bytes = try SearchedText(descriptor: descriptor, count: Int(info.st_size))
    } catch {
      return handle(.skipped(entry, "cannot read \(entry.path): \(error.localizedDescription)"))
    }
    // Kept contents are used only for the file they were worked out from.
    var parts: Parts? =
      kept.flatMap {
        $0.size == Int64(bytes.count) ? Parts(body: $0.body, chapters: $0.chapters) : nil
      }
    var stopped = false
    let outcome = scanner.scan(bytes) { range in
      // Otherwise the header and licence, and the chapters, are found once, when the book has
      // a match at all.
      if parts == nil { parts = Self.parts(of: entry) }
      if let body = parts?.body, !body.contains(range.lowerBound) { return true }
      let chapter = parts?.chapters.last { $0.offset <= range.lowerBound }?.title
      let match = context(bytes, match: range, entry: entry, chapter: chapter)
      guard handle(.match(match)) else {
        stopped = true
        return false
      }
      return true
    }
    if case .notText(let reason) = outcome {
      return handle(.skipped(entry, "its file is not text (\(reason))"))
    }
    return !stopped
  }

  /// The body and chapters of `entry`'s text as ``contents(of:)`` finds them, or none when it
  /// cannot be read as the reader reads it.
  private static func parts(of entry: LibraryEntry) -> Parts {
    guard let bytes = try? TextBytes(path: entry.path) else {
      return Parts(body: nil, chapters: [])
    }
    let text = BookText(bytes: bytes)
    let chapters = TableOfContents(text, in: text.bodyBytes).entries.map {
      LibraryContents.Chapter(title: $0.title, offset: $0.offset)
    }
    return Parts(body: text.bodyBytes, chapters: chapters)
  }

  /// The line around `match` (only the bytes that can be shown).
  private func context(
    _ text: SearchedText, match: Range<Int>, entry: LibraryEntry, chapter: String?
  ) -> LibraryMatch {
    let size = text.count
    let reach = cells * 4 + 64
    let windowStart = max(0, match.lowerBound - reach)
    let windowEnd = min(size, match.upperBound + reach)
    let bytes = Array(text.buffer(windowStart..<max(windowStart, windowEnd)))
    let start = match.lowerBound - windowStart
    let end = min(bytes.count, match.upperBound - windowStart)
    guard start >= 0, start <= end else {
      return LibraryMatch(
        entry: entry, chapter: chapter, offset: match.lowerBound, before: "", match: "",
        after: "")
    }
    func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    var lineStart = start
    while lineStart > 0, !isLineEnd(bytes[lineStart - 1]) { lineStart -= 1 }
    let cutLeft = lineStart == 0 && windowStart > 0 && !isLineEnd(bytes.first ?? 0x0A)
    // Not from the middle of a character.
    if cutLeft, scanner.encoding == .utf8 {
      while lineStart < start, bytes[lineStart] & 0xC0 == 0x80 { lineStart += 1 }
    }
    var lineEnd = end
    while lineEnd < bytes.count, !isLineEnd(bytes[lineEnd]) { lineEnd += 1 }
    let cutRight = lineEnd == bytes.count && windowEnd < size
    // Combining marks after the match belong to its last letter.
    var matchEnd = end
    while matchEnd < lineEnd, let (scalar, length) = scalar(in: bytes, at: matchEnd),
      scalar.properties.generalCategory == .nonspacingMark
    {
      matchEnd += length
    }
    let before = decode(bytes[lineStart..<start])
    let found = Sanitizer.sanitize(decode(bytes[start..<matchEnd]))
    let after = decode(bytes[matchEnd..<lineEnd])
    var left = Sanitizer.sanitize(before)
    if !left.isEmpty, before.last?.isWhitespace == true { left += " " }
    var right = Sanitizer.sanitize(after)
    if !right.isEmpty, after.first?.isWhitespace == true { right = " " + right }
    let shown = DisplayWidth.truncate(found, toCells: max(8, cells - 8))
    let room = max(0, cells - DisplayWidth.cells(shown))
    let leftNeed = DisplayWidth.cells(left) + (cutLeft ? 1 : 0)
    let rightNeed = DisplayWidth.cells(right) + (cutRight ? 1 : 0)
    var leftRoom = leftNeed
    if leftNeed + rightNeed > room {
      leftRoom = min(leftNeed, max(room / 2, room - rightNeed))
    }
    let rightRoom = room - leftRoom
    return LibraryMatch(
      entry: entry, chapter: chapter, offset: match.lowerBound,
      before: Self.suffix(left, toCells: leftRoom, cut: cutLeft), match: shown,
      after: Self.prefix(right, toCells: rightRoom, cut: cutRight))
  }

  /// The bytes as the reader decodes them.
  private func decode(_ bytes: ArraySlice<UInt8>) -> String {
    bytes.withUnsafeBufferPointer { buffer in
      scanner.encoding == .windows1252
        ? TextBytes.decodeWindows1252(buffer) : String(decoding: buffer, as: UTF8.self)
    }
  }

  /// The character at `index` and its length in bytes.
  private func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
    if scanner.encoding == .windows1252 { return (TextBytes.windows1252[Int(bytes[index])], 1) }
    var iterator = bytes[index...].makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
    return (scalar, UTF8.width(scalar))
  }

  /// The end of `text` that fits in `cells`, after `…` when something is left out.
  static func suffix(_ text: String, toCells cells: Int, cut: Bool) -> String {
    if !cut, DisplayWidth.cells(text) <= cells { return text }
    guard cells > 0 else { return "" }
    var kept: [Character] = []
    var used = 1
    for character in text.reversed() {
      let width = DisplayWidth.cells(character)
      if used + width > cells { break }
      kept.append(character)
      used += width
    }
    while kept.last == " " { kept.removeLast() }
    return DisplayWidth.ellipsis + String(kept.reversed())
  }

  /// The start of `text` that fits in `cells`, before `…` when something is left out.
  static func prefix(_ text: String, toCells cells: Int, cut: Bool) -> String {
    if !cut { return DisplayWidth.truncate(text, toCells: cells) }
    guard cells > 0 else { return "" }
    let shortened = DisplayWidth.truncate(text, toCells: cells - 1)
    return shortened.hasSuffix(DisplayWidth.ellipsis)
      ? shortened : shortened + DisplayWidth.ellipsis
  }
}
