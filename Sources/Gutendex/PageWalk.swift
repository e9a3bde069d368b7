/// A page of a listing the walk can thin out: the books it shows.
public protocol WalkablePage: Sendable {
  /// The books of the page, in order (the walk drops those seen on an earlier page).
  var books: [Book] { get set }
}

extension BookPage: WalkablePage {
  /// The page's results.
  public var books: [Book] {
    get { results }
    set { results = newValue }
  }
}

/// The one walk over the pages of a listing, as an `AsyncSequence`: fetch a page, drop the
/// books already seen on an earlier one (the popularity order shifts while paging), go on to
/// the next, end after the last or on an empty page (the listing shrank meanwhile; an empty
/// first page is still handed out, it is the answer).
///
/// What a page is and how the next one is found are the walker's: ``BookPages`` follows the
/// server's `next` links; the model layer's walk goes page by page through its fallbacks.
public struct PageWalk<Cursor: Sendable, Page: WalkablePage, Failure: Error>: AsyncSequence,
  Sendable
{
  /// Each element is one page, without the books seen before.
  public typealias Element = Page

  let start: Cursor
  let fetch: @Sendable (Cursor) async throws(Failure) -> Page
  let advance: @Sendable (Page, Cursor) -> Cursor?

  /// A walk from `start`, fetching each page with `fetch` and finding the next with `advance`
  /// (nil: this page is the last).
  public init(
    from start: Cursor, fetch: @escaping @Sendable (Cursor) async throws(Failure) -> Page,
    advance: @escaping @Sendable (Page, Cursor) -> Cursor?
  ) {
    self.start = start
    self.fetch = fetch
    self.advance = advance
  }

  /// An iterator from the first page.
  public func makeAsyncIterator() -> Iterator {
    Iterator(cursor: start, fetch: fetch, advance: advance)
  }

  /// Fetches one page after another.
  public struct Iterator: AsyncIteratorProtocol {
    var cursor: Cursor?
    let fetch: @Sendable (Cursor) async throws(Failure) -> Page
    let advance: @Sendable (Page, Cursor) -> Cursor?
    var seen: Set<Int> = []
    var isFirst = true

    /// The next page (without books seen before), nil after the last.
    public mutating func next() async throws(Failure) -> Page? {
      guard let current = cursor else { return nil }
      cursor = nil
      var page = try await fetch(current)
      defer { isFirst = false }
      if page.books.isEmpty { return isFirst ? page : nil }
      page.books.removeAll { !seen.insert($0.id).inserted }
      cursor = advance(page, current)
      return page
    }
  }
}
