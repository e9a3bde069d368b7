/// What a key does in the reader on a terminal, keys like more(1) and less: a pure function
/// of the key, the number typed before it and the page's height, so the keys are one table
/// that ``ReaderSession`` then acts on (and a test reads without a terminal).
enum ReaderKeyAction: Equatable {
  /// A digit: the number typed before a key (`50%`, `120g`, `5j`) grows by it.
  case digit(Int)
  /// A line-mode command, as typed at the `:` prompt.
  case command(PagerCommand)
  /// A command that jumps, so `''` can come back to where the reader was.
  case jump(PagerCommand)
  /// The page this many rows on (or back, negative).
  case move(rows: Int)
  /// `/` or `?`: asks for a word to search for.
  case search(backward: Bool)
  /// `n` or `N`: the last search again, in its direction or (`reversed`) the other.
  case repeatSearch(reversed: Bool)
  /// `m`: asks for a note and bookmarks the first row shown.
  case mark
  /// `'`: asks which mark to go to.
  case goToMark
  /// `r` or Ctrl-L: the page drawn again.
  case redraw
  case quit
  /// `:`, or a key of no command of its own, which begins a command (`toc`, `set width 72`).
  case commandLine(typed: String)
  /// A key the reader has no use for.
  case nothing

  /// What `key` does after `count` was typed, on a page `pageHeight` rows high.
  init(_ key: ReaderKey, count: Int?, pageHeight: Int) {
    let half = max(1, pageHeight / 2)
    switch key {
    case .character(let character) where character.isASCII && character.wholeNumberValue != nil:
      self = .digit(character.wholeNumberValue ?? 0)
    case .character(" "), .character("f"), .pageDown, .control("f"), .control("v"):
      self = .command(.next)
    case .character("b"), .pageUp, .control("b"):
      self = .command(.previous)
    case .character("j"), .down, .enter, .control("n"), .control("e"):
      self = .move(rows: count ?? 1)
    case .character("k"), .up, .control("p"), .control("y"):
      self = .move(rows: -(count ?? 1))
    case .character("d"), .control("d"):
      self = .move(rows: count ?? half)
    case .character("u"), .control("u"):
      self = .move(rows: -(count ?? half))
    case .character("g"), .character("<"), .home:
      self = .jump(count.map { .line($0) } ?? .start)
    case .character("G"), .character(">"), .end:
      self = .jump(count.map { .line($0) } ?? .end)
    case .character("%") where count != nil:
      self = .jump(.percent(Double(min(count ?? 0, 100))))
    case .character("/"), .character("?"):
      self = .search(backward: key == .character("?"))
    case .character("n"), .character("N"):
      self = .repeatSearch(reversed: key == .character("N"))
    case .character("m"):
      self = .mark
    case .character("'"):
      self = .goToMark
    case .character("r"), .character("R"), .control("l"):
      self = .redraw
    case .character("q"), .character("Q"):
      self = .quit
    case .character("h"), .character("H"):
      self = .command(.help)
    case .character(":"):
      self = .commandLine(typed: "")
    case .character(let character):
      self = .commandLine(typed: String(character))
    case .control, .other:
      self = .nothing
    }
  }
}
