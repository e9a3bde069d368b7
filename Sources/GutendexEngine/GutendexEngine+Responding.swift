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
    switch route {
    case .list:
      switch listBody(filter: filter, query: query, link: reply.link) {
      case .success(let body): return reply.json(200, body, allow: route.allow)
      case .failure(.invalidPage): return reply.detail(404, "Invalid page.")
      case .failure(.damaged(let reason)): return Self.damaged(reason, reply: reply)
      }
    case .detail(let rawID, _):
      guard let id = PythonInt.parse(rawID) else { return reply.detail(404, "Not found.") }
      switch detailBody(filter: filter, id: id) {
      case .success(let body?): return reply.json(200, body, allow: route.allow)
      case .success(nil): return reply.detail(404, "No Book matches the given query.")
      case .failure(.invalidPage): return reply.detail(404, "Invalid page.")
      case .failure(.damaged(let reason)): return Self.damaged(reason, reply: reply)
      }
    case .home:
      return reply.homePage()
    }
  }

  /// The JSON of the list page `query` asks for (its `page`, else the first) of the books
  /// `filter` finds over the base and the delta, links built by `link` from a query string.
  func listBody(filter: BookFilter, query: QueryString, link: (String) -> String)
    -> Result<[UInt8], QueryFailure>
  {
    switch storage {
    case .memory(let books):
      return list(matches: filter.positions(in: books), query: query, link: link) {
        position throws(EngineError) in books.record(at: Int(position))
      }
    case .mapped(let books):
      if books.postings != nil {
        // Posting lists and the popular order: only what the page needs is read.
        let prepared = IndexedQuery(filter: filter, base: books, delta: delta, shadow: shadow)
          .prepare()
        let delta = self.delta
        return list(count: prepared.count, query: query, link: link, slice: prepared.hits) {
          hit throws(EngineError) in
          if hit.inDelta, let delta { return try delta.record(at: Int(hit.position)) }
          return try books.record(at: Int(hit.position))
        }
      }
      guard let delta else {
        return list(matches: filter.positions(in: books), query: query, link: link) {
          position throws(EngineError) in try books.record(at: Int(position))
        }
      }
      return list(matches: hits(filter, base: books, delta: delta), query: query, link: link) {
        hit throws(EngineError) in
        hit.inDelta
          ? try delta.record(at: Int(hit.position)) : try books.record(at: Int(hit.position))
      }
    }
  }

  /// The JSON of book `id` when `filter` keeps it (a delta copy first), nil when none does.
  func detailBody(filter: BookFilter, id: Int) -> Result<[UInt8]?, QueryFailure> {
    do throws(EngineError) {
      switch storage {
      case .memory(let books):
        guard let position = filter.positions(in: books, only: id).first else {
          return .success(nil)
        }
        return .success(books.record(at: Int(position)).json)
      case .mapped(let books):
        guard let delta else {
          guard let position = filter.positions(in: books, only: id).first else {
            return .success(nil)
          }
          return .success(try books.record(at: Int(position)).json)
        }
        guard let hit = hits(filter, base: books, delta: delta, only: id).first else {
          return .success(nil)
        }
        let record =
          hit.inDelta
          ? try delta.record(at: Int(hit.position)) : try books.record(at: Int(hit.position))
        return .success(record.json)
      }
    } catch {
      return .failure(.damaged(error.description))
    }
  }

  /// A 500 for a record that cannot be read (a damaged catalogue file): never a wrong book.
  private static func damaged(_ reason: String, reply: Reply) -> HTTPResponse {
    reply.detail(500, "The catalogue is damaged: \(reason)")
  }

  /// A page of `matches` (the books a query found, in order), as the server paginates them.
  private func list<Match>(
    matches: [Match], query: QueryString, link: (String) -> String,
    record: (Match) throws(EngineError) -> BookRecord
  ) -> Result<[UInt8], QueryFailure> {
    list(
      count: matches.count, query: query, link: link, slice: { Array(matches[$0]) },
      record: record)
  }

  /// A page of the `count` books a query found, those of a range given by `slice` (in order),
  /// as the server paginates them.
  private func list<Match>(
    count: Int, query: QueryString, link: (String) -> String,
    slice: (Range<Int>) -> [Match], record: (Match) throws(EngineError) -> BookRecord
  ) -> Result<[UInt8], QueryFailure> {
    let pages = max(1, (count + Self.pageSize - 1) / Self.pageSize)
    let requested = query.value("page").flatMap { $0.isEmpty ? nil : $0 } ?? "1"
    let page: Int
    if requested == "last" {
      page = pages
    } else {
      guard let number = PythonInt.parse(requested), number >= 1, number <= pages else {
        return .failure(.invalidPage)
      }
      page = number
    }
    let start = (page - 1) * Self.pageSize
    let slice = slice(start..<min(count, start + Self.pageSize))

    var json = JSONWriter(capacity: 2048 * slice.count + 256)
    json.raw(#"{"count":"#)
    json.int(count)
    json.raw(#","next":"#)
    if page < pages {
      json.string(link(query.linkQuery(page: page + 1)))
    } else {
      json.raw("null")
    }
    json.raw(#","previous":"#)
    if page > 1 {
      json.string(link(query.linkQuery(page: page == 2 ? nil : page - 1)))
    } else {
      json.raw("null")
    }
    json.raw(#","results":["#)
    for (offset, match) in slice.enumerated() {
      if offset > 0 { json.raw(",") }
      do {
        try record(match).write(to: &json)
      } catch {
        return .failure(.damaged(error.description))
      }
    }
    json.raw("]}")
    return .success(json.bytes)
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
