import Foundation

/// Where the interactive session reads its commands from.
public protocol LineSource: Sendable {
  /// Whether a person is typing (a prompt is shown) or a pipe/file is feeding lines.
  var isInteractive: Bool { get }
  /// The next line without its newline, or nil at end of input (Ctrl-D).
  func readLine() -> String?
}

/// Standard input. Invalid UTF-8 is repaired (U+FFFD), never fatal.
public struct StandardInput: LineSource {
  /// Whether standard input is a terminal (then a prompt is shown).
  public let isInteractive: Bool

  /// Lines from this process's standard input.
  public init() {
    isInteractive = isatty(STDIN_FILENO) == 1
  }

  /// The next line without its newline, nil at the end of input.
  public func readLine() -> String? {
    Swift.readLine(strippingNewline: true)
  }
}
