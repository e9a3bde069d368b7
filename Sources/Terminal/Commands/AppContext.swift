import Catalog
import Foundation
import Gutendex

/// What every command runs against: the resolved configuration, the catalogue service opened
/// from it, and the output. A runner (one per subcommand) turns its options into calls on the
/// service and prints the result; this holds only what they all share.
@MainActor
package final class AppContext {
  /// The catalogue every command goes through.
  package let service: CatalogService
  /// Where results and errors are printed.
  package let output: TerminalOutput
  /// Every option and environment variable, resolved.
  package let configuration: AppConfiguration

  /// The options as given.
  package var options: AppOptions { configuration.options }

  /// Resolves `options` and opens the service.
  package convenience init(options: AppOptions, output: TerminalOutput)
    async
    throws(AppStartError)
  {
    let configuration: AppConfiguration
    do {
      configuration = try AppConfiguration(options)
    } catch {
      throw AppStartError(message: error.message, status: error.status)
    }
    try await self.init(configuration: configuration, output: output)
  }

  /// Opens the service the configuration describes: server, data directory, cache, local
  /// catalogue.
  package init(configuration: AppConfiguration, output: TerminalOutput)
    async
    throws(AppStartError)
  {
    let options = configuration.options
    self.configuration = configuration
    self.output = output
    let location = configuration.location
    let mode = configuration.mode
    let local = LocalCatalogue(
      dataDirectory: location.dataDirectory, policy: configuration.syncPolicy)
    // --verbose: one line per request on standard error (what was asked, how it ended, how long).
    let printer = options.verbose ? Self.requestPrinter(output) : nil
    let client = GutendexClient(
      server: configuration.server, transport: CurlTransport(), timeout: configuration.timeout,
      observer: printer)
    do {
      // A read-only command that asks no server (local source, or --offline) stores no page:
      // it opens the cache to read only, which writes nothing and creates nothing. One that
      // may (a listing) opens it for writing only when a server's page is to be stored.
      let cacheReadsOnly =
        options.readsOnly && (mode == .localOnly || options.offline || options.readsNoPages)
      service = try await CatalogService.open(
        client: client, location: location, local: local, mode: mode,
        readsOnly: options.readsOnly, cacheReadsOnly: cacheReadsOnly,
        cacheWritesOnDemand: options.readsOnly && !cacheReadsOnly,
        opensCache: !options.usesNoPageCache,
        // A downloaded text's body and chapters, kept with it for `library search`.
        libraryContents: { LibrarySearch.contents(of: $0) })
    } catch {
      throw AppStartError(message: error.description, status: ExitStatus(error))
    }
    if service.isReadOnly {
      output.printError(
        "note: \(location.dataDirectory.path) is read-only: favourites, library and cache are "
          + "read as they are, and changes are refused")
    } else if let problem = service.cacheProblem {
      // The page cache is disposable: the service browses without it, and the user is told.
      output.printError("warning: page cache unavailable: \(problem.description)")
    }
    if options.offline { service.simulateOffline(true) }
  }

  /// `request: GET URL → HTTP 200 (12 ms, attempt 1)` on standard error for every request (its
  /// own method: `PUT` for a progress push).
  static func requestPrinter(_ output: TerminalOutput) -> @Sendable (RequestEvent) -> Void {
    { event in
      let outcome: String
      if let error = event.error {
        outcome = "failed: \(error.description)"
      } else {
        outcome = "HTTP \(event.status ?? 0)"
      }
      let milliseconds = Int(event.duration / .milliseconds(1))
      output.printError(
        "request: \(event.method) \(event.url.redacted) → \(outcome) (\(milliseconds) ms, attempt "
          + "\(event.attempt))")
    }
  }

  /// Closes the stores (after the last command): nothing is read or written after it.
  package func close() async {
    await service.close()
  }

  /// Writes a failure as one line on standard error and returns its exit status.
  func fail(_ error: CatalogError) -> ExitStatus {
    output.printError("error: \(Sanitizer.sanitize(error.description))")
    return ExitStatus(error)
  }

  /// Writes `message` as an error line and returns `status`.
  func fail(_ message: String, _ status: ExitStatus) -> ExitStatus {
    output.printError("error: \(message)")
    return status
  }

  /// Says once on standard error that a damaged local catalogue was set aside.
  func noteDamage() {
    if let note = service.takeLocalCatalogueDamageNote() {
      output.printError("note: \(Sanitizer.sanitize(note))")
    }
  }

  /// The line editor when `plain` is this process's terminal (history in the data
  /// directory's `history` file); `plain` itself when it is a pipe, a file or a test's lines.
  func terminalInput(replacing plain: any LineSource) -> any LineSource {
    guard plain is StandardInput, plain.isInteractive, LineEditor.isAvailable else { return plain }
    let directory = configuration.location.dataDirectory
    return EditedInput(historyFile: directory.appendingPathComponent("history"))
  }

  /// Progress sync with KOReader (kosync): its requests go through the same libcurl client, the
  /// status screen lists them with the others (`PUT`, `POST`), and `--verbose` prints them
  /// (never the headers that carry the key).
  var progressSync: ProgressSync {
    let printer = options.verbose ? Self.requestPrinter(output) : nil
    let service = self.service
    return ProgressSync(
      dataDirectory: configuration.location.dataDirectory,
      pipeline: HTTPPipeline(
        transport: CurlTransport(),
        observer: { event in
          printer?(event)
          service.recordRequest(event)
        }),
      timeout: configuration.timeout)
  }

  /// `<data>/books`: where the browser's `d` and `read` (and the `read` command) put the books
  /// they fetch, so a book is fetched once whichever asks.
  var libraryDirectory: URL {
    configuration.location.dataDirectory.appendingPathComponent("books", isDirectory: true)
  }
}

/// Why the app could not start: one line for standard error and an exit status.
package struct AppStartError: Error, Sendable, CustomStringConvertible {
  /// The one line printed after `error:`.
  package var message: String
  /// The exit code to end with.
  package var status: ExitStatus
  /// The message, for printing.
  package var description: String { message }
}
