import Catalog
import Foundation

/// `gutenberg read ID`: the plain-text edition in the line-mode reader (or the EPUB, for a book
/// with no plain text or with `--format epub`; downloaded into the library first when needed),
/// resuming where the reader left off; printed when standard output is not a terminal.
package struct ReadRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Reads book `id`: pages it (or prints it when standard output is not a terminal and
  /// `pager` is not set); with `offset`, from the page holding that byte offset rather than
  /// where the reader stopped; prose wrapped to `textWidth` cells when the window is wider.
  /// `format`: the edition (`txt` or an EPUB); nil: the plain text, or the EPUB when the book
  /// has no plain text.
  package func run(
    id: Int, raw: Bool, pager: Bool, mirror mirrorText: String?, at offset: Int? = nil,
    textWidth: Int? = nil, format: BookFormat? = nil, input: any LineSource
  ) async -> ExitStatus {
    let entry: LibraryEntry
    switch await LibraryFiles(context: context).file(
      id: id, format: await readableFormat(id: id, asked: format), mirror: mirrorText,
      ownsInterrupts: true)
    {
    case .success(let found): entry = found.entry
    case .failure(let failure): return failure.status
    }
    let input = context.terminalInput(replacing: input)
    defer { input.stop() }
    return await open(
      entry, raw: raw, pager: output.isTerminal || pager, at: offset, textWidth: textWidth,
      input: input, syncFetches: true)
  }

  /// Pages (or prints) a downloaded text, from byte `offset` when given; a file that is not
  /// text is refused. With progress sync set up, the pager opens after one pull and the place
  /// is pushed when it closes (`syncFetches`: get the EPUB the key needs).
  func open(
    _ entry: LibraryEntry, raw: Bool, pager: Bool, at offset: Int? = nil, textWidth: Int? = nil,
    input: any LineSource, syncFetches: Bool = false
  ) async -> ExitStatus {
    let saved = pager ? ((try? await service.readingPosition(id: entry.id)) ?? nil) : nil
    var text: BookText
    // An EPUB's first page is shown once its first documents are read; the rest follows.
    var rest: (any RestOfText)?
    if Self.isEpub(entry) {
      let conversion = EpubConversion(path: entry.path)
      do throws(EpubError) {
        text =
          try await pager
          ? conversion.text(covering: Self.epubStart(offset, saved)) : conversion.whole()
        // A place that is not where it was saved is looked for in the whole text.
        if text.isPartial, offset == nil, Self.resumePlace(saved, in: text).1 != nil {
          text = try await conversion.whole()
        }
      } catch {
        return fail("cannot read book \(entry.id)'s EPUB: \(error)", error.status)
      }
      rest = text.isPartial ? conversion : nil
    } else {
      do {
        text = try BookText(contentsOfFile: entry.path)
      } catch {
        return fail("cannot read \(entry.path): \(InteractiveSession.reason(error))", .failure)
      }
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
    // `--at` (a `library search` hint) wins over where the reader stopped.
    let (top, note) = offset.map { ($0, nil) } ?? Self.resumePlace(saved, in: text)
    let height = (output.height ?? TerminalHeight.current()) - 2
    if let note { output.printError(note) }
    var sync = await ReaderProgress.open(context: context, id: entry.id, fetches: syncFetches)
    // `--at` names the place: no offer then, but the place is still pushed at the end.
    // Places are pulled and pushed as a fraction of the whole text: an EPUB whose start is
    // shown is read to its end only when another device's place is to be offered.
    var offered: Int?
    if offset == nil, sync != nil {
      do throws(EpubError) {
        let offer = try await sync?.offer(
          text: text, rest: rest, saved: saved, top: top, pageBytes: output.width * height,
          input: input)
        offered = offer?.top
        if let whole = offer?.text, text.isPartial, !whole.isPartial {
          text = whole
          rest = nil
        }
      } catch {
        return fail("cannot read book \(entry.id)'s EPUB: \(error)", error.status)
      }
    }
    // A large book's first page is shown at once; its line index is finished meanwhile.
    if !text.index.isComplete {
      Task.detached(priority: .utility) { [text] in text.index.indexAll() }
    }
    var reader = Pager(
      text: text, title: entry.title, width: output.width, height: height, raw: raw,
      top: offered ?? top, textWidth: textWidth)
    reader.wordsPerMinute = context.configuration.wordsPerMinute
    // On a terminal, keys without Enter; piped, or on a dumb terminal, lines as before.
    let keys =
      input.isInteractive && output.isTerminal
        && TerminalKeys.isWanted(environment: context.options.environment)
      ? TerminalKeys(lines: input) : nil
    let session = ReaderSession(
      pager: reader, id: entry.id, service: service, output: output, input: input, keys: keys)
    session.rest = rest
    let status = await session.run()
    // The place as a fraction of the whole text: an EPUB's, read to its end if it is not yet.
    if let sync {
      var ended = session.pager.text
      if ended.isPartial, let rest = session.rest {
        do throws(EpubError) {
          ended = try await rest.whole()
        } catch {
          output.printError(
            "note: the rest of book \(entry.id)'s EPUB could not be read (\(error)); your "
              + "place is kept here and not pushed")
          return status
        }
      }
      await sync.close(text: ended)
    }
    return status
  }

  /// Where to open a book read before, and a note when its file changed since: the saved words
  /// found elsewhere, or not found (then the book opens at its start, never at a wrong place).
  nonisolated static func resumePlace(_ saved: ReadingPosition?, in text: BookText) -> (
    Int?, String?
  ) {
    guard let saved else { return (nil, nil) }
    let offset = saved.byteOffset ?? text.offset(ofLine: saved.line)
    switch PlaceQuote.locate(saved.quote, savedAt: offset, in: text) {
    case .same(let top):
      return (top, nil)
    case .moved(let top):
      return (top, "note: this file changed since you last read it; your place was found again")
    case .lost:
      return (
        nil,
        "note: this file changed since you last read it and your place "
          + "(\(BookmarkText.shortQuote(saved.quote))) is not in it; opening at the start "
          + "(/ searches for words)"
      )
    }
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
