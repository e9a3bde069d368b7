import Catalog
import Foundation

/// One book open in the line-mode reader: the page (a ``Pager``), the commands typed at its
/// prompt, and the window it is cut to. A resize draws the page (or the list on screen) again
/// at once, without a key; a list taller than the window (`toc`, `bookmarks`) is shown a
/// window at a time, Enter showing the rest. The position is saved after every move.
@MainActor
package final class ReaderSession {
  /// The page and where it is.
  package var pager: Pager
  /// The book's Project Gutenberg number.
  let id: Int
  let service: CatalogService
  let output: TerminalOutput
  let input: any LineSource
  /// Single keys on a terminal (nil: lines, as piped or on a dumb terminal).
  let keys: (any KeySource)?

  /// A list taller than the window, shown a window at a time: its heading, its lines, and the
  /// first line of the window on screen.
  struct Listing {
    var heading: [String]
    var lines: [String]
    var top: Int
  }

  var listing: Listing?
  /// The table of contents, once worked out (`toc`, the status line, a note's chapter).
  var contents: TableOfContents?
  var searching = false
  /// Whether the last search went backwards (`?word`): `n` goes on that way, `N` the other.
  var searchingBackward = false
  /// Where the reader was before its last jump (a search, a mark, `g`), for `''`.
  var beforeJump: Int?
  /// The number typed before a key (`50%`, `120g`, `5j`).
  var count: Int?
  /// The key of the mark made last in this session, for `'` and Enter.
  var lastMark: String?
  /// True while a key is awaited at the prompt (a resize then draws the prompt again).
  var waitingForKey = false
  /// A short note for the prompt's line, where it is seen under the page.
  var pending: String?
  /// The EPUB whose first documents the pager shows, still being read: the first key (or
  /// line) waits for the whole text, then goes on in it from the same place.
  var rest: (any RestOfText)?

  /// A reader of book `id` on `pager`, saving its place through `service`.
  package init(
    pager: Pager, id: Int, service: CatalogService, output: TerminalOutput, input: any LineSource,
    keys: (any KeySource)? = nil
  ) {
    self.pager = pager
    self.id = id
    self.service = service
    self.output = output
    self.input = input
    self.keys = keys
  }

  var style: Style { output.style }

  /// A note for the prompt's line; without a prompt (piped lines), a line of its own.
  func note(_ text: String) {
    if input.isInteractive || keys != nil {
      pending = text
    } else {
      output.print(style.dim(text))
    }
  }

  /// Shows pages and reads commands until `q` or the end of input.
  func run() async -> ExitStatus {
    // The reader waits at its own prompt: no "working…" over it.
    output.holdProgress(true)
    defer { output.holdProgress(false) }
    // A resize draws the screen again, cut to the window; so does `fg` after Ctrl-Z, as less.
    let redraws = SignalWatch([SIGWINCH, SIGCONT]) {
      Task { @MainActor [weak self] in self?.windowChanged() }
    }
    defer { redraws.cancel() }

    if !pager.raw, pager.text.isPartial, pager.text.foldedHeaderLines > 0 {
      output.print(
        style.dim(
          "(Project Gutenberg header (\(pager.text.foldedHeaderLines) lines) and licence "
            + "folded; --raw shows them)"))
    } else if !pager.raw, pager.text.foldedHeaderLines + pager.text.foldedFooterLines > 0 {
      output.print(
        style.dim(
          "(Project Gutenberg header (\(pager.text.foldedHeaderLines) lines) and licence "
            + "(\(pager.text.foldedFooterLines) lines) folded; --raw shows them)"))
    }
    // Before the first page, so its status line already says the time left in the chapter
    // (as every later one does) when the text is indexed whole.
    findChapters()
    show()
    if let keys {
      defer { keys.stop() }
      return await runKeys(keys)
    }
    while true {
      let prompt = pending.map { "\($0) : " } ?? ": "
      pending = nil
      if input.isInteractive, !input.editsLines { output.write(prompt) }
      guard let line = await input.nextLine(prompt: prompt, remember: false) else {
        // Ctrl-D: end the prompt's line (the editor does it itself).
        if input.isInteractive, !input.editsLines { output.print("") }
        break
      }
      if fileChanged() { return .dataError }
      let command = PagerCommand.parse(line, searching: searching)
      // Quitting needs nothing more of the book; every other command, its whole text.
      if command != .quit, await !continueInWholeText() { return .dataError }
      if case .again = command {} else { searching = false }
      if await perform(command) == false {
        await savePosition()
        return .ok
      }
      await savePosition()
    }
    await savePosition()
    return .ok
  }

  /// True (after one line saying so) when another program cut the file short or replaced it:
  /// what is mapped no longer matches the disk, so the book is closed (its position kept)
  /// rather than shown half as zeros.
  func fileChanged() -> Bool {
    guard let change = pager.text.bytes.change() else { return false }
    output.printError(
      "error: the file of book \(id) \(change) while it was open; closed it (`read \(id)` "
        + "opens it again)")
    return true
  }

  /// Takes the whole text of an EPUB whose first documents are shown, once it is read (the
  /// place stays where it is: the first documents are the whole text's start); false, after
  /// one line saying why, when the rest of the EPUB could not be read.
  func continueInWholeText() async -> Bool {
    guard let rest else { return true }
    self.rest = nil
    do throws(EpubError) {
      pager = pager.continued(in: try await rest.whole())
    } catch {
      output.printError("error: cannot read the rest of book \(id)'s EPUB: \(error)")
      return false
    }
    contents = nil
    findChapters()
    return true
  }

  /// Works out the table of contents once the first page is on screen, for the time left in
  /// the chapter on the status line: here for a text indexed whole, off the main actor for a
  /// large one (its first page comes before its index).
  private func findChapters() {
    // The start of an EPUB has only the first chapters: they wait for the whole text.
    guard !pager.text.isPartial else { return }
    let text = pager.text
    let visible = pager.visible
    guard !text.index.isComplete else {
      let table = TableOfContents(text, in: visible)
      contents = table
      pager.chapterStarts = table.entries.map(\.offset)
      return
    }
    Task { [weak self] in
      let table = await Task.detached(priority: .utility) {
        TableOfContents(text, in: visible)
      }.value
      guard let self else { return }
      if self.contents == nil { self.contents = table }
      self.pager.chapterStarts = table.entries.map(\.offset)
    }
  }

  /// Runs one command; false for `q`.
  func perform(_ command: PagerCommand) async -> Bool {
    let wasListing = listing != nil
    if case .next = command, listing != nil { return showMoreOfListing() }
    listing = nil
    switch command {
    case .next:
      // After a list, Enter shows the page again before turning it.
      if wasListing {
        show()
      } else if pager.nextPage() {
        show()
      } else {
        note("(end of the book)")
      }
    case .previous:
      if pager.previousPage() { show() } else { note("(start of the book)") }
    case .start:
      pager.go(line: 1)
      show()
    case .end:
      pager.goToEnd()
      show()
    case .percent(let value):
      pager.go(percent: value)
      show()
    case .line(let number):
      pager.go(line: number)
      show()
    case .search(let word):
      search(word, notFound: "not found: \(Sanitizer.sanitize(word))")
    case .again:
      guard let last = pager.lastSearch else {
        output.printError("error: no search to repeat: type /word first")
        return true
      }
      search(last, notFound: "no more matches")
    case .contents, .contentsEntry:
      let table = contents ?? TableOfContents(pager.text, in: pager.visible)
      contents = table
      if case .contentsEntry(let number) = command {
        goTo(entry: number, of: table)
      } else {
        showList(table.lines(width: pager.width, style: style), heading: 1)
      }
    case .mark(let text):
      await mark(note: text)
    case .unmark(let number):
      await unmark(number)
    case .highlight(let span, let note):
      await highlight(span, note: note)
    case .bookmarks:
      await listBookmarks()
    case .bookmark(let number):
      await goTo(bookmark: number)
    case .setWidth(let width):
      pager.textWidth = width
      show()
      note(width.map { "(text width \($0))" } ?? "(text width: the window's)")
    case .help:
      output.print(style.dim(keys == nil ? Pager.keys : Pager.singleKeys))
    case .quit:
      return false
    case .unknown(let text):
      output.printError("error: unknown command '\(Sanitizer.sanitize(text))' (\(Pager.keys))")
    }
    return true
  }

  // MARK: - Drawing

  /// Moves are made at the size the page on screen was cut to (the next page starts where
  /// that one ended: nothing skipped, nothing repeated), then the page is cut to the window as
  /// it is now.
  func show() {
    fit()
    output.print(pager.lines(width: pager.width, style: style))
  }

  /// The window changed size: what is on screen is drawn again, cut to it.
  package func windowChanged() {
    guard output.height != nil else { return }
    if listing != nil {
      showListingWindow()
    } else {
      show()
    }
    if keys != nil, waitingForKey { writeKeyPrompt() }
  }

  /// Cuts the pages to the window as it is now (a pipe or a test keeps its size).
  private func fit() {
    guard let height = output.height else { return }
    pager.width = output.width
    pager.height = max(3, height - 2)
  }

  /// `lines` (the first `heading` of them its heading): whole when they fit the window, else
  /// a window at a time with the heading kept.
  func showList(_ lines: [String], heading: Int) {
    guard let height = output.height, lines.count > height - 1 else {
      output.print(lines)
      return
    }
    listing = Listing(
      heading: Array(lines.prefix(heading)), lines: Array(lines.dropFirst(heading)), top: 0)
    showListingWindow()
  }

  /// The lines of the list a window shows at once, below its heading and above its position.
  private var listingRows: Int {
    max(1, (output.height ?? 24) - 2 - (listing?.heading.count ?? 0))
  }

  private func showListingWindow() {
    guard var shown = listing else { return }
    let rows = listingRows
    shown.top = min(shown.top, max(0, shown.lines.count - rows))
    listing = shown
    let end = min(shown.lines.count, shown.top + rows)
    let more = end < shown.lines.count
    let position =
      "lines \(shown.top + 1)–\(end) of \(shown.lines.count)"
      + (more ? " · Enter more" : " · Enter back to the page")
    output.print(
      shown.heading + Array(shown.lines[shown.top..<end])
        + [style.dim(DisplayWidth.truncate(position, toCells: output.width))])
  }

  /// Enter on a list taller than the window: its next window, or the page after its end.
  func showMoreOfListing() -> Bool {
    guard var shown = listing else { return true }
    if shown.top + listingRows >= shown.lines.count {
      listing = nil
      show()
      return true
    }
    shown.top += listingRows
    listing = shown
    showListingWindow()
    return true
  }

  // MARK: - Moves

  /// Searches and shows the match; a note when the search went on from the beginning.
  func search(_ word: String, notFound: String, backward: Bool = false) {
    let from = pager.top
    switch pager.search(word, backward: backward) {
    case .found:
      searching = true
      beforeJump = from
      show()
    case .wrapped:
      searching = true
      beforeJump = from
      show()
      note(backward ? "(search wrapped to the end)" : "(search wrapped to the beginning)")
    case .notFound:
      output.printError(notFound)
    }
  }

  /// Goes to entry `number` (from 1) of `table`, or says there is none.
  private func goTo(entry number: Int, of table: TableOfContents) {
    guard table.entries.indices.contains(number - 1) else {
      output.printError(
        table.entries.isEmpty
          ? "error: this book has no table of contents"
          : "error: there is no entry \(number) (entries are 1–\(table.entries.count))")
      return
    }
    pager.go(offset: table.entries[number - 1].offset)
    show()
  }

  func savePosition() async {
    do {
      try await service.setReadingPosition(
        id: id,
        ReadingPosition(
          line: pager.topLine, byteOffset: pager.top,
          quote: PlaceQuote.quote(in: pager.text, at: pager.top)))
    } catch {
      output.printError("warning: reading position not saved: \(error.description)")
    }
  }
}
