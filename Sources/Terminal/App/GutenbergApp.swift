import Catalog
import Foundation
import Gutendex

/// Everything the `gutenberg` executable can do, one method per command.
///
/// The executable only parses options and calls one of these; each writes its result to
/// ``output`` and returns the exit status, with failures as one clear line on standard error.
@MainActor
package final class GutenbergApp {
  /// The catalogue every command goes through.
  package let service: CatalogService
  /// Where results and errors are printed.
  package let output: TerminalOutput
  let options: AppOptions
  /// Every option and environment variable, resolved.
  let configuration: AppConfiguration

  /// Builds the service from the options: server, data directory, cache, embedded catalogue.
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

  /// Builds the service from the resolved configuration.
  package init(configuration: AppConfiguration, output: TerminalOutput)
    async
    throws(AppStartError)
  {
    let options = configuration.options
    self.options = options
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
      // it opens the cache to read only, which writes nothing and creates nothing.
      service = try await CatalogService.open(
        client: client, location: location, local: local, mode: mode,
        readsOnly: options.readsOnly,
        cacheReadsOnly: options.readsOnly
          && (mode == .localOnly || options.offline || options.readsNoPages))
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

  /// The catalogue built into the program, the last fallback (loaded on first use).
  static func embeddedCatalogue() -> LocalCatalogue {
    LocalCatalogue.embedded()
  }

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
        "request: GET \(event.url.redacted) → \(outcome) (\(milliseconds) ms, attempt "
          + "\(event.attempt))")
    }
  }

  /// Where the data and the cache live; nonisolated, as option validation needs it before
  /// there is an app.
  nonisolated static func location(options: AppOptions) -> StoreLocation {
    AppConfiguration.location(options: options)
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

  func fail(_ message: String, _ status: ExitStatus) -> ExitStatus {
    output.printError("error: \(message)")
    return status
  }

  // MARK: - Interactive

  /// The interactive browser, reading commands from `input` until `q` or end of input.
  package func browse(query: BookQuery, input plain: any LineSource) async -> ExitStatus {
    let input = Self.terminalInput(replacing: plain, options: options)
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
}

extension GutenbergApp {
  /// The line editor when `plain` is this process's terminal (history in the data
  /// directory's `history` file); `plain` itself when it is a pipe, a file or a test's lines.
  static func terminalInput(replacing plain: any LineSource, options: AppOptions)
    -> any LineSource
  {
    guard plain is StandardInput, plain.isInteractive, LineEditor.isAvailable else { return plain }
    let directory = location(options: options).dataDirectory
    return EditedInput(historyFile: directory.appendingPathComponent("history"))
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
