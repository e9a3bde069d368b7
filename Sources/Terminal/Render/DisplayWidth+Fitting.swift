extension DisplayWidth {
  /// Which side of a column text keeps to when padded.
  package enum Alignment: Sendable {
    /// Text first, spaces after (words).
    case left
    /// Spaces first, text after (numbers).
    case right
  }

  /// The ellipsis that ends cut text; one cell wide.
  package static let ellipsis = "…"

  /// `text` cut on a grapheme boundary so it fits in `limit` cells, ending with `…` when cut.
  ///
  /// A wide character that would straddle the limit is left out whole, so the result may be
  /// one cell short of `limit`; ``fit(_:toCells:alignment:)`` pads it back.
  package static func truncate(_ text: String, toCells limit: Int) -> String {
    if cells(text) <= limit { return text }
    guard limit > 0 else { return "" }
    let budget = limit - 1  // one cell for the ellipsis
    var result = ""
    var used = 0
    for character in text {
      let width = cells(character)
      if used + width > budget { break }
      result.append(character)
      used += width
    }
    // "Great …" reads worse than "Great…".
    while result.last == " " { result.removeLast() }
    return result + ellipsis
  }

  /// `text` padded with spaces to `width` cells (on the right for `.left`, on the left for
  /// `.right`); text already as wide or wider is returned unchanged.
  package static func pad(
    _ text: String, toCells width: Int, alignment: Alignment = .left
  ) -> String {
    let missing = width - cells(text)
    guard missing > 0 else { return text }
    let spaces = String(repeating: " ", count: missing)
    return alignment == .left ? text + spaces : spaces + text
  }

  /// `text` truncated and padded to exactly `width` cells.
  package static func fit(
    _ text: String, toCells width: Int, alignment: Alignment = .left
  ) -> String {
    pad(truncate(text, toCells: width), toCells: width, alignment: alignment)
  }

  /// `text` split into pieces of at most `width` cells on grapheme boundaries (never inside a
  /// wide character); used for words longer than a line.
  package static func chunks(_ text: String, toCells width: Int) -> [String] {
    guard width > 0 else { return [text] }
    var pieces: [String] = []
    var current = ""
    var used = 0
    for character in text {
      let characterWidth = cells(character)
      if used + characterWidth > width && !current.isEmpty {
        pieces.append(current)
        current = ""
        used = 0
      }
      current.append(character)
      used += characterWidth
    }
    if !current.isEmpty { pieces.append(current) }
    return pieces
  }
}
