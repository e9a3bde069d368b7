import Foundation
import Gutendex

extension GutendexEngine {
  /// The server's page size (REST_FRAMEWORK PAGE_SIZE), defined once in ``BookQuery``.
  public static let pageSize = BookQuery.pageSize

  /// Answers one request synchronously, as the real server would (routing, Django's slash
  /// redirect, DRF negotiation and permissions, filters, pagination).
  public func respond(to request: HTTPRequest) -> HTTPResponse {
    let url = request.url
    let rawPath = url.path(percentEncoded: true)
    let path = url.path(percentEncoded: false)
    let rawQuery = url.query(percentEncoded: true)
    let reply = Reply(request: request)

    guard let route = Route(path: path) else {
      // Django's APPEND_SLASH: redirect only when the slashed path would resolve.
      if !path.hasSuffix("/"), Route(path: path + "/") != nil {
        let location = (rawPath.isEmpty ? "/" : rawPath) + "/" + (rawQuery.map { "?" + $0 } ?? "")
        return reply.redirect(to: location)
      }
      return reply.notFoundPage()
    }
    if case .home = route { return reply.homePage() }

    let query = QueryString(rawQuery)
    // DRF content negotiation runs before the permission check.
    let format = route.format ?? query.value("format").flatMap { $0.isEmpty ? nil : $0 }
    if let format, format != "json" { return reply.detail(404, "Not found.") }
    if !Self.acceptsJSON(request) {
      return reply.detail(406, "Could not satisfy the request Accept header.")
    }
    switch request.method.uppercased() {
    case "GET", "HEAD": break
    case "OPTIONS": return reply.options(route)
    default: return reply.detail(403, "Authentication credentials were not provided.")
    }

    let filter = BookFilter(query: query)
    switch storage {
    case .memory(let books):
      return answer(route: route, filter: filter, query: query, reply: reply, books: books)
    case .mapped(let books):
      if let delta {
        return answer(
          route: route, filter: filter, query: query, reply: reply, base: books, delta: delta)
      }
      return answer(route: route, filter: filter, query: query, reply: reply, books: books)
    }
  }

  /// The answer over the base and the delta together (see ``hits(_:base:delta:only:)``).
  private func answer(
    route: Route, filter: BookFilter, query: QueryString, reply: Reply, base: MappedCatalogue,
    delta: MappedCatalogue
  ) -> HTTPResponse {
    func record(_ hit: Hit) throws(EngineError) -> BookRecord {
      hit.inDelta
        ? try delta.record(at: Int(hit.position)) : try base.record(at: Int(hit.position))
    }
    switch route {
    case .list:
      return list(matches: hits(filter, base: base, delta: delta), query: query, reply: reply) {
        hit throws(EngineError) in try record(hit)
      }
    case .detail(let rawID, _):
      guard let id = PythonInt.parse(rawID) else { return reply.detail(404, "Not found.") }
      guard let hit = hits(filter, base: base, delta: delta, only: id).first else {
        return reply.detail(404, "No Book matches the given query.")
      }
      do {
        return reply.json(200, try record(hit).json, allow: route.allow)
      } catch {
        return Self.damaged(error, reply: reply)
      }
    case .home:
      return reply.homePage()
    }
  }

  private func answer(
    route: Route, filter: BookFilter, query: QueryString, reply: Reply, books: some BookColumns
  ) -> HTTPResponse {
    switch route {
    case .list:
      return list(filter: filter, query: query, reply: reply, books: books)
    case .detail(let rawID, _):
      guard let id = PythonInt.parse(rawID) else { return reply.detail(404, "Not found.") }
      let matches = filter.positions(in: books, only: id)
      guard let position = matches.first else {
        return reply.detail(404, "No Book matches the given query.")
      }
      do {
        return reply.json(200, try books.record(at: Int(position)).json, allow: route.allow)
      } catch {
        return Self.damaged(error, reply: reply)
      }
    case .home:
      return reply.homePage()
    }
  }

  /// A 500 for a record that cannot be read (a damaged catalogue file): never a wrong book.
  private static func damaged(_ error: EngineError, reply: Reply) -> HTTPResponse {
    reply.detail(500, "The catalogue is damaged: \(error.description)")
  }

  private func list(
    filter: BookFilter, query: QueryString, reply: Reply, books: some BookColumns
  ) -> HTTPResponse {
    list(matches: filter.positions(in: books), query: query, reply: reply) {
      position throws(EngineError) in try books.record(at: Int(position))
    }
  }

  /// A page of `matches` (the books a query found, in order), as the server paginates them.
  private func list<Match>(
    matches: [Match], query: QueryString, reply: Reply,
    record: (Match) throws(EngineError) -> BookRecord
  ) -> HTTPResponse {
    let count = matches.count
    let pages = max(1, (count + Self.pageSize - 1) / Self.pageSize)
    let requested = query.value("page").flatMap { $0.isEmpty ? nil : $0 } ?? "1"
    let page: Int
    if requested == "last" {
      page = pages
    } else {
      guard let number = PythonInt.parse(requested), number >= 1, number <= pages else {
        return reply.detail(404, "Invalid page.")
      }
      page = number
    }
    let start = (page - 1) * Self.pageSize
    let slice = matches[start..<min(count, start + Self.pageSize)]

    var json = JSONWriter(capacity: 2048 * slice.count + 256)
    json.raw(#"{"count":"#)
    json.int(count)
    json.raw(#","next":"#)
    if page < pages {
      json.string(reply.link(query.linkQuery(page: page + 1)))
    } else {
      json.raw("null")
    }
    json.raw(#","previous":"#)
    if page > 1 {
      json.string(reply.link(query.linkQuery(page: page == 2 ? nil : page - 1)))
    } else {
      json.raw("null")
    }
    json.raw(#","results":["#)
    for (offset, match) in slice.enumerated() {
      if offset > 0 { json.raw(",") }
      do {
        try record(match).write(to: &json)
      } catch {
        return Self.damaged(error, reply: reply)
      }
    }
    json.raw("]}")
    return reply.json(200, json.bytes, allow: Route.list(format: nil).allow)
  }

  /// DRF's negotiation with only a JSON renderer: no Accept, `*/*`, `application/*` or
  /// `application/json` anywhere in the list is fine.
  static func acceptsJSON(_ request: HTTPRequest) -> Bool {
    guard
      let accept = request.headers.first(where: { $0.key.lowercased() == "accept" })?.value,
      !accept.trimmingCharacters(in: .whitespaces).isEmpty
    else { return true }
    return accept.split(separator: ",").contains { range in
      let type = range.split(separator: ";").first.map(String.init) ?? ""
      let media = type.trimmingCharacters(in: .whitespaces).lowercased()
      return media == "*/*" || media == "application/*" || media == "application/json"
    }
  }
}
