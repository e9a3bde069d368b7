/// One request files mode answered (a served file or a redirect), with the headers a download
/// test checks: whether it was conditional, and what it resumed.
public struct FileRequest: Sendable, Hashable {
  /// The path asked for (without the query).
  public var path: String
  /// `Range`, nil when absent.
  public var range: String?
  /// `If-None-Match`, nil when absent.
  public var ifNoneMatch: String?
  /// `If-Modified-Since`, nil when absent.
  public var ifModifiedSince: String?
  /// `User-Agent`, nil when absent.
  public var userAgent: String?

  /// A logged request.
  public init(
    path: String, range: String? = nil, ifNoneMatch: String? = nil,
    ifModifiedSince: String? = nil, userAgent: String? = nil
  ) {
    self.path = path
    self.range = range
    self.ifNoneMatch = ifNoneMatch
    self.ifModifiedSince = ifModifiedSince
    self.userAgent = userAgent
  }
}
