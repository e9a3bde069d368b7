import Foundation

/// Why progress sync could not do what was asked; each is one line for the user, and none of
/// them ever holds the password or the key.
public enum ProgressSyncError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No `progress login` yet (or after `progress logout`).
  case notLoggedIn
  /// The server refused the user name and key (HTTP 401).
  case unauthorized(user: String, server: String)
  /// The server could not be reached, timed out or stalled.
  case unavailable(server: String, reason: String)
  /// The server answered with a status the protocol does not expect.
  case refused(server: String, status: Int, message: String?)
  /// The server's answer is not a kosync answer.
  case badAnswer(server: String, reason: String)
  /// A file of the data directory could not be read or written.
  case file(path: String, reason: String)
  /// The book has no file the key can be computed from.
  case noDocument(id: Int, reason: String)

  /// The line printed after `error:` or `note:`.
  public var description: String {
    switch self {
    case .notLoggedIn:
      "progress sync is not set up: gutenberg progress login URL USER"
    case .unauthorized(let user, let server):
      "\(server) refused user \(user)'s login (HTTP 401): gutenberg progress login again"
    case .unavailable(let server, let reason):
      "cannot reach the progress server \(server): \(reason)"
    case .refused(let server, let status, let message):
      "the progress server \(server) answered HTTP \(status)"
        + (message.map { ": \($0)" } ?? "")
    case .badAnswer(let server, let reason):
      "the progress server \(server) sent something that is not a kosync answer (\(reason))"
    case .file(let path, let reason):
      "cannot use \(path): \(reason)"
    case .noDocument(let id, let reason):
      "book \(id) has no EPUB to match KOReader's record with (\(reason))"
    }
  }

  /// Whether a push that failed so is kept to be sent again (the network, the server or the
  /// login), rather than dropped.
  public var keepsQueued: Bool {
    switch self {
    case .unavailable, .unauthorized, .refused: true
    default: false
    }
  }
}
