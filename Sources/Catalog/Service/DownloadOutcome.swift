import Foundation
import Gutendex

/// A book that is on disk and (unless ``recordProblem`` says otherwise) in the library.
public struct DownloadOutcome: Sendable {
  /// How the file came to be there.
  public enum Kind: Sendable, Hashable {
    /// Downloaded now (``DownloadOutcome/result`` says how).
    case downloaded
    /// Published by an earlier run that was killed before recording it: now recorded.
    case adopted
    /// Already in the library at this path, with the recorded size: nothing fetched.
    case alreadyThere
  }

  /// The library row.
  public var entry: LibraryEntry
  /// How the file came to be there.
  public var kind: Kind
  /// The transfer, for a download made now.
  public var result: DownloadResult?
  /// Why the library row could not be recorded (the file is there; the next `get` adopts it).
  public var recordProblem: CatalogError?

  /// An outcome.
  public init(
    entry: LibraryEntry, kind: Kind, result: DownloadResult? = nil,
    recordProblem: CatalogError? = nil
  ) {
    self.entry = entry
    self.kind = kind
    self.result = result
    self.recordProblem = recordProblem
  }
}
