import Foundation

/// One command typed at the pager's prompt.
package enum PagerCommand: Sendable, Hashable {
  /// Enter, space or `n` (without a search running).
  case next
  /// `p`.
  case previous
  /// `b` or `b NOTE`: bookmark the page's first row, with a note (empty for none).
  case mark(String)
  /// `b -2`: remove bookmark 2.
  case unmark(Int)
  /// `hl [note]`: highlight the current search match; `hl /FROM/ /TO/ [note]`: the passage from
  /// the next FROM on the page to the end of the next TO after it.
  case highlight(HighlightSpan, note: String)
  /// `bookmarks`: list this book's bookmarks.
  case bookmarks
  /// `g b2`: go to bookmark 2.
  case bookmark(Int)
  /// `g 50%`.
  case percent(Double)
  /// `g 120`.
  case line(Int)
  /// `/word`.
  case search(String)
  /// `n` after a search: the next match.
  case again
  /// `gg` or `g 0`: the first page, as in less.
  case start
  /// `G`: the last page, as in less.
  case end
  /// `toc`: the table of contents.
  case contents
  /// `toc 3`: go to entry 3 of the table of contents.
  case contentsEntry(Int)
  /// `set width 72`: wrap the text to 72 cells (or the window, when narrower); `set width`
  /// alone (or `auto`): to the window.
  case setWidth(Int?)
  /// `q`.
  case quit
  /// `?` or `h`.
  case help
  /// Anything else, with the text typed.
  case unknown(String)

  /// Parses a line typed at the prompt; `searching` says whether `n` repeats a search.
  package static func parse(_ line: String, searching: Bool) -> PagerCommand {
    let text = line.trimmingCharacters(in: .whitespaces)
    if text.hasPrefix("/") {
      let word = String(text.dropFirst()).trimmingCharacters(in: .whitespaces)
      // `/` alone repeats the last search, as in less and vi.
      return word.isEmpty ? .again : .search(word)
    }
    // Case matters here only: `G` is the end, `g` with a number a place.
    if text == "G" { return .end }
    if text == "gg" { return .start }
    switch text.lowercased() {
    case "", "f", " ": return .next
    case "n": return searching ? .again : .next
    case "p": return .previous
    case "b": return .mark("")
    case "bookmarks", "marks": return .bookmarks
    case "q", "quit": return .quit
    case "?", "h", "help": return .help
    case "toc", "contents": return .contents
    default: break
    }
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    if let first = words.first?.lowercased(), first == "hl" || first == "highlight" {
      let rest = text.dropFirst(first.count)
      // `hlx` is not `hl`.
      if rest.isEmpty || rest.first == " " {
        return HighlightSpan.parse(rest.trimmingCharacters(in: .whitespaces)).map {
          .highlight($0.span, note: $0.note)
        } ?? .unknown(line)
      }
    }
    if words.count == 2, words[0].lowercased() == "b", words[1].hasPrefix("-"),
      let number = Int(words[1].dropFirst()), number > 0
    {
      return .unmark(number)
    }
    if words.first == "b" || words.first == "B" {
      // The note is kept as typed, inner spaces included.
      return .mark(String(text.dropFirst()).trimmingCharacters(in: .whitespaces))
    }
    if words.count >= 2, words.count <= 3, words[0].lowercased() == "set",
      words[1].lowercased() == "width"
    {
      guard words.count == 3, words[2].lowercased() != "auto", words[2] != "0" else {
        return .setWidth(nil)
      }
      if let number = Int(words[2]), number >= Pager.narrowestText, number <= 1000 {
        return .setWidth(number)
      }
      return .unknown(line)
    }
    if words.first?.lowercased() == "toc", words.count == 2, let number = Int(words[1]),
      number > 0
    {
      return .contentsEntry(number)
    }
    if words.first?.lowercased() == "g", words.count == 2 {
      let argument = words[1]
      if argument.hasSuffix("%"), let value = Double(argument.dropLast()), value >= 0,
        value <= 100
      {
        return .percent(value)
      }
      if let number = Int(argument), number > 0 { return .line(number) }
      if argument.first == "b" || argument.first == "B", let number = Int(argument.dropFirst()),
        number > 0
      {
        return .bookmark(number)
      }
      if Int(argument) == 0 { return .start }
    }
    return .unknown(line)
  }
}
