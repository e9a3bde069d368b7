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
    let reader = Pager(
      text: text, title: entry.title, width: output.width,
      height: (output.height ?? TerminalHeight.current()) - 2, raw: raw, top: top)
    if let note { output.printError(note) }
    return await ReaderSession(
      pager: reader, id: entry.id, service: service, output: output, input: input
    ).run()
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
}
