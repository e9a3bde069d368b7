import Foundation

/// A line-mode pager over a ``BookText`` that pages by display rows: a page is `height`
/// wrapped rows, whatever the length of the source lines, so no text is ever skipped.
///
/// The position is the byte offset of the first row shown, so it does not depend on the width:
/// drawn at another width, the page starts with the row holding that offset, and the first word
/// on screen stays on screen.
package struct Pager: Sendable {
  /// The book.
  package let text: BookText
  /// The title for the status line.
  package var title: String
  /// Cells per line: the window's width.
  package var width: Int
  /// The width prose is wrapped to when it is narrower than the window (`--width`,
  /// `:set width`); nil: the window's.
  package var textWidth: Int?
  /// Rows of text per page (the status line comes on top of these).
  package var height: Int
  /// Show the PG header and licence too.
  package var raw: Bool
  /// The byte offset of the first row shown.
  package internal(set) var top: Int
  /// The last search, for `n` to repeat.
  package internal(set) var lastSearch: String?
  /// The bytes of the match the last search moved to, marked on the page.
  package internal(set) var match: Range<Int>?
  /// The reading speed the time left is worked out at, in words a minute (`GUTENBERG_WPM`).
  package var wordsPerMinute = 250
  /// Where the book's chapters start (its table of contents' entries), once known.
  package var chapterStarts: [Int] = []
  /// The rows of the pieces wrapped last, the pieces found and the pages cut (shared by
  /// copies: they depend only on the text).
  private let cache = RowCache()

  /// This pager over `text` (the whole of the text it shows the start of), at the same place,
  /// search and settings.
  package func continued(in text: BookText) -> Pager {
    var pager = Pager(
      text: text, title: title, width: width, height: height, raw: raw, top: top,
      textWidth: textWidth)
    pager.lastSearch = lastSearch
    pager.match = match
    pager.wordsPerMinute = wordsPerMinute
    return pager
  }

  /// A pager at byte offset `top` (moved into the visible text).
  package init(
    text: BookText, title: String, width: Int, height: Int, raw: Bool = false, top: Int? = nil,
    textWidth: Int? = nil
  ) {
    self.text = text
    self.title = title
    self.width = max(20, width)
    self.textWidth = textWidth
    self.height = max(3, height)
    self.raw = raw
    self.top = 0
    self.top = rowStart(containing: top ?? visible.lowerBound)
  }

  /// The narrowest text width that can be asked for.
  package static let narrowestText = 20

  /// The cells rows are wrapped to: the window's width, or the text width when narrower.
  var wrapWidth: Int { min(width, max(Self.narrowestText, textWidth ?? width)) }

  /// The bytes that can be shown: all of them with `raw`, else the body.
  package var visible: Range<Int> { raw ? text.allBytes : text.bodyBytes }

  /// The lines that can be shown.
  package var visibleLines: Range<Int> { raw ? 0..<text.lineCount : text.body }

  /// A row of a wrapped piece.
  struct Cursor {
    var piece: TextPiece
    var rows: [TextRow]
    var row: Int
    var start: Int { rows[row].start }
  }

  /// The rows of `piece` at the width rows are wrapped to.
  func rows(of piece: TextPiece) -> [TextRow] {
    let width = wrapWidth
    return cache.rows(of: piece, width: width) { text.rows(of: piece, width: width) }
  }

  /// The row holding byte `offset`.
  func cursor(at offset: Int) -> Cursor {
    let piece = text.piece(containing: offset, in: visible, cache: cache)
    let rows = rows(of: piece)
    let row = rows.lastIndex { $0.start <= offset } ?? 0
    return Cursor(piece: piece, rows: rows, row: row)
  }

  /// Moves `cursor` one row on; false at the end.
  func advance(_ cursor: inout Cursor) -> Bool {
    if cursor.row + 1 < cursor.rows.count {
      cursor.row += 1
      return true
    }
    guard let next = text.piece(after: cursor.piece, in: visible, cache: cache) else {
      return false
    }
    cursor = Cursor(piece: next, rows: rows(of: next), row: 0)
    return true
  }

  /// Moves `cursor` one row back; false at the start.
  func retreat(_ cursor: inout Cursor) -> Bool {
    if cursor.row > 0 {
      cursor.row -= 1
      return true
    }
    guard let previous = text.piece(before: cursor.piece, in: visible, cache: cache) else {
      return false
    }
    let rows = rows(of: previous)
    cursor = Cursor(piece: previous, rows: rows, row: rows.count - 1)
    return true
  }

  /// The start of the row holding `offset` at the current width.
  func rowStart(containing offset: Int) -> Int {
    guard !visible.isEmpty else { return visible.lowerBound }
    return cursor(at: offset).start
  }

  /// The current page's rows, and the start of the next page's first row (nil at the end).
  package func page() -> (rows: [TextRow], next: Int?) {
    guard !visible.isEmpty else { return ([], nil) }
    // Drawn, then turned (which needs where the next page starts): cut once.
    return cache.page(top: top, width: wrapWidth, height: height, visible: visible) {
      cutPage()
    }
  }

  /// The current page's rows, cut from the text.
  private func cutPage() -> (rows: [TextRow], next: Int?) {
    var cursor = cursor(at: top)
    var rows = [cursor.rows[cursor.row]]
    while rows.count < height {
      guard advance(&cursor) else { return (rows, nil) }
      rows.append(cursor.rows[cursor.row])
    }
    return (rows, advance(&cursor) ? cursor.start : nil)
  }

  /// True when the page shown reaches the end.
  package var atEnd: Bool { page().next == nil }

  /// Moves one page on; false at the end.
  @discardableResult
  package mutating func nextPage() -> Bool {
    guard let next = page().next else { return false }
    top = next
    match = nil
    return true
  }

  /// Moves one page back; false at the start.
  @discardableResult
  package mutating func previousPage() -> Bool {
    guard !visible.isEmpty else { return false }
    var cursor = cursor(at: top)
    var moved = 0
    while moved < height, retreat(&cursor) { moved += 1 }
    guard moved > 0 else { return false }
    top = cursor.start
    match = nil
    return true
  }

  /// Moves `rows` display rows on (back when negative), as `j` and `k` do in less; false when
  /// it cannot. Forward, it stops at the last page (the one that ends with the text's end).
  @discardableResult
  package mutating func scroll(by rows: Int) -> Bool {
    guard !visible.isEmpty, rows != 0 else { return false }
    var cursor = cursor(at: top)
    var moved = 0
    if rows > 0 {
      guard !atEnd else { return false }
      while moved < rows, advance(&cursor) { moved += 1 }
      var probe = self
      probe.top = cursor.start
      if probe.atEnd { goToEnd() } else { top = cursor.start }
    } else {
      while moved < -rows, retreat(&cursor) { moved += 1 }
      guard moved > 0 else { return false }
      top = cursor.start
    }
    match = nil
    return true
  }

  /// Jumps to `percent` (0...100) of the visible text.
  package mutating func go(percent: Double) {
    let fraction = min(max(percent, 0), 100) / 100
    let offset = visible.lowerBound + Int((Double(visible.count) * fraction).rounded(.down))
    top = rowStart(containing: min(offset, max(visible.lowerBound, visible.upperBound - 1)))
    match = nil
  }

  /// Jumps to visible line `number` (1-based).
  package mutating func go(line number: Int) {
    guard !visibleLines.isEmpty else { return }
    let line = min(visibleLines.lowerBound + max(number, 1) - 1, visibleLines.upperBound - 1)
    top = rowStart(containing: text.index.start(ofLine: line, in: text.bytes))
    match = nil
  }

  /// Jumps to byte `offset` (the row holding it comes first).
  package mutating func go(offset: Int) {
    top = rowStart(containing: offset)
    match = nil
  }

  /// The line (from 0, counting every line of the text) holding the first row.
  package var topLine: Int { text.index.lineNumber(of: top, in: text.bytes) }

  /// The line number (1-based, within the visible text) of the first row.
  package var lineNumber: Int { topLine - (raw ? 0 : text.foldedHeaderLines) + 1 }

  /// How far through the visible text the first row is, 0...100; 100 on the last page, which
  /// shows the end (the first row of a last page is rarely at the very end).
  package var percent: Int {
    guard visible.count > 0, !atEnd else { return 100 }
    return Int(Double(top - visible.lowerBound) * 100 / Double(visible.count))
  }

  /// `Title · line 1,234 of 7,000 · 17%`, fitted to the width.
  package var statusLine: String {
    // The count once the text is indexed (a large book's first page is shown before that).
    let total =
      text.index.isComplete && !text.isPartial
      ? " of \(TextFormat.grouped(visibleLines.count))" : ""
    let line = " · line \(TextFormat.grouped(lineNumber))\(total)"
    let title = Sanitizer.title(title)
    // The start of an EPUB still being read: how far through and how long are not known.
    guard !text.isPartial else {
      return DisplayWidth.truncate(title, toCells: max(8, width - DisplayWidth.cells(line)))
        + line
    }
    // The time left, as much of it as leaves the title whole (the chapter's first).
    let times = timeLeft
    let choices = [times, Array(times.prefix(1)), Array(times.suffix(1)), []]
    let position =
      choices.lazy.map { line + $0.map { " · " + $0 }.joined() + " · \(percent)%" }.first {
        DisplayWidth.cells(title) + DisplayWidth.cells($0) <= width
      } ?? line + " · \(percent)%"
    let room = max(8, width - DisplayWidth.cells(position))
    return DisplayWidth.truncate(title, toCells: room) + position
  }

  /// `3 min left in chapter` (once the chapters are known) and `1 h 5 min in book`: the rest
  /// of each at ``wordsPerMinute``, from the words the text's bytes hold.
  var timeLeft: [String] {
    let bytesPerMinute = text.bytesPerWord * Double(max(1, wordsPerMinute))
    func minutes(_ bytes: Int) -> String {
      ReadingLength.duration(minutes: Int((Double(max(0, bytes)) / bytesPerMinute).rounded(.up)))
    }
    var parts: [String] = []
    if !chapterStarts.isEmpty {
      let end = chapterStarts.first { $0 > top } ?? visible.upperBound
      parts.append("\(minutes(end - top)) left in chapter")
    }
    parts.append("\(minutes(visible.upperBound - top)) in book")
    return parts
  }

  /// The keys, for the prompt line.
  package static let keys =
    "Enter/n next · p prev · g N% or g LINE · gg first · G last · /word, then n or / · "
    + "toc, toc N · b [note] mark · hl [note] highlight the match · bookmarks, g bN, b -N · "
    + "q quit"

  /// The keys on a terminal, where they need no Enter (for `h`).
  package static let singleKeys =
    "Space/f next · b back · j/k a line · d/u half · g/G first/last · 50% or 120g · "
    + "/word ?word, n/N · m mark (and a note) · ' go to a mark · r repaint · "
    + ": a command (toc, toc N, marks, hl [note], g 50%, set width 72) · q quit"

  /// Goes to the last page: the one whose rows end with the text's last row.
  package mutating func goToEnd() {
    top = rowStart(containing: max(visible.upperBound - 1, visible.lowerBound))
    match = nil
    var cursor = cursor(at: top)
    var moved = 1
    while moved < height, retreat(&cursor) { moved += 1 }
    top = cursor.start
  }
}

extension Pager: LineRendering {
  /// The current page at `width` (the search match marked) and its status line.
  package func lines(width: Int, style: Style) -> [String] {
    var copy = self
    copy.width = max(20, width)
    let (rows, next) = copy.page()
    var lines: [String] = []
    for (number, row) in rows.enumerated() {
      let end = number + 1 < rows.count ? rows[number + 1].start : (next ?? visible.upperBound)
      if let match, let word = lastSearch, match.lowerBound < max(end, row.start + 1),
        match.upperBound > row.start
      {
        lines += Self.mark(word, in: row.text, width: copy.wrapWidth, style: style)
      } else {
        lines.append(row.text)
      }
    }
    return lines + [style.dim(copy.statusLine)]
  }
}
