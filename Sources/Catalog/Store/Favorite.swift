import Foundation
import Gutendex

/// A favourite book: the snapshot last seen from the server, and when it was added and refreshed.
public struct Favorite: Sendable, Hashable, Identifiable {
  /// The full book, decoded from the server's JSON as stored (``Book/rawJSON``).
  public var book: Book
  /// When the user added it (kept across re-adds, refreshes and imports).
  public var addedAt: Date
  /// The last successful refresh from the server; nil if never refreshed.
  public var refreshedAt: Date?
  /// The server did not return this book on the last refresh (it is kept anyway).
  public var missingOnServer: Bool
  /// The Project Gutenberg number.
  public var id: Int { book.id }

  /// Makes a favourite (the store makes these; tests and previews may too).
  public init(book: Book, addedAt: Date, refreshedAt: Date? = nil, missingOnServer: Bool = false) {
    self.book = book
    self.addedAt = addedAt
    self.refreshedAt = refreshedAt
    self.missingOnServer = missingOnServer
  }
}
