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
  public let isInteractive: Bool

  public init() {
    isInteractive = isatty(STDIN_FILENO) == 1
  }

  public func readLine() -> String? {
    Swift.readLine(strippingNewline: true)
  }
}
