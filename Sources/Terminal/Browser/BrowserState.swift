import Catalog
import Foundation
import Gutendex

/// Everything the interactive browser shows, as one value: the screen, the catalogue list and
/// the rows on screen, the favourites, the book open, the status, what the last command said.
///
/// It changes only through ``BrowserReducer`` (one action at a time), and every screen is a
/// pure function of it and the window (``BrowserFrame``): nothing is kept in printed text.
package struct BrowserState: Sendable, Hashable {
  /// A line the last action left under the screen.
  package enum Notice: Sendable, Hashable {
    /// What a command did (`Added to favourites: …`).
    case info(String)
    /// Why a command could not be done, shown as `error: …`.
    case error(String)
    /// What the catalogue proposes for a search that found few books (`'` runs it).
    case suggestion(SearchSuggestion)
  }

  /// The screen on display.
  package var screen: Screen = .browse
  /// The window drawn into.
  package var window: WindowSize
  /// The catalogue list.
  package var list: CatalogueList
  /// A new query's list while its first page loads: it replaces ``list`` when the page comes,
  /// and is dropped if it fails (the list on screen stays, as a failed action leaves it).
  package var nextList: CatalogueList?
  /// The favourites screen's list, once it was opened.
  package var favorites: FavoritesViewModel.State?
  /// The status screen, once it was opened.
  package var status: StatusViewModel.State?
  /// The book on the details screen.
  package var detail: BookDetailViewModel.State?
  /// Where the book on the details screen was downloaded.
  package var downloads: [String] = []
  /// The last progress sync record of that book (`on Kobo: 42%, 2 h ago`), if any.
  package var progress: String?
  /// What `new` found, for its screen.
  package var newBooks: NewBooks?
  /// The first line of the body shown on a screen taller than the window.
  package var scroll = 0
  /// What the last actions said, shown under the screen once.
  package var notices: [Notice] = []
  /// The proposal the last "did you mean" line made, which `'` runs.
  package var offered: SearchSuggestion?
  /// Counts the times a command asked to see its screen again, even unchanged (`n` on the page
  /// shown, `r`, after the reader): the drawer draws when it moves.
  package var shown = 0
  /// True once `q` (or the end of input) ended the session.
  package var quit = false
  /// How the screen on display was last drawn: what `n`, `p` and Enter move by.
  package var drawn: DrawnLayout?

  /// The first page of `query`, in `window`.
  package init(query: BookQuery = BookQuery(), window: WindowSize) {
    self.window = window
    list = CatalogueList(query: query)
  }

  /// The rows of the list on screen (the catalogue's or the favourites'), as books and how they
  /// were loaded, for the commands that take a row number.
  package var shownBooks: [(book: Book, load: LoadState)] {
    if screen.list == .favorites {
      return (favorites?.favorites ?? []).map {
        ($0.book, .loaded(.favorite(savedAt: $0.refreshedAt ?? $0.addedAt)))
      }
    }
    let count = drawn?.listRows ?? BrowserFrame.listRows(self)
    return list.items(from: list.top, count: count).map {
      ($0.book, list.load)
    }
  }
}
