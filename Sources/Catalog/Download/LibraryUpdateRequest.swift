import Foundation
import Gutendex

/// What `library update` is asked for one file: the row, the mirrors in order, and how politely
/// to ask (the pacer every request of the command waits on).
public struct LibraryUpdateRequest: Sendable {
  /// The library's row of the file.
  public var entry: LibraryEntry
  /// The mirrors to ask, in order; empty: the file's own URL (Project Gutenberg).
  public var mirrors: [DownloadMirror]
  /// Ask, but write nothing (no file, no row).
  public var dryRun: Bool
  /// Spaces the command's requests out (at most two a second by default).
  public var pacer: RequestPacer
  /// The longest `Retry-After` of a 429 or 503 waited for; a longer one fails the file.
  public var maxRetryAfter: Duration
  /// A transfer that receives nothing for this long fails as stalled.
  public var stallTimeout: Duration
  /// The slowest a transfer may go (nil: no minimum).
  public var minimumSpeed: MinimumSpeed?
  /// Told about every request (to count them, and for `--verbose`), from any thread.
  public var observer: (@Sendable (RequestEvent) -> Void)?

  /// A request for `entry`.
  public init(
    entry: LibraryEntry, mirrors: [DownloadMirror], dryRun: Bool = false, pacer: RequestPacer,
    maxRetryAfter: Duration = .seconds(120), stallTimeout: Duration = .seconds(30),
    minimumSpeed: MinimumSpeed? = .standard,
    observer: (@Sendable (RequestEvent) -> Void)? = nil
  ) {
    self.entry = entry
    self.mirrors = mirrors
    self.dryRun = dryRun
    self.pacer = pacer
    self.maxRetryAfter = maxRetryAfter
    self.stallTimeout = stallTimeout
    self.minimumSpeed = minimumSpeed
    self.observer = observer
  }
}

extension CatalogService {
  /// Checks one downloaded file against its mirror and replaces it when it changed (see
  /// `LibraryUpdate`); `events`: the file named, a wait for its lock, progress.
  public func updateDownload(
    _ request: LibraryUpdateRequest,
    events: @escaping @Sendable (DownloadEvent) -> Void = { _ in }
  ) async throws(LibraryUpdateFailure) -> LibraryUpdateOutcome {
    try await LibraryUpdate(service: self).run(request, events: events)
  }
}
