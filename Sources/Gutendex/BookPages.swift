import Foundation

/// The pages of a query as an `AsyncSequence`, following the server's `next` links.
///
/// Links are rebased onto the client's server, books already seen on an earlier page are
/// dropped (the popularity order shifts while paging), and the sequence ends on `next == nil`,
/// an empty page, or a link it has already followed (a loop guard). Cancelling the task
/// cancels the request in flight and ends the sequence with ``GutendexError/cancelled(url:)``.
public struct BookPages: AsyncSequence, Sendable {
  /// Each element is one page of the list.
  public typealias Element = BookPage

  /// The client the pages are fetched with.
  public let client: GutendexClient
  /// The list to page through.
  public let query: BookQuery

  /// The pages of `query`, fetched with `client` as they are iterated.
  public init(client: GutendexClient, query: BookQuery) {
    self.client = client
    self.query = query
  }

  /// An iterator starting at the query's page.
  public func makeAsyncIterator() -> Iterator {
    Iterator(client: client, query: query)
  }

  /// What identifies a page request for the loop guard: the path and the decoded parameters in
  /// sorted order, `page=1` dropped, so a link the server spells differently (`+` for `%20`,
  /// another parameter order, an explicit first page) still counts as already followed.
  static func loopKey(_ url: URL) -> String {
    let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
    func decode(_ text: Substring) -> String {
      let spaced = text.replacingOccurrences(of: "+", with: " ")
      return spaced.removingPercentEncoding ?? spaced
    }
    var pairs: [(name: String, value: String)] = []
    for item in query.split(separator: "&") {
      let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = decode(parts[0])
      let value = parts.count > 1 ? decode(parts[1]) : ""
      if name == "page", value == "1" || value.isEmpty { continue }
      pairs.append((name, value))
    }
    pairs.sort { ($0.name, $0.value) < ($1.name, $1.value) }
    return url.path + "?" + BookQuery.encode(pairs)
  }

  /// Where the walk is: the request to send, and every link followed so far (the loop guard).
  struct Cursor: Sendable {
    var endpoint: Endpoint<BookPage>
    var followed: Set<String>
  }

  /// The pages, one after another, through ``PageWalk`` (the one paginator).
  public struct Iterator: AsyncIteratorProtocol {
    var walk: PageWalk<Cursor, BookPage, GutendexError>.Iterator

    init(client: GutendexClient, query: BookQuery) {
      let walk = PageWalk<Cursor, BookPage, GutendexError>(
        from: Cursor(endpoint: .books(query), followed: []),
        fetch: { cursor throws(GutendexError) in
          let url = try client.url(for: cursor.endpoint.target)
          if Task.isCancelled { throw .cancelled(url: url) }
          return try await client.send(cursor.endpoint)
        },
        advance: { page, cursor in
          guard let current = try? client.url(for: cursor.endpoint.target), let next = page.next,
            let nextURL = try? client.url(for: Endpoint<BookPage>.link(next).target)
          else { return nil }
          var followed = cursor.followed
          followed.insert(BookPages.loopKey(current))
          guard !followed.contains(BookPages.loopKey(nextURL)) else { return nil }
          return Cursor(endpoint: .link(next), followed: followed)
        })
      self.walk = walk.makeAsyncIterator()
    }

    /// The next page, nil after the last (or on a repeated or empty page).
    public mutating func next() async throws(GutendexError) -> BookPage? {
      try await walk.next()
    }
  }
}

/// Every book of a query, in order, each id once: ``BookPages`` flattened.
public struct BookStream: AsyncSequence, Sendable {
  /// Each element is one book.
  public typealias Element = Book

  /// The pages the books come from.
  public let pages: BookPages

  /// An iterator over the books of every page, in order.
  public func makeAsyncIterator() -> Iterator {
    Iterator(pages: pages.makeAsyncIterator())
  }

  /// Hands out the books of one page, then fetches the next.
  public struct Iterator: AsyncIteratorProtocol {
    var pages: BookPages.Iterator
    var buffer: [Book] = []
    var index = 0

    /// The next book not seen before, nil after the last page.
    public mutating func next() async throws(GutendexError) -> Book? {
      while index == buffer.count {
        guard let page = try await pages.next() else { return nil }
        buffer = page.results
        index = 0
      }
      defer { index += 1 }
      return buffer[index]
    }
  }
}
