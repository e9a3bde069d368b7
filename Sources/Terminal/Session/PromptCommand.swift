import Catalog
import Gutendex

/// One line typed at the interactive prompt, understood.
package enum PromptCommand: Sendable, Hashable {
  case next
  /// Enter on an empty line: the next screenful of the list; on a screen taller than the
  /// window, the rest of it, then back to the list.
  case more
  case previous
  case goTo(page: Int)
  /// Open the details of a row of the list on screen.
  case details(row: Int)
  case toggleFavorites(rows: [Int])
  case favorites
  /// Remove favourites by row (favourites screen).
  case removeFavorites(rows: [Int])
  /// Order the favourites screen.
  case favoritesOrder(FavoriteOrder)
  case search(String?)
  case languages([String])
  case topic(String?)
  case years(from: Int?, to: Int?)
  case copyright(Set<CopyrightStatus>)
  case sort(BookSort)
  case reset
  /// Run the search the "did you mean" line under the list proposed (`'`).
  case takeSuggestion
  case refresh
  case links(row: Int?)
  /// Download a row's book, or the book shown (`d`, `d N`).
  case download(row: Int?)
  /// Read a row's book, or the book shown, in the pager (`read`, `read N`).
  case read(row: Int?)
  /// Find words in every downloaded text (`grep WORDS`, as `gutenberg library search`).
  case grep(String)
  /// Put a row's book (or the book shown) on an e-reader (`send N DIR`, `send N mail:ADDRESS`;
  /// without a destination, the last one used).
  case send(row: Int?, to: String?)
  case offline(Bool)
  case export(path: String?)
  case importFile(path: String)
  case status
  /// Bring the local catalogue up to date now (`sync`).
  case sync
  /// The books syncs added since then, those by authors you keep first (`new [SINCE] [all]`;
  /// the first 32 unless `all`).
  case new(NewBooks.Since, all: Bool)
  case help
  /// Back to the list from another screen (`b` there, or an empty line).
  case back
  case quit
}
