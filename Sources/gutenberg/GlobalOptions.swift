import ArgumentParser
import Foundation
import Terminal

/// Options every command takes, before or after the subcommand's name.
///
/// They are declared once, here. The root command holds one copy, which ArgumentParser fills
/// from the whole command line wherever the options stand (`gutenberg --offline list` and
/// `gutenberg list --offline` alike). Each subcommand conforms to ``GlobalOptionsCommand`` and
/// adopts them with one line,
///
///     @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
///
/// which ArgumentParser fills with the root's already parsed copy (a later `@OptionGroup` of a
/// type decoded earlier reuses that value) and which lists them in the subcommand's `--help`.
struct GlobalOptions: ParsableArguments {
  /// The heading of the options' section in `--help`.
  static let title = "Global options"

  @Option(help: "Gutendex server URL (default https://gutendex.com; env GUTENDEX_URL).")
  var server: String?

  @Option(
    name: .customLong("data-dir"),
    help: "Directory for favourites and cache (env GUTENBERG_DATA_DIR; default XDG).")
  var dataDirectory: String?

  @Flag(help: "Do not use the network: cached pages, then the embedded catalogue.")
  var offline = false

  @Option(
    help: "Where books come from: auto (local first while a sync is fresh), server, or local.")
  var source: AppOptions.Source?

  // `.unconditional` so that `--max-age -5` is read as a (refused) value, not as a missing one.
  @Option(
    name: .customLong("max-age"), parsing: .unconditional,
    help: "How long after a sync answers come locally first: 7d, 12h, 30m, 90 (seconds).")
  var maxAge: String?

  @Option(help: "Colour: auto, always or never (NO_COLOR also turns it off).")
  var color: ColorPolicy.Mode = .auto

  // `.unconditional` so that `--timeout -5` is read as a (refused) value, not as a missing one.
  @Option(
    parsing: .unconditional,
    help: """
      Seconds to wait for the server per request (default 15; for a book file, how long it \
      may receive nothing, default 30). Book files and the feed must also average 1,024 \
      bytes/s over 60 s (GUTENBERG_MIN_SPEED=BYTES/SECONDS, 0 for no minimum).
      """)
  var timeout: Double?

  @Flag(help: "One line per request on standard error: API pages, book files and the feed.")
  var verbose = false

  /// The values as parsed, which every check and the run go through.
  var values: GlobalValues {
    GlobalValues(
      server: server, dataDirectory: dataDirectory, offline: offline, source: source,
      maxAge: maxAge, color: color, timeout: timeout, verbose: verbose)
  }

  func validate() throws {
    try values.validate()
  }

  var appOptions: AppOptions { values.appOptions }

  /// Builds the app and runs one call on it; a non-zero status becomes the exit code.
  func run(
    readsOnly: Bool = false, readsNoPages: Bool = false,
    _ body: @MainActor @Sendable (AppContext) async -> ExitStatus
  ) async throws {
    try await values.run(readsOnly: readsOnly, readsNoPages: readsNoPages, body)
  }

  @MainActor
  static func execute(
    _ options: AppOptions, _ body: @MainActor @Sendable (AppContext) async -> ExitStatus
  ) async -> ExitStatus {
    let output = TerminalOutput.standard(color: options.color)
    do {
      let app = try await AppContext(options: options, output: output)
      let status = await body(app)
      // The stores are closed before the process ends, so SQLite checkpoints and removes
      // its WAL instead of leaving it for the next run (process exit runs no deinit).
      await app.close()
      return status
    } catch {
      output.printError("error: \(error.message)")
      return error.status
    }
  }
}

extension AppOptions.Source: ExpressibleByArgument {}
extension ColorPolicy.Mode: ExpressibleByArgument {}
