import Foundation

/// A finished download.
public struct DownloadResult: Sendable, Hashable {
  /// Why an earlier partial file could not be resumed and the download started over.
  public enum Restart: Sendable, Hashable {
    /// The server ignored the `Range` request (no support, or it answered 200).
    case rangeNotSupported
    /// The file changed on the server (a different ETag or Last-Modified).
    case validatorChanged
  }

  /// Where the file is now.
  public var path: URL
  /// Its size in bytes.
  public var size: Int64
  /// The server's ETag, else its Last-Modified, for the library.
  public var validator: String?
  /// The server's `ETag` as sent (weak ones too: `If-None-Match` takes them), nil for none.
  public var etag: String? = nil
  /// The server's `Last-Modified` as sent, nil for none.
  public var lastModified: String? = nil
  /// Bytes that were resumed from an earlier partial file (0 for a fresh download).
  public var resumedFrom: Int64
  /// Set when a partial file was there but had to be thrown away.
  public var restart: Restart?
  /// The URL that finally served the bytes (after redirects).
  public var finalURL: URL
}
