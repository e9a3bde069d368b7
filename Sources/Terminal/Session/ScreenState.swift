import Catalog
import Gutendex

/// The state of the screen on display, as its view model published it: what the session
/// observes and draws.
enum ScreenState: Sendable, Hashable {
  case browse(BrowserViewModel.State)
  case details(BookDetailViewModel.State)
  case favorites(FavoritesViewModel.State)
  case status(StatusViewModel.State)
  /// A screen with no view model: it shows one value and never changes.
  case links(Book)
  case help

  /// The load state of the screen's view model; nil for screens that do not load.
  var load: LoadState? {
    switch self {
    case .browse(let state): state.load
    case .details(let state): state.load
    case .favorites(let state): state.load
    case .status(let state): state.load
    case .links, .help: nil
    }
  }

  /// True while there is nothing settled to draw (before the first load, or while loading).
  var isLoading: Bool {
    switch load {
    case .idle?, .loading?: true
    default: false
    }
  }

  /// The error of a failed action, shown once as an error line.
  var error: CatalogError? { load?.error }
}
