import Foundation

/// A line-mode pager over a ``BookText``: a page of terminal height, next and previous pages,
/// jumps to a percentage or a line, and forward search. Positions are line indexes of the
/// book's text, so they stay valid whatever the width.
public struct Pager: Sendable {
  /// The book.
  public let text: BookText
  /// The title for the status line.
  public var title: String
  /// Cells per line.
  public var width: Int
  /// Lines of text per page (the status line comes on top of these).
  public var height: Int
  /// Show the PG header and licence too.
  public var raw: Bool
  /// The first line shown (an index into the text).
  public private(set) var top: Int
  /// The last search, for `n` to repeat.
  public private(set) var lastSearch: String?

  /// A pager at `top` (clamped into the visible lines).
  public init(
    text: BookText, title: String, width: Int, height: Int, raw: Bool = false, top: Int? = nil
  ) {
    self.text = text
    self.title = title
    self.width = max(20, width)
    self.height = max(3, height)
    self.raw = raw
    self.top = 0
    self.top = clamp(top ?? visible.lowerBound)
  }

  /// The lines that can be shown: all of them with `raw`, else the body.
  public var visible: Range<Int> { raw ? 0..<text.lineCount : text.body }

  private func clamp(_ line: Int) -> Int {
    guard !visible.isEmpty else { return visible.lowerBound }
    return min(max(line, visible.lowerBound), visible.upperBound - 1)
  }

  /// Display lines for one text line, wrapped by display width (indentation kept when it fits).
  func wrapped(_ index: Int) -> [String] {
    let line = text.line(index)
    if line.isEmpty { return [""] }
    let indent = line.prefix { $0 == " " }.count
    let prefix = indent < width / 2 ? String(repeating: " ", count: indent) : ""
    let body = String(line.dropFirst(indent))
    return TextWrapper.wrap(body, toCells: width, firstPrefix: prefix, prefix: prefix)
  }

  /// The current page's lines, and the first text line of the next page.
  public func page() -> (lines: [String], next: Int) {
    var lines: [String] = []
    var index = top
    while index < visible.upperBound, lines.count < height {
      let pieces = wrapped(index)
      // A line taller than a page is cut; it still counts as shown.
      if lines.count + pieces.count > height, !lines.isEmpty { break }
      lines += pieces.prefix(height - lines.count)
      index += 1
    }
    return (lines, index)
  }

  /// True when the page shown reaches the end.
  public var atEnd: Bool { page().next >= visible.upperBound }

  /// Moves one page on; false at the end.
  @discardableResult
  public mutating func nextPage() -> Bool {
    let next = page().next
    guard next < visible.upperBound else { return false }
    top = next
    return true
  }

  /// Moves one page back; false at the start.
  @discardableResult
  public mutating func previousPage() -> Bool {
    guard top > visible.lowerBound else { return false }
    var used = 0
    var index = top
    while index > visible.lowerBound {
      let count = wrapped(index - 1).count
      if used + count > height, used > 0 { break }
      used += count
      index -= 1
    }
    top = index
    return true
  }

  /// Jumps to `percent` (0...100) of the visible text.
  public mutating func go(percent: Double) {
    let fraction = min(max(percent, 0), 100) / 100
    top = clamp(visible.lowerBound + Int((Double(visible.count) * fraction).rounded(.down)))
  }

  /// Jumps to visible line `number` (1-based).
  public mutating func go(line number: Int) {
    top = clamp(visible.lowerBound + number - 1)
  }

  /// The line number (1-based, within the visible text) of the top line.
  public var lineNumber: Int { top - visible.lowerBound + 1 }

  /// How far through the visible text the top line is, 0...100.
  public var percent: Int {
    guard visible.count > 0 else { return 100 }
    return Int(Double(top - visible.lowerBound) * 100 / Double(visible.count))
  }

  /// Finds `word` (case- and accent-insensitive) after the top line and moves there; false when
  /// it is not found (the position is kept).
  public mutating func search(_ word: String) -> Bool {
    lastSearch = word
    let needle = word.trimmingCharacters(in: .whitespaces)
    guard !needle.isEmpty else { return false }
    var index = top + 1
    while index < visible.upperBound {
      if text.line(index).range(
        of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
      {
        top = index
        return true
      }
      index += 1
    }
    return false
  }

  /// `Title · line 1,234 of 7,000 · 17%`, fitted to the width.
  public var statusLine: String {
    let position =
      " · line \(TextFormat.grouped(lineNumber)) of \(TextFormat.grouped(visible.count))"
      + " · \(percent)%"
    let room = max(8, width - DisplayWidth.cells(position))
    return DisplayWidth.truncate(Sanitizer.sanitize(title), toCells: room) + position
  }

  /// The keys, for the prompt line.
  public static let keys = "Enter/n next · p prev · g N% or g LINE · /word, then n · q quit"
}

extension Pager: LineRendering {
  /// The current page at `width` and its status line.
  public func lines(width: Int, style: Style) -> [String] {
    var copy = self
    copy.width = max(20, width)
    return copy.page().lines + [style.dim(copy.statusLine)]
  }
}
