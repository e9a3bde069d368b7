import Catalog
import Foundation

/// How progress sync's records read in `--json` (the same fields as the server's), and its
/// failures as one line and an exit status.
enum ProgressJSON {
  /// A book's sync state.
  static func json(id: Int, _ book: BookProgress) -> [String: Any] {
    var object: [String: Any] = [
      "id": id, "document": book.document ?? NSNull(), "file": book.file ?? NSNull(),
    ]
    if let remote = book.remote { object["remote"] = remoteJSON(remote) }
    if let queued = book.queued { object["queued_percentage"] = queued.percentage }
    return object
  }

  /// A record as the server gives it.
  static func remoteJSON(_ remote: RemoteProgress) -> [String: Any] {
    [
      "document": remote.document, "percentage": remote.percentage, "progress": remote.progress,
      "device": remote.device, "device_id": remote.deviceID ?? NSNull(),
      "timestamp": remote.timestamp ?? NSNull(),
    ]
  }
}

extension CommandRunner {
  /// A progress sync failure as one line and its exit status.
  func fail(_ error: ProgressSyncError) -> ExitStatus {
    let status: ExitStatus =
      switch error {
      case .unavailable, .refused: .unavailable
      case .badAnswer: .dataError
      case .notLoggedIn, .noDocument: .usage
      case .unauthorized, .file: .failure
      }
    return fail(Sanitizer.sanitize(error.description), status)
  }
}
