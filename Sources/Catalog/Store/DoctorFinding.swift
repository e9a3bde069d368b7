/// What `gutenberg doctor` found about one file of the data directory, as one line.
public struct DoctorFinding: Sendable, Hashable {
  /// How the file stands after the look (and the repair, when one was asked for).
  public enum State: Sendable, Hashable {
    /// Sound, or absent (made on first use).
    case ok
    /// Damaged and left as it is.
    case damaged
    /// Damaged, and replaced by a new file holding what could be read; the old one is kept.
    case repaired
    /// The look or the repair failed (a file that cannot be read, a directory that cannot be
    /// written); ``detail`` is the error.
    case failed
  }

  /// The file, relative to the data directory when it is inside it.
  public var name: String
  /// How the file stands.
  public var state: State
  /// What was found or done, after the name.
  public var detail: String

  /// `name: detail`.
  public var line: String { "\(name): \(detail)" }
}
