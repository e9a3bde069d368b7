/// The validators a conditional GET sends (`If-None-Match`, `If-Modified-Since`): what the copy
/// on disk was when it was fetched, so that a server with the same file answers 304 and sends
/// nothing.
public struct ConditionalRequest: Sendable, Hashable {
  /// The `ETag` the copy came with; sent as `If-None-Match`.
  public var etag: String?
  /// An HTTP date: the copy's `Last-Modified`, or its file's time. Sent as `If-Modified-Since`
  /// only without an ETag (a server must then ignore it: RFC 9110 13.1.3).
  public var modifiedSince: String?

  /// A condition on `etag`, else on `modifiedSince`.
  public init(etag: String? = nil, modifiedSince: String? = nil) {
    self.etag = etag
    self.modifiedSince = modifiedSince
  }

  /// The request headers, each value checked as a header value would be (a validator from a
  /// file that holds a line break is not sent).
  public var headers: [String: String] {
    if let etag, PartialDownload.problem(validator: etag) == nil {
      return ["If-None-Match": etag]
    }
    if let modifiedSince, PartialDownload.problem(validator: modifiedSince) == nil {
      return ["If-Modified-Since": modifiedSince]
    }
    return [:]
  }
}
