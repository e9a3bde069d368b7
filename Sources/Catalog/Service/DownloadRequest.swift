import Foundation
import Gutendex

/// What the download intent is asked for: a book, an edition, a target and how to fetch it.
public struct DownloadRequest: Sendable {
  /// The Project Gutenberg number.
  public var id: Int
  /// The edition asked for; nil picks the first of ``BookFormat/preference`` the book has.
  public var format: BookFormat?
  /// The directory or file to save into.
  public var target: DownloadTarget
  /// Replace an existing file (`--force`).
  public var replace: Bool
  /// Fetch Project Gutenberg files from this mirror.
  public var mirror: DownloadMirror?
  /// The other mirrors (and Project Gutenberg): a part file one of them left for this file is
  /// resumed here when this mirror's copy has the same validator and size.
  public var otherSources: [DownloadMirror?] = []
  /// A transfer that receives nothing for this long fails as stalled.
  public var stallTimeout: Duration
  /// A transfer slower than this for a whole window fails as stalled too (nil: no minimum).
  public var minimumSpeed: MinimumSpeed?
  /// Cleans the title before it names the file and is stored in the library (the front's
  /// sanitizer).
  public var cleanTitle: @Sendable (String) -> String
  /// Told about every request for the file (`--verbose`), from any thread.
  public var observer: (@Sendable (RequestEvent) -> Void)?

  /// A request for book `id`.
  public init(
    id: Int, format: BookFormat? = nil, target: DownloadTarget, replace: Bool = false,
    mirror: DownloadMirror? = nil, stallTimeout: Duration = .seconds(30),
    minimumSpeed: MinimumSpeed? = .standard,
    cleanTitle: @escaping @Sendable (String) -> String = { $0 },
    observer: (@Sendable (RequestEvent) -> Void)? = nil
  ) {
    self.id = id
    self.format = format
    self.target = target
    self.replace = replace
    self.mirror = mirror
    self.stallTimeout = stallTimeout
    self.minimumSpeed = minimumSpeed
    self.cleanTitle = cleanTitle
    self.observer = observer
  }
}
