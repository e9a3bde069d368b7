import Foundation
import Gutendex
import GutendexEngine
import Synchronization

/// A Gutendex server over the embedded catalogue whose newest-first page (what a sync walks
/// first) also offers the given books, as a hostile or broken server might; every other
/// request is the engine's own answer. It records each request's `Authorization` header, to
/// show that credentials were sent while never printed.
final class HostilePages: Requestable {
  let engine: GutendexEngine
  let offered: [Data]
  private let authorizations = Mutex<[String?]>([])

  init(offering books: [Data]) throws {
    engine = try EmbeddedCatalogue.load()
    offered = books
  }

  /// The `Authorization` header of each request so far, in order.
  var authorizationHeaders: [String?] { authorizations.withLock { $0 } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let authorization = request.headers.first { $0.key.lowercased() == "authorization" }?.value
    authorizations.withLock { $0.append(authorization) }
    let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let descending = query.contains { $0.name == "sort" && $0.value == "descending" }
    guard descending, !query.contains(where: { $0.name == "page" }), !offered.isEmpty else {
      return try await engine.send(request)
    }
    // One page: the offered books, then the catalogue's newest (known: the walk stops here).
    let known = try await engine.send(request)
    let page = try JSONSerialization.jsonObject(with: known.body) as? [String: Any] ?? [:]
    let results = (page["results"] as? [Any] ?? []).prefix(4)
    // The offered books as written (a number no JSON library reads stays as it is).
    let knownBooks = try results.map { try JSONSerialization.data(withJSONObject: $0) }
    var body = Data(
      #"{"count": \#(offered.count + results.count), "next": null, "previous": null, "results": ["#
        .utf8)
    body += Data((offered + knownBooks).joined(separator: Data(",".utf8)))
    body += Data("]}".utf8)
    return HTTPResponse(
      status: 200, headers: ["Content-Type": "application/json"], body: body, url: request.url)
  }

  /// Book 84 of the embedded catalogue as an object, to make others from.
  static func book84() throws -> [String: Any] {
    let json = try EmbeddedCatalogue.load().bookJSON(id: 84) ?? Data()
    return try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
  }

  /// A book like 84 with id `id`, changed by `change`.
  static func book(_ id: Int, _ change: (inout [String: Any]) -> Void = { _ in }) throws -> Data {
    var book = try book84()
    book["id"] = id
    book["summaries"] = []
    change(&book)
    return try JSONSerialization.data(withJSONObject: book)
  }
}
