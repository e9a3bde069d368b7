import Foundation
import Gutendex

/// What `library update` found for one downloaded file.
public struct LibraryUpdateOutcome: Sendable {
  /// What became of the file.
  public enum Kind: String, Sendable, Hashable {
    /// The server's file is the copy's (304): nothing was written.
    case unchanged
    /// The server sent the file although it had not changed (it ignored the condition): the
    /// bytes were the same, so nothing changed but the row's validators.
    case sameBytes = "same-bytes"
    /// The file changed on the server and was replaced.
    case updated
    /// `--dry-run`: the file changed on the server; nothing was written.
    case wouldUpdate = "would-update"
  }

  /// How the copy was compared with the server's file.
  public enum Comparison: Sendable, Hashable {
    /// `If-None-Match` with the stored ETag.
    case etag(String)
    /// `If-Modified-Since` with the stored `Last-Modified`.
    case lastModified(String)
    /// `If-Modified-Since` with the file's modification time (a row without validators).
    case fileTime(String)
    /// The file is gone from its place: fetched again, unconditionally.
    case missingFile

    /// The request's condition.
    public var request: ConditionalRequest {
      switch self {
      case .etag(let etag): ConditionalRequest(etag: etag)
      case .lastModified(let date), .fileTime(let date): ConditionalRequest(modifiedSince: date)
      case .missingFile: ConditionalRequest()
      }
    }

    /// A word for `--json`: `etag`, `last-modified`, `file-time`, `missing-file`.
    public var name: String {
      switch self {
      case .etag: "etag"
      case .lastModified: "last-modified"
      case .fileTime: "file-time"
      case .missingFile: "missing-file"
      }
    }
  }

  /// What became of the file.
  public var kind: Kind
  /// The library's row before.
  public var before: LibraryEntry
  /// The row now (the same as ``before`` unless the file was fetched).
  public var after: LibraryEntry
  /// How the copy was compared.
  public var comparedBy: Comparison

  /// An outcome.
  public init(kind: Kind, before: LibraryEntry, after: LibraryEntry, comparedBy: Comparison) {
    self.kind = kind
    self.before = before
    self.after = after
    self.comparedBy = comparedBy
  }
}

/// Why `library update` could not check or replace one file: the last error, and, when several
/// mirrors were tried, why each failed. The old file is whole either way.
public struct LibraryUpdateFailure: Error, Sendable {
  /// The last error.
  public var error: CatalogError
  /// Each mirror and why it could not serve, when more than one was tried.
  public var mirrorFailures: [(mirror: DownloadMirror, reason: String)]

  /// A failure.
  public init(error: CatalogError, mirrorFailures: [(mirror: DownloadMirror, reason: String)] = [])
  {
    self.error = error
    self.mirrorFailures = mirrorFailures
  }
}
