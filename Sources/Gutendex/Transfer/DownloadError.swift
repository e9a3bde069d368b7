import Foundation

/// Why a download did not finish, with what was kept for a later resume.
public enum DownloadError: Error, Sendable, Hashable {
  /// The server answered with an error, or could not be reached, after the retries.
  case server(GutendexError)
  /// The connection kept failing (lost, 5xx, 429) through every retry; `kept` bytes are in the
  /// partial file.
  case failedAfterRetries(GutendexError, kept: Int64, resumable: Bool)
  /// A redirect the downloader will not follow (a downgrade to http, a scheme it does not speak).
  case redirectRefused(from: URL, to: String, reason: String)
  /// More than ``Downloader/maxRedirects`` redirects.
  case tooManyRedirects(url: URL)
  /// Nothing arrived for the stall timeout; `kept` bytes are in the partial file.
  case stalled(url: URL, after: Duration, kept: Int64, resumable: Bool)
  /// Stopped by the user (Ctrl-C); `kept` bytes are in the partial file.
  case interrupted(kept: Int64, resumable: Bool)
  /// Writing the file failed (disk full, file too large, permissions).
  case disk(path: String, reason: String, resumable: Bool)
  /// The destination exists and overwriting was not asked for.
  case exists(path: String)
  /// The body ended at a length other than the one announced, after every retry.
  case lengthMismatch(expected: Int64, received: Int64)
  /// The server answered with something that is not the file asked for (an HTML page, binary
  /// data for a text); nothing was kept (see ``ExpectedContent``).
  case notTheFile(url: URL, reason: String)

  /// True when a partial file was kept and the next attempt resumes it.
  public var resumable: Bool {
    switch self {
    case .stalled(_, _, _, let resumable), .interrupted(_, let resumable),
      .disk(_, _, let resumable), .failedAfterRetries(_, _, let resumable):
      resumable
    default: false
    }
  }
}

extension DownloadError: CustomStringConvertible, LocalizedError {
  /// One line for a person.
  public var description: String {
    switch self {
    case .server(let error): error.description
    case .failedAfterRetries(let error, let kept, _):
      kept > 0 ? "\(error.description); \(kept) bytes received so far" : error.description
    case .redirectRefused(let from, let to, let reason):
      "refused redirect from \(from.host ?? from.redacted) to \(URL.redacting(to)): \(reason)"
    case .tooManyRedirects(let url):
      "too many redirects (more than \(Downloader.maxRedirects)) from \(url.redacted)"
    case .stalled(let url, let after, let kept, _):
      "\(url.host ?? url.redacted) sent nothing for \(Self.seconds(after)); "
        + "\(kept) bytes received so far"
    case .interrupted(let kept, _):
      "interrupted after \(kept) bytes"
    case .disk(let path, let reason, _):
      "cannot write \(path): \(reason)"
    case .exists(let path):
      "\(path) already exists (use --force to replace it)"
    case .lengthMismatch(let expected, let received):
      "the server announced \(expected) bytes but sent \(received)"
    case .notTheFile(let url, let reason):
      "\(url.host ?? url.redacted) answered with \(reason), not the book's file; nothing was kept"
    }
  }

  /// The same one line as ``description``.
  public var errorDescription: String? { description }

  /// Duration text as the client's errors print it (`1 s`, `500 ms`, `1.5 s`).
  package static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return "\(seconds) s" }
    if seconds == 0 { return "\(attoseconds / 1_000_000_000_000_000) ms" }
    return String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18)
  }
}
