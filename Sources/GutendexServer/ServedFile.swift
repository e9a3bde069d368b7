import Foundation

/// A file the server's files mode serves at one path, with validators and optional Range support.
///
/// The bytes come from memory, from a file on disk (read in chunks), or are generated on the fly
/// (see ``generatedBytes(offset:count:)``), so a 500 MB download needs no 500 MB fixture.
public struct ServedFile: Sendable, Hashable {
  /// Where the bytes come from.
  public enum Content: Sendable, Hashable {
    /// These bytes.
    case bytes(Data)
    /// The file at this path, read in chunks as it is sent.
    case file(URL)
    /// `size` bytes of ``ServedFile/generatedBytes(offset:count:)``.
    case generated(size: Int)
  }

  /// The bytes.
  public var content: Content
  /// `Content-Type`.
  public var contentType: String
  /// The `ETag` sent (quoted), or nil for none.
  public var etag: String?
  /// The `Last-Modified` sent, or nil for none.
  public var lastModified: String?
  /// Whether `Range` requests are honoured (206 and `Accept-Ranges: bytes`); when false, a
  /// `Range` header is ignored and the whole file is sent with 200.
  public var supportsRanges: Bool

  /// A file served with `content`; by default with an ETag and Range support.
  public init(
    content: Content, contentType: String = "application/octet-stream",
    etag: String? = "\"v1\"", lastModified: String? = "Sat, 01 Mar 2025 12:00:00 GMT",
    supportsRanges: Bool = true
  ) {
    self.content = content
    self.contentType = contentType
    self.etag = etag
    self.lastModified = lastModified
    self.supportsRanges = supportsRanges
  }

  /// The size in bytes (0 for a file that cannot be read).
  public var size: Int {
    switch content {
    case .bytes(let data): data.count
    case .generated(let size): max(0, size)
    case .file(let url):
      ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
  }

  /// The period of the generated pattern: a prime, so a shifted or repeated chunk shows.
  static let period = 251

  /// Bytes `offset..<offset+count` of every generated file: byte `i` is `i % 251`.
  public static func generatedBytes(offset: Int, count: Int) -> Data {
    var bytes = [UInt8](repeating: 0, count: max(0, count))
    var value = offset % period
    for index in bytes.indices {
      bytes[index] = UInt8(value)
      value += 1
      if value == period { value = 0 }
    }
    return Data(bytes)
  }
}
