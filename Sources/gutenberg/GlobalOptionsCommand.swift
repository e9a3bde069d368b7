import ArgumentParser

/// A command that takes the global options: every subcommand adopts this, and a test walks the
/// command tree to check that none was forgotten.
///
/// Adopting it is one line in the command, `@OptionGroup(title: GlobalOptions.title) var
/// global: GlobalOptions`, plus this protocol in place of `AsyncParsableCommand`.
protocol GlobalOptionsCommand: AsyncParsableCommand {
  /// The global options, wherever they stood on the command line.
  var global: GlobalOptions { get }
}
