import Catalog
import Foundation

/// The reader on a terminal: keys like more(1) and less, without Enter. Every move still
/// appends the page as plain lines under the last (no alternate screen, no cursor addressing),
/// so scrollback and screen readers keep working; only the `:` prompt's own row is rewritten
/// when a key is pressed. `:` reads a line of the line-mode commands for everything else.
extension ReaderSession {
  /// Reads keys until `q` or the end of input; the position is saved after every move.
  func runKeys(_ keys: any KeySource) async -> ExitStatus {
    while true {
      writeKeyPrompt()
      waitingForKey = true
      let key = await keys.nextKey()
      waitingForKey = false
      // The prompt's row is taken by what the key shows (or by the next prompt).
      output.write("\r\u{1B}[K")
      guard let key else { break }
      if fileChanged() { return .dataError }
      // Quitting needs nothing more of the book; every other key, its whole text.
      let quits = key == .character("q") || key == .character("Q")
      if !quits, await !continueInWholeText() { return .dataError }
      guard await press(key, keys: keys) else { break }
      await savePosition()
    }
    await savePosition()
    return .ok
  }

  /// The prompt: a pending note, the number typed so far, and `:`, as less shows it.
  func writeKeyPrompt() {
    var prompt = pending.map { style.dim($0) + " " } ?? ""
    pending = nil
    prompt += ":"
    if let count { prompt += String(count) }
    output.write(prompt)
  }

  /// Acts on one key; false to quit.
  private func press(_ key: ReaderKey, keys: any KeySource) async -> Bool {
    let number = count
    let action = ReaderKeyAction(key, count: number, pageHeight: pager.height)
    if case .digit(let digit) = action {
      count = min((count ?? 0) * 10 + digit, 1_000_000_000)
      return true
    }
    count = nil
    if listing != nil {
      switch key {
      case .character(" "), .character("f"), .enter, .character("j"), .down, .pageDown:
        return showMoreOfListing()
      case .character("q"), .other:
        listing = nil
        show()
        return true
      default:
        listing = nil
      }
    }
    switch action {
    case .command(let command):
      return await perform(command)
    case .jump(let command):
      beforeJump = pager.top
      return await perform(command)
    case .move(let rows):
      move(by: rows)
    case .search(let backward):
      guard let word = await keys.line(prompt: backward ? "?" : "/", typed: "") else {
        return true
      }
      let needle = word.trimmingCharacters(in: .whitespaces)
      searchingBackward = backward
      if needle.isEmpty { return repeatSearch(reversed: false) }
      search(needle, notFound: "not found: \(Sanitizer.sanitize(needle))", backward: backward)
    case .repeatSearch(let reversed):
      return repeatSearch(reversed: reversed)
    case .mark:
      guard let note = await keys.line(prompt: "note (Enter for none): ", typed: "") else {
        return true
      }
      await mark(note: note.trimmingCharacters(in: .whitespaces))
    case .goToMark:
      await goToMark(keys: keys)
    case .redraw:
      show()
    case .quit:
      return false
    case .commandLine(let typed):
      return await commandLine(keys: keys, typed: typed)
    case .digit, .nothing:
      break
    }
    return true
  }

  /// `j`, `k`, `d`, `u`: the page `rows` rows on or back.
  private func move(by rows: Int) {
    if pager.scroll(by: rows) {
      show()
    } else {
      note(rows > 0 ? "(end of the book)" : "(start of the book)")
    }
  }

  /// `n` (and `N`, `reversed`): the last search again, in its direction (or the other).
  private func repeatSearch(reversed: Bool) -> Bool {
    guard let last = pager.lastSearch else {
      output.printError("error: no search to repeat: type /word first")
      return true
    }
    search(last, notFound: "no more matches", backward: searchingBackward != reversed)
    return true
  }

  /// `:` and a line: any command of the line-mode reader (`toc 3`, `g 50%`, `marks`,
  /// `set width 72`, `b a note`).
  private func commandLine(keys: any KeySource, typed: String) async -> Bool {
    guard let line = await keys.line(prompt: ":", typed: typed) else { return true }
    guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return true }
    let command = PagerCommand.parse(line, searching: searching)
    if case .again = command {} else { searching = false }
    switch command {
    case .percent, .line, .start, .end, .bookmark, .contentsEntry: beforeJump = pager.top
    default: break
    }
    return await perform(command)
  }

  /// `'`: asks which mark (`2` or `b2`), Enter for the one made last (or the newest), `'` for
  /// where the reader was before its last jump.
  private func goToMark(keys: any KeySource) async {
    let bookmarks = (try? await service.marks.bookmarks(id: id)) ?? []
    let range = bookmarks.isEmpty ? "" : bookmarks.count == 1 ? "b1" : "b1–b\(bookmarks.count)"
    let prompt = "go to mark (\(range.isEmpty ? "" : range + ", ")Enter the last, ' back): "
    guard let answer = await keys.line(prompt: prompt, typed: "") else { return }
    let text = answer.trimmingCharacters(in: .whitespaces)
    let from = pager.top
    if text == "'" {
      guard let back = beforeJump else { return note("(no jump to go back from)") }
      pager.go(offset: back)
      beforeJump = from
      return show()
    }
    let number: Int?
    if text.isEmpty {
      let last =
        bookmarks.firstIndex { $0.key == lastMark }
        ?? bookmarks.indices.max { bookmarks[$0].createdAt < bookmarks[$1].createdAt }
      number = last.map { $0 + 1 }
    } else {
      number = Int(text.hasPrefix("b") || text.hasPrefix("B") ? String(text.dropFirst()) : text)
    }
    guard let number else {
      return output.printError(
        bookmarks.isEmpty
          ? "error: this book has no marks (m makes one)"
          : "error: '\(Sanitizer.sanitize(text))' is not a mark (marks are \(range))")
    }
    beforeJump = from
    await goTo(bookmark: number)
  }
}
