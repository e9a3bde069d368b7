import Gutendex

/// What the interactive session asks the app to do with a book beyond browsing: download it,
/// read it, and say where it was downloaded. The app supplies these (they need the downloader,
/// the library and standard input), so the session stays testable without them.
package struct BookActions: Sendable {
  /// Downloads the book; returns the saved path, or nil after printing why not.
  package var download: @MainActor @Sendable (Book) async -> String?
  /// Opens the book in the pager until `q`.
  package var read: @MainActor @Sendable (Book) async -> Void
  /// The book's downloads as shown on the details screen.
  package var downloads: @MainActor @Sendable (Int) async -> [String]
  /// Prints the lines of the library's texts holding the words (`grep WORDS`).
  package var grep: @MainActor @Sendable (String) async -> Void
  /// Puts the book on an e-reader (a folder or `mail:ADDRESS`; nil: the last one used).
  package var send: @MainActor @Sendable (Book, String?) async -> Void
  /// The book's last progress sync record as the details show it, nil when there is none.
  package var progress: @MainActor @Sendable (Int) async -> String?

  /// Actions from these closures.
  package init(
    download: @escaping @MainActor @Sendable (Book) async -> String?,
    read: @escaping @MainActor @Sendable (Book) async -> Void,
    downloads: @escaping @MainActor @Sendable (Int) async -> [String],
    grep: @escaping @MainActor @Sendable (String) async -> Void = { _ in },
    send: @escaping @MainActor @Sendable (Book, String?) async -> Void = { _, _ in },
    progress: @escaping @MainActor @Sendable (Int) async -> String? = { _ in nil }
  ) {
    self.download = download
    self.read = read
    self.downloads = downloads
    self.grep = grep
    self.send = send
    self.progress = progress
  }
}
