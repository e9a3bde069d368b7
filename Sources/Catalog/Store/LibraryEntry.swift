import Foundation

/// One downloaded book in the library.
public struct LibraryEntry: Sendable, Hashable {
  /// The Project Gutenberg number.
  public var id: Int
  /// `epub`, `txt`, ... (see ``BookFormat``).
  public var format: String
  /// The title when it was downloaded.
  public var title: String
  /// Where the file was saved.
  public var path: String
  /// Its size when saved.
  public var size: Int64
  /// When the download finished.
  public var fetchedAt: Date
  /// The server's ETag or Last-Modified.
  public var validator: String?
  /// The URL asked for.
  public var url: String
  /// The `ETag` the file came with (nil: none, or recorded before it was kept).
  public var etag: String?
  /// The `Last-Modified` the file came with (nil: none, or recorded before it was kept).
  public var lastModified: String?

  /// An entry.
  public init(
    id: Int, format: String, title: String, path: String, size: Int64, fetchedAt: Date,
    validator: String?, url: String, etag: String? = nil, lastModified: String? = nil
  ) {
    self.etag = etag
    self.lastModified = lastModified
    self.id = id
    self.format = format
    self.title = title
    self.path = path
    self.size = size
    self.fetchedAt = fetchedAt
    self.validator = validator
    self.url = url
  }

  /// False when the file is no longer where it was saved (deleted or moved by hand).
  public var isPresent: Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && !isDirectory.boolValue
  }
}
