import Foundation

/// What `library search` needs to know of a downloaded text besides its words, worked out when
/// the download is recorded and kept with it in the library: where the book itself lies
/// (without Project Gutenberg's header and licence) and its chapters, as the reader's table of
/// contents finds them. A search then shows the chapter of a match without reading the book
/// again; the contents of a file whose size changed, or found by another version of the
/// table of contents, are not used (the search works them out again, as it does for a
/// download recorded before they were kept).
public struct LibraryContents: Sendable, Equatable {
  /// One chapter: its title and the byte offset of its heading.
  public struct Chapter: Sendable, Equatable {
    /// The title, as the reader's `toc` shows it.
    public var title: String
    /// Where its heading starts in the file.
    public var offset: Int

    /// A chapter.
    public init(title: String, offset: Int) {
      self.title = title
      self.offset = offset
    }
  }

  /// The book of the download.
  public var id: Int
  /// The format of the download (with `id`, the library's key).
  public var format: String
  /// The file's size when the contents were worked out.
  public var size: Int64
  /// The version of the table of contents that found them (the front's own number).
  public var version: Int
  /// The bytes of the book itself, without the PG header and licence.
  public var body: Range<Int>
  /// The chapters, in the order of the file.
  public var chapters: [Chapter]

  /// The contents of a download.
  public init(
    id: Int, format: String, size: Int64, version: Int, body: Range<Int>, chapters: [Chapter]
  ) {
    self.id = id
    self.format = format
    self.size = size
    self.version = version
    self.body = body
    self.chapters = chapters
  }

  /// The chapters as stored: for each, its offset (8 bytes, little-endian), the length of its
  /// title (4 bytes) and the title's UTF-8.
  var chaptersBlob: Data {
    var out = Data()
    for chapter in chapters {
      withUnsafeBytes(of: Int64(chapter.offset).littleEndian) { out.append(contentsOf: $0) }
      let title = Array(chapter.title.utf8)
      withUnsafeBytes(of: UInt32(title.count).littleEndian) { out.append(contentsOf: $0) }
      out.append(contentsOf: title)
    }
    return out
  }

  /// The chapters read back from ``chaptersBlob``; nil when the bytes are not such a list.
  static func chapters(from blob: Data) -> [Chapter]? {
    let bytes = [UInt8](blob)
    var chapters: [Chapter] = []
    var position = 0
    func integer(_ width: Int) -> UInt64? {
      guard position + width <= bytes.count else { return nil }
      var value: UInt64 = 0
      for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[position + index]) }
      position += width
      return value
    }
    while position < bytes.count {
      guard let offset = integer(8), offset <= UInt64(Int.max), let length = integer(4),
        position + Int(length) <= bytes.count
      else { return nil }
      let title = String(decoding: bytes[position..<position + Int(length)], as: UTF8.self)
      position += Int(length)
      chapters.append(Chapter(title: title, offset: Int(offset)))
    }
    return chapters
  }
}
