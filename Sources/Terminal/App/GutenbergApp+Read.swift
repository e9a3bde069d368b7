import Catalog
import Foundation

/// `gutenberg read`: the plain-text edition in a line-mode pager, resuming where the reader
/// left off.
extension GutenbergApp {
  /// `gutenberg read ID`: downloads the text when needed, then pages it (or prints it when
  /// standard output is not a terminal and `pager` is not set); with `at`, from the page (or
  /// the line) holding that byte offset rather than where the reader stopped.
  package func read(
    id: Int, raw: Bool, pager: Bool, mirror mirrorText: String?, at offset: Int? = nil,
    input: any LineSource
  ) async -> ExitStatus {
    let entry: LibraryEntry
    switch await localText(id: id, mirror: mirrorText) {
    case .success(let value): entry = value
    case .failure(let failure): return failure.status
    }
    let input = Self.terminalInput(replacing: input, options: options)
    defer { input.stop() }
    return await open(
      entry, raw: raw, pager: output.isTerminal || pager, at: offset, input: input)
  }

  /// Pages (or prints) a downloaded text, from byte `offset` when given; a file that is not
  /// text is refused.
  func open(
    _ entry: LibraryEntry, raw: Bool, pager: Bool, at offset: Int? = nil, input: any LineSource
  ) async -> ExitStatus {
    let text: BookText
    do {
      text = try BookText(contentsOfFile: entry.path)
    } catch {
      return fail("cannot read \(entry.path): \(InteractiveSession.reason(error))", .failure)
    }
    if let reason = text.notText {
      return fail(
        "book \(entry.id)'s file is not text (\(reason)); open it with another program",
        .dataError)
    }
    guard pager else {
      printText(text, raw: raw, from: offset)
      return .ok
    }
    let saved = (try? await service.readingPosition(id: entry.id)) ?? nil
    // `--at` (a `library search` hint) wins over where the reader stopped.
    let (top, note) = offset.map { ($0, nil) } ?? Self.resumePlace(saved, in: text)
    var reader = Pager(
      text: text, title: entry.title, width: output.width,
      height: (output.height ?? TerminalHeight.current()) - 2, raw: raw, top: top)
    if let note { output.printError(note) }
    return await runPager(&reader, id: entry.id, input: input)
  }

  /// Download and read for the interactive browser.
  func bookActions(input: any LineSource) -> BookActions {
    BookActions(
      download: { [unowned self] book in
        // Into the library, where `read` puts texts too; one the library has is not fetched
        // again.
        let usual = (try? BookFormat.choose(nil, for: book))?.format
        switch await libraryFile(
          id: book.id, format: nil, usual: usual, mirror: nil, ownsInterrupts: false)
        {
        case .success(let found):
          output.printError(
            found.wasThere
              ? "Already in the library: \(found.entry.path)"
              : "Downloaded: \(found.entry.path)")
          return found.entry.path
        case .failure:
          return nil
        }
      },
      read: { [unowned self] book in
        guard
          case .success(let entry) = await localText(
            id: book.id, mirror: nil, ownsInterrupts: false)
        else { return }
        _ = await open(entry, raw: false, pager: true, input: input)
      },
      downloads: { [unowned self] id in await downloadLabels(id: id) },
      grep: { [unowned self] words in
        _ = await librarySearch(words: [words], format: .automatic, onScreen: true)
      })
  }

  /// `path` for each download of the book, `path (missing)` when the file is gone.
  func downloadLabels(id: Int) async -> [String] {
    ((try? await service.downloads(id: id)) ?? []).map {
      $0.isPresent ? $0.path : "\($0.path) (missing)"
    }
  }

  /// The book's text file: the library's, or downloaded now into `<data>/books`.
  /// `ownsInterrupts`: take over Ctrl-C for the download (the browser's runner has its own).
  func localText(id: Int, mirror mirrorText: String?, ownsInterrupts: Bool = true) async -> Result<
    LibraryEntry, GetFailure
  > {
    await libraryFile(
      id: id, format: .text, mirror: mirrorText, ownsInterrupts: ownsInterrupts
    ).map(\.entry)
  }

  /// The text for a pipe: every visible line (from the one holding byte `offset`), sanitised,
  /// in large writes; a line longer than a piece is written a piece at a time.
  func printText(_ text: BookText, raw: Bool, from offset: Int? = nil) {
    let range = raw ? text.allBytes : text.bodyBytes
    var chunk: [String] = []
    chunk.reserveCapacity(2048)
    var start = range.lowerBound
    if let offset, range.contains(offset) {
      start = max(range.lowerBound, text.index.lineStart(of: offset, in: text.bytes))
    }
    while start < range.upperBound {
      let end = min(text.lineEnd(from: start), range.upperBound)
      if end - start <= BookText.pieceSize {
        chunk.append(text.text(of: start..<end))
      } else {
        output.print(chunk)
        chunk.removeAll(keepingCapacity: true)
        var piece: TextPiece? = text.piece(containing: start, in: range)
        var words: [String] = []
        while let current = piece, current.lineStart == start {
          words.append(Sanitizer.sanitize(text.bytes.string(current.range)))
          piece = current.endsLine ? nil : text.piece(after: current, in: range)
        }
        output.print(
          String(repeating: " ", count: text.indent(at: start))
            + words.filter { !$0.isEmpty }.joined(separator: " "))
      }
      if chunk.count == 2048 {
        output.print(chunk)
        chunk.removeAll(keepingCapacity: true)
      }
      start = text.nextLineStart(afterEnd: end)
    }
    output.print(chunk)
  }

  /// Shows pages and reads commands until `q` or the end of input; the position is saved after
  /// every move.
  func runPager(_ reader: inout Pager, id: Int, input: any LineSource) async -> ExitStatus {
    let style = output.style
    // The pager waits at its own prompt: no "working…" over it.
    output.holdProgress(true)
    defer { output.holdProgress(false) }
    /// A short note for the prompt's line, where it is seen under the page (not above it);
    /// without a prompt (piped lines), a line of its own.
    var pending: String?
    var note: String? {
      get { pending }
      set {
        guard let newValue, !input.isInteractive else {
          pending = newValue
          return
        }
        output.print(style.dim(newValue))
      }
    }
    // Moves are made at the size the page on screen was cut to (the next page starts where
    // that one ended: nothing skipped, nothing repeated), then the page is cut to the window
    // as it is now.
    func show() {
      fit(&reader)
      output.print(reader.lines(width: reader.width, style: style))
    }
    if !reader.raw, reader.text.foldedHeaderLines + reader.text.foldedFooterLines > 0 {
      output.print(
        style.dim(
          "(Project Gutenberg header (\(reader.text.foldedHeaderLines) lines) and licence "
            + "(\(reader.text.foldedFooterLines) lines) folded; --raw shows them)"))
    }
    show()
    var searching = false
    var contents: TableOfContents?
    while true {
      let prompt = pending.map { "\($0) : " } ?? ": "
      pending = nil
      if input.isInteractive, !input.editsLines { output.write(prompt) }
      guard let line = await input.nextLine(prompt: prompt, remember: false) else {
        // Ctrl-D: end the prompt's line (the editor does it itself).
        if input.isInteractive, !input.editsLines { output.print("") }
        break
      }
      // Another program cut the file short or replaced it: what is mapped no longer matches
      // the disk, so the book is closed (its position kept) rather than shown half as zeros.
      if let change = reader.text.bytes.change() {
        return fail(
          "the file of book \(id) \(change) while it was open; closed it (`read \(id)` opens "
            + "it again)", .dataError)
      }
      let command = PagerCommand.parse(line, searching: searching)
      if case .again = command {} else { searching = false }
      switch command {
      case .next:
        if reader.nextPage() { show() } else { note = "(end of the book)" }
      case .previous:
        if reader.previousPage() { show() } else { note = "(start of the book)" }
      case .start:
        reader.go(line: 1)
        show()
      case .end:
        reader.goToEnd()
        show()
      case .percent(let value):
        reader.go(percent: value)
        show()
      case .line(let number):
        reader.go(line: number)
        show()
      case .search(let word):
        (searching, note) = search(
          &reader, for: word, notFound: "not found: \(Sanitizer.sanitize(word))")
      case .again:
        guard let last = reader.lastSearch else {
          output.printError("error: no search to repeat: type /word first")
          continue
        }
        (searching, note) = search(&reader, for: last, notFound: "no more matches")
      case .contents, .contentsEntry:
        let table = contents ?? TableOfContents(reader.text, in: reader.visible)
        contents = table
        if case .contentsEntry(let number) = command {
          goTo(entry: number, of: table, &reader)
        } else {
          output.print(table.lines(width: reader.width, style: style))
        }
      case .mark(let note):
        await mark(reader, id: id, note: note)
      case .unmark(let number):
        await unmark(number, id: id)
      case .bookmarks:
        await listBookmarks(reader, id: id)
      case .bookmark(let number):
        await goTo(bookmark: number, id: id, &reader)
      case .help:
        output.print(style.dim(Pager.keys))
      case .quit:
        await savePosition(reader, id: id)
        return .ok
      case .unknown(let text):
        output.printError(
          "error: unknown command '\(Sanitizer.sanitize(text))' (\(Pager.keys))")
      }
      await savePosition(reader, id: id)
    }
    await savePosition(reader, id: id)
    return .ok
  }

  /// Cuts the pager's pages to the window as it is now (a pipe or a test keeps its size).
  private func fit(_ reader: inout Pager) {
    guard let height = output.height else { return }
    reader.width = output.width
    reader.height = max(3, height - 2)
  }

  /// Searches and shows the match; true when found, and the note for the prompt's line when
  /// the search went on from the beginning.
  private func search(_ reader: inout Pager, for word: String, notFound: String) -> (
    Bool, String?
  ) {
    switch reader.search(word) {
    case .found:
      fit(&reader)
      output.print(reader.lines(width: reader.width, style: output.style))
      return (true, nil)
    case .wrapped:
      fit(&reader)
      output.print(reader.lines(width: reader.width, style: output.style))
      return (true, "(search wrapped to the beginning)")
    case .notFound:
      output.printError(notFound)
      return (false, nil)
    }
  }

  /// Goes to entry `number` (from 1) of `table`, or says there is none.
  private func goTo(entry number: Int, of table: TableOfContents, _ reader: inout Pager) {
    guard table.entries.indices.contains(number - 1) else {
      output.printError(
        table.entries.isEmpty
          ? "error: this book has no table of contents"
          : "error: there is no entry \(number) (entries are 1–\(table.entries.count))")
      return
    }
    reader.go(offset: table.entries[number - 1].offset)
    output.print(reader.lines(width: reader.width, style: output.style))
  }

  private func savePosition(_ reader: Pager, id: Int) async {
    do {
      try await service.setReadingPosition(
        id: id,
        ReadingPosition(
          line: reader.topLine, byteOffset: reader.top,
          quote: PlaceQuote.quote(in: reader.text, at: reader.top)))
    } catch {
      output.printError("warning: reading position not saved: \(error.description)")
    }
  }
}
