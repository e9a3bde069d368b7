import Catalog
import Gutendex

/// What a failed download says about `--mirror` when Project Gutenberg's own server could not
/// be used: a mirror holds the same files.
extension GutenbergApp {
  /// ` (--mirror URL …)` after a download that failed because the file's server could not be
  /// reached or would not serve; empty when a mirror was used or the failure was not the
  /// server's.
  nonisolated static func mirrorHint(_ error: DownloadError, mirror: DownloadMirror?) -> String {
    guard mirror == nil else { return "" }
    switch error {
    case .server(let server), .failedAfterRetries(let server, _, _):
      guard server.isUnavailable else { return "" }
      return " (--mirror URL fetches the files from a Project Gutenberg mirror instead)"
    default:
      return ""
    }
  }
}
