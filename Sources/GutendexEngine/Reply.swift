import Foundation
import Gutendex

/// Builds the engine's responses for one request: headers, HEAD bodies, absolute links.
struct Reply {
  let request: HTTPRequest

  private var isHead: Bool { request.method.uppercased() == "HEAD" }

  private func header(_ name: String) -> String? {
    request.headers.first { $0.key.lowercased() == name }?.value
  }

  private func response(_ status: Int, _ headers: [String: String], _ body: [UInt8])
    -> HTTPResponse
  {
    var headers = headers
    if header("origin") != nil { headers["Access-Control-Allow-Origin"] = "*" }
    return HTTPResponse(
      status: status, headers: headers, body: isHead ? Data() : Data(body), url: request.url)
  }

  func json(_ status: Int, _ body: [UInt8], allow: String) -> HTTPResponse {
    response(
      status,
      ["Content-Type": "application/json", "Allow": allow, "Vary": "Accept, origin, Cookie"], body)
  }

  /// A DRF error: `{"detail":"..."}`.
  func detail(_ status: Int, _ message: String) -> HTTPResponse {
    var json = JSONWriter()
    json.raw(#"{"detail":"#)
    json.string(message)
    json.raw("}")
    return response(
      status, ["Content-Type": "application/json", "Vary": "Accept, origin, Cookie"], json.bytes)
  }

  /// Django's APPEND_SLASH answer: 301, relative Location, empty body.
  func redirect(to location: String) -> HTTPResponse {
    response(301, ["Content-Type": "text/html; charset=utf-8", "Location": location], [])
  }

  func notFoundPage() -> HTTPResponse {
    response(404, ["Content-Type": "text/html; charset=utf-8"], Array(Self.notFoundHTML.utf8))
  }

  func homePage() -> HTTPResponse {
    response(200, ["Content-Type": "text/html; charset=utf-8"], Array(Self.homeHTML.utf8))
  }

  /// DRF's metadata answer for OPTIONS (anonymous users get no `actions`).
  func options(_ route: Route) -> HTTPResponse {
    let name = if case .detail = route { "Book Instance" } else { "Book List" }
    let body =
      #"{"name":"\#(name)","description":"","renders":["application/json"],"#
      + #""parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}"#
    return json(200, Array(body.utf8), allow: route.allow)
  }

  /// An absolute link as DRF builds it: the request's scheme and host, its path, `query`.
  func link(_ query: String) -> String {
    let url = request.url
    let scheme = url.scheme ?? "http"
    let host: String
    if let given = header("host"), !given.isEmpty {
      host = given
    } else {
      let name = url.host(percentEncoded: true) ?? "localhost"
      host = url.port.map { "\(name):\($0)" } ?? name
    }
    let path = url.path(percentEncoded: true)
    return "\(scheme)://\(host)\(path)" + (query.isEmpty ? "" : "?" + query)
  }

  static let notFoundHTML = """
    <!DOCTYPE html>
    <html lang="en">
    <head><meta charset="utf-8"><title>Page Not Found | Gutendex</title></head>
    <body><h1>Page Not Found</h1><p>The page you requested does not exist.</p></body>
    </html>

    """

  static let homeHTML = """
    <!DOCTYPE html>
    <html lang="en">
    <head><meta charset="utf-8"><title>Gutendex</title></head>
    <body><h1>Gutendex</h1><p>A JSON web API for Project Gutenberg ebook metadata.
    Try <a href="/books/">/books/</a>.</p></body>
    </html>

    """
}
