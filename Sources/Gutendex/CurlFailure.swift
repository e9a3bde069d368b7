internal import CCurl
import Foundation

/// libcurl's result codes as ``GutendexError``s, in the same few words on every platform: the
/// error buffer's text carries timings and repeats the host, so it is used only where it says
/// something the code does not (a certificate problem).
enum CurlFailure {
  static func error(
    _ code: CURLcode, message: String, url: URL, timeout: Duration, connectStatus: Int = 0
  ) -> GutendexError {
    if connectStatus == 407 {
      return .unreachable(url: url, reason: proxyLogin)
    }
    if connectStatus >= 300 {
      return .unreachable(
        url: url, reason: "the proxy refused the tunnel (HTTP \(connectStatus) to CONNECT)")
    }
    switch code {
    case CURLE_COULDNT_CONNECT:
      if let proxy = proxyTried(message, url: url) {
        return .unreachable(
          url: url,
          reason: "could not connect to the proxy \(proxy) (set by https_proxy, http_proxy or "
            + "all_proxy; no_proxy lists hosts reached directly)")
      }
      return .unreachable(url: url, reason: GutendexError.couldNotConnect)
    case CURLE_COULDNT_RESOLVE_HOST:
      return .unreachable(url: url, reason: "host not found")
    case CURLE_COULDNT_RESOLVE_PROXY:
      return .unreachable(url: url, reason: "proxy host not found")
    case CURLE_OPERATION_TIMEDOUT:
      return .timedOut(url: url, after: timeout)
    case CURLE_PEER_FAILED_VERIFICATION:
      return .unreachable(url: url, reason: "certificate not trusted" + detail(message))
    case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE:
      return .unreachable(url: url, reason: "secure connection failed" + detail(message))
    case CURLE_PROXY:
      return .unreachable(url: url, reason: "the proxy refused" + detail(message))
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
      return .invalidRequest(reason: "cannot fetch \(url.redacted)")
    case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_RANGE_ERROR:
      return .badData(url: url, path: "", reason: "not a valid HTTP answer" + detail(message))
    case CURLE_PARTIAL_FILE:
      return .connectionLost(url: url, reason: "the body ended early")
    case CURLE_GOT_NOTHING:
      return .connectionLost(url: url, reason: "closed without an answer")
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
      return .connectionLost(url: url, reason: "connection reset")
    default:
      return .connectionLost(url: url, reason: String(cString: gb_curl_easy_strerror(code)))
    }
  }

  /// What a proxy's 407 means, and the way out.
  static let proxyLogin =
    "the proxy requires authentication (HTTP 407 Proxy Authentication Required); give its "
    + "user and password in the proxy URL (http://user:password@host:port)"

  /// The `host:port` libcurl failed to connect to, when it is not the URL's own: the proxy.
  /// libcurl says which address it tried ("Failed to connect to 127.0.0.1 port 9 after 0 ms:
  /// ..."), and that is the only place a failed connection names it.
  private static func proxyTried(_ message: String, url: URL) -> String? {
    guard let match = message.firstMatch(of: /Failed to connect to (\S+) port (\d+)/),
      let port = Int(match.2)
    else { return nil }
    let host = String(match.1)
    let urlPort = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    if host.lowercased() == url.host?.lowercased(), port == urlPort { return nil }
    return "\(host):\(port)"
  }

  /// `": <libcurl's message>"` without the host and timings, or nothing.
  private static func detail(_ message: String) -> String {
    var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
    // "SSL certificate problem: unable to get local issuer certificate" → keep what follows
    // the last colon, the part that says what is wrong.
    if let colon = text.lastIndex(of: ":") {
      text = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    text = String(
      text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    return text.isEmpty ? "" : ": " + String(text.prefix(120))
  }
}
