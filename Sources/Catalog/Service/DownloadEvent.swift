import Foundation
import Gutendex

/// What the download intent reports while it works, for the front to show.
public enum DownloadEvent: Sendable {
  /// The file's path is known (before any waiting or transfer).
  case started(destination: URL)
  /// Another process holds the target's lock: this one waits for it (reported once).
  case waiting(pid: Int32?, destination: URL)
  /// The target's lock is held: the download goes ahead (after a wait, or at once).
  case lockAcquired
  /// The partial download's sidecar could not be trusted and was ignored: starting over.
  case sidecarIgnored(path: String, reason: String)
  /// Bytes arrived.
  case progress(DownloadProgress)
}
