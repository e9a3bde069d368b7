import ArgumentParser
import Terminal

/// The global options' values, as ``GlobalOptions`` parsed them or ``QuickCommandLine`` read
/// them: one type for both, so the two paths check, resolve and run the same way.
struct GlobalValues: Equatable, Sendable {
  var server: String?
  var dataDirectory: String?
  var offline = false
  var source: AppOptions.Source?
  var maxAge: String?
  var color: ColorPolicy.Mode = .auto
  var timeout: Double?
  var verbose = false

  /// What `GlobalOptions.validate()` refuses, with the same messages.
  func validate() throws {
    if let maxAge, SyncText.duration(maxAge) == nil {
      throw ValidationError("--max-age: '\(maxAge)' is not a duration like 7d, 12h, 30m or 90")
    }
    if let timeout, !(timeout > 0 && timeout <= 600) {
      throw ValidationError("--timeout must be more than 0 and at most 600 seconds")
    }
  }

  var appOptions: AppOptions {
    AppOptions(
      server: server, dataDirectory: dataDirectory, offline: offline, source: source,
      color: color, verbose: verbose, timeout: timeout, maxAge: maxAge.flatMap(SyncText.duration))
  }

  /// Builds the app and runs one call on it; a non-zero status becomes the exit code.
  func run(
    readsOnly: Bool = false, readsNoPages: Bool = false, usesNoPageCache: Bool = false,
    _ body: @MainActor @Sendable (AppContext) async -> ExitStatus
  ) async throws {
    var options = appOptions
    options.readsOnly = readsOnly
    options.readsNoPages = readsNoPages
    options.usesNoPageCache = usesNoPageCache
    let status = await GlobalOptions.execute(options, body)
    if status != .ok { throw ExitCode(status.rawValue) }
  }
}
