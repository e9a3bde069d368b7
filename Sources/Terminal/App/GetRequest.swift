/// What `gutenberg get` was asked for.
package struct GetRequest: Sendable, Hashable {
  /// The books.
  package var ids: [Int]
  /// `--format`: a name (`epub`, `txt`, ...) or a MIME type; nil picks by preference.
  package var format: String?
  /// `-o`: a file (one book) or a directory; nil means `GUTENBERG_DOWNLOAD_DIR` or the current
  /// directory.
  package var output: String?
  /// `--force`: replace an existing file.
  package var force: Bool
  /// `--quiet`: no progress line and no notes.
  package var quiet: Bool
  /// `--mirror`, repeated: fetch Project Gutenberg files from these mirrors, in order (else
  /// `GUTENBERG_MIRRORS`, else `GUTENBERG_MIRROR`).
  package var mirrors: [String]

  /// A request.
  package init(
    ids: [Int], format: String? = nil, output: String? = nil, force: Bool = false,
    quiet: Bool = false, mirrors: [String] = []
  ) {
    self.ids = ids
    self.format = format
    self.output = output
    self.force = force
    self.quiet = quiet
    self.mirrors = mirrors
  }
}
