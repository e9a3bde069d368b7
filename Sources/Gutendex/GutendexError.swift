import Foundation

/// Everything that can go wrong talking to a Gutendex server, with the context to explain it.
public enum GutendexError: Error, Sendable, Hashable {
  /// The server could not be reached at all (refused, no route, unknown host).
  case unreachable(url: URL, reason: String)
  /// The connection broke during the exchange (reset, closed early); worth a retry.
  case connectionLost(url: URL, reason: String)
  /// Nothing arrived within the timeout.
  case timedOut(url: URL, after: Duration)
  /// The caller cancelled the request.
  case cancelled(url: URL)
  /// A 4xx answer, with the server's `{"detail": ...}` message when it gave one.
  case http(status: Int, detail: String?, url: URL)
  /// 429 Too Many Requests, with the server's `Retry-After` when it gave one.
  case rateLimited(retryAfter: Duration?, url: URL)
  /// A 5xx answer (often an HTML error page, never handed to the JSON decoder).
  case serverError(status: Int, url: URL)
  /// The body was not what a Gutendex server sends; `path` is the JSON path that failed.
  case badData(url: URL, path: String, reason: String)
  /// The body was larger than the configured limit and was not read further.
  case bodyTooLarge(url: URL, limit: Int)
  /// The server redirected to another host, which the client refuses to follow.
  case redirectRefused(from: URL, to: String)
  /// The server sent more slowly than the minimum for a whole window.
  case tooSlow(url: URL, minimum: MinimumSpeed)
  /// The request could not be built (a bad server URL, say).
  case invalidRequest(reason: String)

  /// The URL the failed request was for, when there is one.
  public var url: URL? {
    switch self {
    case .unreachable(let url, _), .connectionLost(let url, _), .timedOut(let url, _),
      .cancelled(let url), .http(_, _, let url), .rateLimited(_, let url),
      .serverError(_, let url), .badData(let url, _, _), .bodyTooLarge(let url, _),
      .tooSlow(let url, _):
      url
    case .redirectRefused(let from, _): from
    case .invalidRequest: nil
    }
  }

  /// True when the server could not be talked to at all, so a cached or local copy should
  /// stand in (unreachable, timed out, connection lost, 5xx, rate limited).
  public var isUnavailable: Bool {
    switch self {
    case .unreachable, .connectionLost, .timedOut, .tooSlow, .serverError, .rateLimited: true
    default: false
    }
  }

  /// The reason of an ``unreachable(url:reason:)`` whose connection was refused (or had no
  /// route): what both transports say for it.
  static let couldNotConnect = "could not connect"
  /// The reason of an ``unreachable(url:reason:)`` made with no network at all.
  static let noNetwork = "no network connection"

  /// True when the connection was refused at once (no server on the port, no network): trying
  /// again costs nothing, however long a loaded machine took to say so.
  public var isRefusal: Bool {
    guard case .unreachable(_, let reason) = self else { return false }
    return reason.hasPrefix(Self.couldNotConnect) || reason == Self.noNetwork
  }

  /// True when the same request may succeed if sent again after a pause.
  public var isTransient: Bool {
    switch self {
    case .connectionLost, .serverError, .rateLimited: true
    default: false
    }
  }
}

extension GutendexError: CustomStringConvertible, LocalizedError {
  /// One line for a person: what happened, and where.
  public var description: String {
    switch self {
    case .unreachable(let url, let reason):
      "cannot reach \(Self.host(url)): \(reason)"
    case .connectionLost(let url, let reason):
      "connection to \(Self.host(url)) lost: \(reason)"
    case .timedOut(let url, let after):
      "\(Self.host(url)) did not answer within \(Self.seconds(after)) (\(Self.shown(url)))"
    case .cancelled:
      "request cancelled"
    case .http(let status, let detail, let url):
      if let detail, !detail.isEmpty {
        "server says: \(Self.capped(detail)) (HTTP \(status), \(Self.shown(url)))"
      } else {
        "HTTP \(status) from \(Self.shown(url))"
      }
    case .rateLimited(let retryAfter, let url):
      if let retryAfter {
        "rate limited by \(Self.host(url)), retry in \(Self.seconds(retryAfter))"
      } else {
        "rate limited by \(Self.host(url)), retry later"
      }
    case .serverError(let status, let url):
      "server error (HTTP \(status)) from \(Self.host(url)); try again later"
    case .badData(let url, let path, let reason):
      "bad data from server at \(path.isEmpty ? "top level" : Self.capped(path)): "
        + "\(Self.capped(reason)) (\(Self.shown(url)))"
    case .bodyTooLarge(let url, let limit):
      "response from \(Self.host(url)) is larger than \(limit / 1_048_576) MiB; refused"
    case .redirectRefused(let from, let to):
      "refused redirect from \(Self.host(from)) to another host: \(Self.capped(URL.redacting(to)))"
    case .tooSlow(let url, let minimum):
      "\(Self.host(url)) sent less than \(minimum.bytesPerSecond) bytes/s for "
        + Self.seconds(minimum.window)
    case .invalidRequest(let reason):
      "invalid request: \(reason)"
    }
  }

  /// The same line as ``description``, for Foundation's error reporting.
  public var errorDescription: String? { description }

  /// The most characters of a URL or of server text an error line repeats.
  public static let echoLimit = 200

  /// `url` as an error line shows it: whole up to ``echoLimit`` characters, else cut with `…`
  /// (a 100 KB search must not come back as 1,400 lines).
  static func shown(_ url: URL) -> String {
    capped(url.redacted)
  }

  /// `text` cut to ``echoLimit`` characters, ending with `…` when cut.
  static func capped(_ text: String) -> String {
    text.count > echoLimit ? String(text.prefix(echoLimit - 1)) + "…" : text
  }

  private static func host(_ url: URL) -> String {
    guard let host = url.host else { return capped(url.redacted) }
    if let port = url.port { return "\(host):\(port)" }
    return host
  }

  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return "\(seconds) s" }
    // Sub-second timeouts (tests, loopback) would all print as "0.0 s" or "0.1 s".
    if seconds == 0 { return "\(attoseconds / 1_000_000_000_000_000) ms" }
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return String(format: "%.1f s", value)
  }
}
