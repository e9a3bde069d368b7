import Foundation
import Gutendex
import Synchronization

/// A Gutendex that answers from the real recordings in `Fixtures/`, or fails the way the real
/// server and network do (429 with `Retry-After`, connection refused), for the screen captures.
final class RecordedGutendex: Requestable {
  /// How the next requests fail.
  enum Fault: Sendable {
    case none
    /// 429 with `Retry-After: seconds`, as gutendex.com throttles.
    case rateLimited(seconds: Int)
    /// Nothing listens: what the transport reports for a refused connection.
    case unreachable
  }

  private let state = Mutex(Fault.none)
  /// Extra pages, keyed by the search they answer (built from recorded books).
  private let searches: [String: Data]

  init(searches: [String: Data] = [:]) {
    self.searches = searches
  }

  /// The fault applied to requests from now on.
  var fault: Fault {
    get { state.withLock { $0 } }
    set { state.withLock { $0 = newValue } }
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    switch fault {
    case .none:
      break
    case .rateLimited(let seconds):
      return HTTPResponse(
        status: 429, headers: ["Retry-After": "\(seconds)", "Content-Type": "application/json"],
        body: Data(#"{"detail":"Request was throttled."}"#.utf8), url: request.url)
    case .unreachable:
      throw GutendexError.unreachable(url: request.url, reason: "connection refused")
    }
    let path = request.url.path
    if let id = Int(path.split(separator: "/").last ?? ""), path.hasPrefix("/books/") {
      for name in Fixtures.names {
        if let book = try Fixtures.page(name).results.first(where: { $0.id == id }) {
          return json(book.rawJSON, request)
        }
      }
      return HTTPResponse(
        status: 404, headers: ["Content-Type": "application/json"],
        body: Data(#"{"detail":"No Book matches the given query."}"#.utf8), url: request.url)
    }
    return json(try page(for: request.url), request)
  }

  /// The recording that answers a listing URL (page 1 of each; later pages are not recorded).
  private func page(for url: URL) throws -> Data {
    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    var parameters: [String: String] = [:]
    for item in items { parameters[item.name] = item.value ?? "" }
    let page = parameters.removeValue(forKey: "page") ?? "1"
    guard page == "1" else { return Data(#"{"detail":"Invalid page."}"#.utf8) }
    if let search = parameters["search"], let body = searches[search] { return body }
    switch parameters {
    case [:]: return try Fixtures.data("e4-2025-page1")
    case ["search": "great expectations", "languages": "en"]:
      return try Fixtures.data("e2-2022-search-great-expectations")
    case ["languages": "ru"]: return try Fixtures.data("ru__page_1")
    case ["languages": "de"]: return try Fixtures.data("de__page_1")
    case ["languages": "zh"]: return try Fixtures.data("zh__page_1")
    default: return try Fixtures.data("e2-2022-no-results")
    }
  }

  private func json(_ body: Data, _ request: HTTPRequest) -> HTTPResponse {
    let invalid = body.starts(with: Data(#"{"detail""#.utf8))
    return HTTPResponse(
      status: invalid ? 404 : 200, headers: ["Content-Type": "application/json"], body: body,
      url: request.url)
  }

  /// A page of `books` in the server's format, as one search answers it.
  static func page(of books: [Book]) -> Data {
    let results = books.map { String(decoding: $0.rawJSON, as: UTF8.self) }
    return Data(
      (#"{"count":\#(books.count),"next":null,"previous":null,"results":["#
        + results.joined(separator: ",") + "]}").utf8)
  }
}
