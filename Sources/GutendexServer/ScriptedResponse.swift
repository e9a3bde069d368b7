import Foundation

/// One canned response the server sends instead of asking its handler.
public struct ScriptedResponse: Sendable, Hashable {
  /// The HTTP status sent.
  public var status: Int
  /// Extra headers (`Retry-After`, `Content-Type`, ...).
  public var headers: [String: String]
  /// The body sent as is.
  public var body: Data

  /// A response with exactly this status, headers and body.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A 5xx with the HTML page real front ends send: Django's for 500, nginx's for the rest.
  public static func serverError(_ status: Int = 500) -> ScriptedResponse {
    let html: String
    if status == 500 {
      html = "<html><body><h1>Server Error (500)</h1></body></html>"
    } else {
      let title = "\(status) \(ResponseHead.reason(for: status))"
      html =
        "<html>\r\n<head><title>\(title)</title></head>\r\n<body>\r\n"
        + "<center><h1>\(title)</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    }
    return ScriptedResponse(
      status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(html.utf8))
  }

  /// 429 with Django REST framework's throttling body and, if given, `Retry-After`.
  public static func rateLimited(retryAfter: String?) -> ScriptedResponse {
    var headers = ["Content-Type": "application/json"]
    var detail = "Request was throttled."
    if let retryAfter {
      headers["Retry-After"] = retryAfter
      detail += " Expected available in \(retryAfter) seconds."
    }
    return ScriptedResponse(
      status: 429, headers: headers, body: Data(#"{"detail":"\#(detail)"}"#.utf8))
  }

  /// A status with a DRF-style JSON `{"detail": ...}` body.
  public static func detail(_ status: Int, _ detail: String) -> ScriptedResponse {
    let object = ["detail": detail]
    let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    return ScriptedResponse(
      status: status, headers: ["Content-Type": "application/json"], body: body)
  }

  /// Parses one command-line item: `500`, `502`, `429:2` (with `Retry-After: 2`), `404`.
  ///
  /// 5xx get an HTML page, 429 a throttling body, anything else a JSON `detail`.
  public init(parsing spec: String) throws(FaultSpecError) {
    let parts = spec.trimmingCharacters(in: .whitespaces).split(
      separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard let first = parts.first, let status = Int(first), (100...599).contains(status) else {
      throw FaultSpecError("not an HTTP status in the status script: \(spec)")
    }
    let argument = parts.count > 1 ? String(parts[1]) : nil
    if let argument, status != 429 || Int(argument).map({ $0 < 0 }) ?? true {
      throw FaultSpecError(
        "only 429 takes a value, its Retry-After in whole seconds, as in 429:2; got \(spec)")
    }
    switch status {
    case 429: self = .rateLimited(retryAfter: argument)
    case 500...: self = .serverError(status)
    default: self = .detail(status, ResponseHead.reason(for: status))
    }
  }

  /// Parses a comma-separated script such as `500,502,429:2`.
  public static func script(parsing text: String) throws(FaultSpecError) -> [ScriptedResponse] {
    var script: [ScriptedResponse] = []
    for item in text.split(separator: ",") {
      script.append(try ScriptedResponse(parsing: String(item)))
    }
    return script
  }
}
