import Gutendex

/// Where the interactive browser is: the one navigation value of the session.
///
/// It decides what some keys mean (Enter, `b`, `f`, `sort`, row numbers), which view model the
/// session observes, and what is drawn.
package enum Screen: Sendable, Hashable {
  /// A list the user can come from: row numbers on a details or links screen mean its rows.
  package enum List: Sendable, Hashable {
    case browse, favorites
  }

  /// The catalogue page of the current query.
  case browse
  /// One book's details (the book is the details view model's), opened from `from`.
  case details(from: List)
  /// Every download link of `book`, opened from `from`.
  case links(Book, from: List)
  /// The favourites list.
  case favorites
  /// Server, source, cache and recent requests.
  case status
  /// Every command.
  case help
  /// What syncs added (`new`), opened from `from`.
  case new(from: List)

  /// The list whose rows numbers refer to on this screen.
  var list: List {
    switch self {
    case .favorites: .favorites
    case .details(let from), .links(_, let from), .new(let from): from
    default: .browse
    }
  }

  /// True on a screen about one book (details or links), where `f` and `d` mean that book.
  var showsOneBook: Bool {
    switch self {
    case .details, .links: true
    default: false
    }
  }
}
