import Catalog
import Gutendex

/// What the reducer asks to be done against the catalogue; the session runs each one and
/// hands its outcome back as a ``BrowserAction``.
package enum BrowserEffect: Sendable, Hashable {
  /// The list's view model loads page `page` of the current query.
  case loadPage(Int)
  /// The list's view model runs a new query from its first page.
  case runQuery(BookQuery)
  /// The list's view model loads its page again, from the server when it can.
  case reloadList
  /// The failed state of the list's view model is cleared (its error is shown once).
  case dismissListError
  /// The favourite flags of these books are read again.
  case readFlags([Int])
  /// Flips the favourite flag of these books.
  case toggleFavorites([Book])
  /// Opens the details of `book` (already at hand, loaded as `load`).
  case openDetail(Book, LoadState)
  /// Flips the favourite flag of the book on the details screen.
  case toggleDetailFavorite
  /// Flips the favourite flag of a book shown without its details (the links screen).
  case toggleFavorite(Book)
  /// Loads the open book again.
  case reloadDetail(Int)
  /// Reads where the book was downloaded.
  case readDownloads(Int)
  /// The favourites' view model reads its list (again).
  case loadFavorites
  /// The favourites' view model goes to its page `page`.
  case favoritesPage(Int)
  /// The favourites' view model refreshes the favourites from the server.
  case refreshFavorites
  /// The favourites' view model removes its rows.
  case removeFavorites(rows: [Int])
  /// The favourites' view model orders its list.
  case favoritesOrder(FavoriteOrder)
  /// The status view model checks again (`probe`: asks the server).
  case refreshStatus
  /// Asks the catalogue what it would propose for `query`, which found `found` books.
  case suggest(BookQuery, found: Int)
  /// Writes the favourites' export (to a file name made from the date when nil).
  case export(path: String?)
  /// Merges favourites from a file.
  case importFile(String)
  /// Switches the offline simulation.
  case offline(Bool)
  /// Brings the local catalogue up to date now.
  case sync
  /// Lists what syncs added.
  case new(NewBooks.Since, all: Bool, languages: [String])
  /// Downloads `book` into the library.
  case download(Book)
  /// Opens `book` in the reader.
  case read(Book)
  /// Finds words in the library's texts.
  case grep(String)
  /// Puts `book` on an e-reader (a folder or `mail:ADDRESS`; nil: the last one used).
  case send(Book, to: String?)
}
