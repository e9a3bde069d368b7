import Catalog
import Foundation

/// `gutenberg read`: the plain-text edition in a line-mode pager, resuming where the reader
/// left off.
extension GutenbergApp {
  /// `gutenberg read ID`: downloads the text when needed, then pages it (or prints it when
  /// standard output is not a terminal and `pager` is not set).
  public func read(
    id: Int, raw: Bool, pager: Bool, mirror mirrorText: String?, input: any LineSource
  ) async -> ExitStatus {
    let entry: LibraryEntry
    switch await localText(id: id, mirror: mirrorText) {
    case .success(let value): entry = value
    case .failure(let failure): return failure.status
    }
    return await open(entry, raw: raw, pager: output.isTerminal || pager, input: input)
  }

  /// Pages (or prints) a downloaded text.
  func open(_ entry: LibraryEntry, raw: Bool, pager: Bool, input: any LineSource) async
    -> ExitStatus
  {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: entry.path))
    } catch {
      return fail("cannot read \(entry.path): \(InteractiveSession.reason(error))", .failure)
    }
    let text = BookText(data: data)
    guard pager else {
      printText(text, raw: raw)
      return .ok
    }
    let saved = (try? await service.readingPosition(id: entry.id)) ?? nil
    var reader = Pager(
      text: text, title: entry.title, width: output.width,
      height: TerminalHeight.current() - 2, raw: raw, top: saved)
    return await runPager(&reader, id: entry.id, input: input)
  }

  /// Download and read for the interactive browser.
  func bookActions(input: any LineSource) -> BookActions {
    BookActions(
      download: { [unowned self] book in
        let target: Target
        switch downloadTarget(nil, count: 1) {
        case .success(let value): target = value
        case .failure: return nil
        }
        let mirror: DownloadMirror?
        switch downloadMirror(nil) {
        case .success(let value): mirror = value
        case .failure: return nil
        }
        switch await download(
          id: book.id, format: nil, target: target, force: false, quiet: false, mirror: mirror,
          interrupts: nil)
        {
        case .success(let entry):
          output.printError("Downloaded: \(entry.path)")
          return entry.path
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
      downloads: { [unowned self] id in await downloadLabels(id: id) })
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
    let known = (try? await service.downloads(id: id)) ?? []
    if let entry = known.first(where: { $0.format == BookFormat.text.description && $0.isPresent })
    {
      return .success(entry)
    }
    let mirror: DownloadMirror?
    switch downloadMirror(mirrorText) {
    case .success(let value): mirror = value
    case .failure(let failure): return .failure(failure)
    }
    let directory = Self.location(options: options).dataDirectory
      .appendingPathComponent("books", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      return .failure(
        GetFailure(
          status: fail(
            "cannot create \(directory.path): \(InteractiveSession.reason(error))", .failure)))
    }
    let interrupts = ownsInterrupts ? InterruptHandler { _ in exit(130) } : nil
    let signalSource = interrupts?.install()
    defer { if let signalSource { interrupts?.uninstall(signalSource) } }
    // Our own directory: a file left there without a library row is ours to replace.
    return await download(
      id: id, format: .text, target: .directory(directory), force: true, quiet: false,
      mirror: mirror, interrupts: interrupts)
  }

  /// The text for a pipe: every visible line, sanitised, in large writes.
  func printText(_ text: BookText, raw: Bool) {
    let range = raw ? 0..<text.lineCount : text.body
    var chunk: [String] = []
    chunk.reserveCapacity(2048)
    for index in range {
      chunk.append(text.line(index))
      if chunk.count == 2048 {
        output.print(chunk)
        chunk.removeAll(keepingCapacity: true)
      }
    }
    output.print(chunk)
  }

  /// Shows pages and reads commands until `q` or the end of input; the position is saved after
  /// every move.
  func runPager(_ reader: inout Pager, id: Int, input: any LineSource) async -> ExitStatus {
    let style = output.style
    func show() {
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
    while true {
      if input.isInteractive { output.write(": ") }
      guard let line = await input.nextLine() else { break }
      let command = PagerCommand.parse(line, searching: searching)
      if case .again = command {} else { searching = false }
      switch command {
      case .next:
        if reader.nextPage() { show() } else { output.print(style.dim("(end of the book)")) }
      case .previous:
        if reader.previousPage() { show() } else { output.print(style.dim("(start of the book)")) }
      case .percent(let value):
        reader.go(percent: value)
        show()
      case .line(let number):
        reader.go(line: number)
        show()
      case .search(let word):
        if reader.search(word) {
          searching = true
          show()
        } else {
          output.printError("not found: \(Sanitizer.sanitize(word))")
        }
      case .again:
        if let word = reader.lastSearch, reader.search(word) {
          searching = true
          show()
        } else {
          output.printError("no more matches")
        }
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

  private func savePosition(_ reader: Pager, id: Int) async {
    do {
      try await service.setReadingPosition(id: id, line: reader.top)
    } catch {
      output.printError("warning: reading position not saved: \(error.description)")
    }
  }
}
