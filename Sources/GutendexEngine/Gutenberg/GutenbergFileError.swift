import Foundation

/// A file of Project Gutenberg's that is not what it should be, one line.
public struct GutenbergFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong with it.
  public var reason: String

  /// An error saying `reason`.
  public init(reason: String) {
    self.reason = reason
  }

  /// The reason.
  public var description: String { reason }
}
