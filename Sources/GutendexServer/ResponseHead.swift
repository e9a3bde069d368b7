import Foundation

/// A status line and headers, encoded for the wire.
struct ResponseHead: Sendable, Hashable {
  var status: Int
  /// Headers in the order they are sent; names as given.
  var fields: [HeaderField]

  init(status: Int, fields: [HeaderField] = []) {
    self.status = status
    self.fields = fields
  }

  mutating func add(_ name: String, _ value: String) {
    fields.append(HeaderField(name: name, value: value))
  }

  /// `HTTP/1.1 200 OK\r\n...\r\n\r\n`; CR and LF in values are dropped so a handler cannot
  /// split the response.
  var encoded: Data {
    var text = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
    for field in fields {
      // By scalar: as Characters, "\r\n" is one grapheme, equal to neither "\r" nor "\n".
      let scalars = field.value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }
      let value = String(String.UnicodeScalarView(scalars))
      text += "\(field.name): \(value)\r\n"
    }
    text += "\r\n"
    return Data(text.utf8)
  }

  /// The standard reason phrase, or a generic one by class.
  static func reason(for status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 413: "Content Too Large"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    case 100..<200: "Informational"
    case 200..<300: "Success"
    case 300..<400: "Redirection"
    case 400..<500: "Client Error"
    default: "Server Error"
    }
  }

  /// `content-type` -> `Content-Type`, for tidy output.
  static func canonicalName(_ name: String) -> String {
    name.split(separator: "-", omittingEmptySubsequences: false)
      .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
      .joined(separator: "-")
  }
}
