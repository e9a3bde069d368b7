import Catalog

/// A subcommand's runner: it turns the command's options into calls on the catalogue and
/// prints what they give, through its ``AppContext``.
@MainActor
protocol CommandRunner {
  /// The service, the output and the configuration.
  var context: AppContext { get }
}

extension CommandRunner {
  var service: CatalogService { context.service }
  var output: TerminalOutput { context.output }
  var configuration: AppConfiguration { context.configuration }
  var options: AppOptions { context.options }

  func fail(_ error: CatalogError) -> ExitStatus { context.fail(error) }
  func fail(_ message: String, _ status: ExitStatus) -> ExitStatus {
    context.fail(message, status)
  }
}

/// How a listing is printed.
package enum ListFormat: Sendable {
  /// Aligned rows on a terminal, tab-separated rows in a pipe.
  case automatic
  case json
}
