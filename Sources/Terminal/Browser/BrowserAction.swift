import Catalog
import Gutendex

/// What can change the browser's state: a command typed, an answer from the catalogue (a view
/// model's new state, an effect's outcome), a change made elsewhere, the window's new size.
package enum BrowserAction: Sendable {
  /// A line typed at the prompt, understood.
  case command(PromptCommand)
  /// The catalogue list's view model published a state.
  case catalogue(BrowserViewModel.State)
  /// The favourites' view model published a state.
  case favorites(FavoritesViewModel.State)
  /// The status view model published a state.
  case status(StatusViewModel.State)
  /// The open book's view model published a state.
  case detail(BookDetailViewModel.State)
  /// The downloads of the book with this id, read for its details screen.
  case downloads(id: Int, paths: [String], progress: String? = nil)
  /// The favourite flags of books held by the list, read again (by id).
  case flags([Int: Bool])
  /// The favourites changed in the store (this process or another).
  case favoritesChanged
  /// What the catalogue proposes for `query` (nil: nothing).
  case suggested(SearchSuggestion?, for: BookQuery)
  /// What `new` found.
  case newBooks(NewBooks)
  /// A command's outcome in words.
  case said(String)
  /// A command failed, in words.
  case failed(String)
  /// The window changed size.
  case resized(WindowSize)
  /// Something was printed over the screen (the reader, a download): draw it again.
  case redraw
  /// The notices were shown, and the screen drawn as `layout` says (nil: it was not drawn).
  case drawn(DrawnLayout?)
}
