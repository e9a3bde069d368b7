import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decides whether to colour output: only on a terminal that is not `dumb` and when `NO_COLOR`
/// is absent or empty (https://no-color.org), unless the user forces it either way.
package struct ColorPolicy: Sendable, Hashable {
  /// The user's choice, as given by `--color auto|always|never`.
  package enum Mode: String, Sendable, Hashable, CaseIterable {
    /// Colour when writing to a capable terminal and `NO_COLOR` is not set.
    case auto
    /// Colour even into a pipe or a file.
    case always
    /// Never colour.
    case never
  }

  /// The user's choice.
  package var mode: Mode
  /// Whether standard output is a terminal.
  package var isTerminal: Bool
  /// The environment variables that matter (`TERM`, `NO_COLOR`); others are ignored.
  package var environment: [String: String]

  /// A policy from explicit inputs (tests use this).
  package init(mode: Mode, isTerminal: Bool, environment: [String: String]) {
    self.mode = mode
    self.isTerminal = isTerminal
    self.environment = environment
  }

  /// The policy for this process: standard output's terminal status and the real environment.
  package static func current(mode: Mode) -> ColorPolicy {
    ColorPolicy(
      mode: mode, isTerminal: isatty(STDOUT_FILENO) == 1,
      environment: ProcessInfo.processInfo.environment)
  }

  /// Whether colour codes may be written.
  package var isEnabled: Bool {
    switch mode {
    case .always:
      return true
    case .never:
      return false
    case .auto:
      guard isTerminal else { return false }
      if environment["TERM"] == "dumb" { return false }
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
      return true
    }
  }

  /// The ``Style`` this policy allows.
  package var style: Style { Style(isEnabled: isEnabled) }
}
