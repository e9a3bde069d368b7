import Catalog
import Foundation
import Gutendex

/// `gutenberg` (or `gutenberg browse`): the interactive browser, reading commands from the
/// terminal (the line editor) or a pipe until `q` or the end of input; a sync in the
/// background when one is due.
package struct BrowseRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Browses from the first page of `query`.
  package func run(query: BookQuery, input plain: any LineSource) async -> ExitStatus {
    let input = context.terminalInput(replacing: plain)
    let session = InteractiveSession(service: service, output: output, query: query)
    session.bookActions = bookActions(input: input)
    session.suggest = { [service] query, found in
      await service.suggestions(for: query, found: found)
    }
    let runner = SessionRunner(session: session, output: output, input: input)
    let sync = startBackgroundSync(interactive: input.isInteractive)
    defer { sync?.cancel() }
    return await runner.run()
  }

  /// Download, read and search the library, for the browser.
  func bookActions(input: any LineSource) -> BookActions {
    let context = self.context
    return BookActions(
      download: { book in
        // Into the library, where `read` puts texts too; one the library has is not fetched
        // again.
        let usual = (try? BookFormat.choose(nil, for: book))?.format
        switch await LibraryFiles(context: context).file(
          id: book.id, format: nil, usual: usual, mirror: nil, ownsInterrupts: false)
        {
        case .success(let found):
          context.output.printError(
            found.wasThere
              ? "Already in the library: \(found.entry.path)"
              : "Downloaded: \(found.entry.path)")
          return found.entry.path
        case .failure:
          return nil
        }
      },
      read: { book in
        guard
          case .success(let found) = await LibraryFiles(context: context).file(
            id: book.id, format: .text, mirror: nil, ownsInterrupts: false)
        else { return }
        _ = await ReadRunner(context: context).open(
          found.entry, raw: false, pager: true, input: input)
      },
      downloads: { id in await LibraryFiles(context: context).downloadLabels(id: id) },
      grep: { words in
        _ = await LibrarySearchRunner(context: context).run(
          words: [words], format: .automatic, onScreen: true)
      },
      send: { book, destination in
        await SendRunner(context: context).sendFromBrowser(id: book.id, to: destination)
      },
      progress: { id in ReaderProgress.detailLine(context: context, id: id) })
  }

  /// Starts a sync off the prompt's path when the last one is older than the interval; it
  /// says how it went in one line when done. Only on a terminal, or when the interval is set
  /// explicitly (`GUTENBERG_SYNC_INTERVAL`), so scripts piping commands are never surprised by
  /// requests and lines of their own; `--offline` and `--source local` never sync.
  private func startBackgroundSync(interactive: Bool) -> Task<Void, Never>? {
    guard interactive || configuration.syncIntervalIsSet, service.backgroundSyncIsDue() else {
      return nil
    }
    let service = self.service
    let output = self.output
    return Task.detached(priority: .utility) {
      do throws(CatalogError) {
        let run = try await service.syncCatalogue()
        // Cancelled at quit: the next start resumes it; nothing to say.
        guard run.cause != .cancelled else { return }
        output.print(InteractiveSession.syncLine(run, background: true))
        if let found = await service.arrivals(of: run),
          let line = NewRunner.arrivalLine(found, hint: "type new")
        {
          output.print(line)
        }
      } catch {
        if case .cancelled = error { return }
        output.print("Background sync failed: \(Sanitizer.sanitize(error.description))")
      }
    }
  }
}
