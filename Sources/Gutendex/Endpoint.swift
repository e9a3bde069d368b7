import Foundation

/// A request to a Gutendex server, typed by what its answer decodes to.
public struct Endpoint<Response: Sendable>: Sendable {
  /// Where the request goes.
  public enum Target: Sendable, Hashable {
    /// A path below the server's base URL (with its trailing slash) and a query string.
    case path(String, query: String)
    /// A link the server gave (a `next` URL); its query is kept, its host is rebased.
    case link(String)
  }

  /// What to ask for: a list, one book or a server-given link.
  public var target: Target
  let decode: @Sendable (Data) throws(BookDecodingError) -> Response

  /// An endpoint for `target`, decoding its answer with `decode`.
  public init(
    target: Target, decode: @escaping @Sendable (Data) throws(BookDecodingError) -> Response
  ) {
    self.target = target
    self.decode = decode
  }
}

extension Endpoint where Response == BookPage {
  /// `/books/?…`: one page of books matching `query`.
  public static func books(_ query: BookQuery) -> Endpoint<BookPage> {
    Endpoint(target: .path("books/", query: query.encoded), decode: BookPage.decode(from:))
  }

  /// The page behind a `next`/`previous` link the server sent.
  public static func link(_ url: String) -> Endpoint<BookPage> {
    Endpoint(target: .link(url), decode: BookPage.decode(from:))
  }

  /// This endpoint, with books that cannot be read left out of the page and named in its
  /// ``BookPage/skipped`` (for a sync, which keeps the rest of the page).
  public var skippingBadBooks: Endpoint<BookPage> {
    Endpoint(target: target, decode: BookPage.decodeSkippingBadBooks(from:))
  }
}

extension Endpoint where Response == Book {
  /// `/books/<id>/`: one book.
  public static func book(id: Int) -> Endpoint<Book> {
    Endpoint(
      target: .path("books/\(id)/", query: ""),
      decode: { data throws(BookDecodingError) in
        try Book.decode(from: data)
      })
  }
}
