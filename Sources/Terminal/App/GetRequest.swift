/// What `gutenberg get` was asked for.
public struct GetRequest: Sendable, Hashable {
  /// The books.
  public var ids: [Int]
  /// `--format`: a name (`epub`, `txt`, ...) or a MIME type; nil picks by preference.
  public var format: String?
  /// `-o`: a file (one book) or a directory; nil means `GUTENBERG_DOWNLOAD_DIR` or the current
  /// directory.
  public var output: String?
  /// `--force`: replace an existing file.
  public var force: Bool
  /// `--quiet`: no progress line and no notes.
  public var quiet: Bool
  /// `--mirror`: fetch Project Gutenberg files from this mirror (else `GUTENBERG_MIRROR`).
  public var mirror: String?

  /// A request.
  public init(
    ids: [Int], format: String? = nil, output: String? = nil, force: Bool = false,
    quiet: Bool = false, mirror: String? = nil
  ) {
    self.ids = ids
    self.format = format
    self.output = output
    self.force = force
    self.quiet = quiet
    self.mirror = mirror
  }
}
