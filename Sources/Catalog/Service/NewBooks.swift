import Foundation
import Gutendex

/// The books added to the local catalogue since a date, those you are likely to want first:
/// by an author of a favourite, then in a subject or on a bookshelf of one, then the rest
/// (newest id first within each).
public struct NewBooks: Sendable, Hashable {
  /// From when: the last sync (the default), or a date the user gave.
  public enum Since: Sendable, Hashable {
    /// The start of the last sync that brought or checked anything (not one that failed).
    case lastSync
    /// What the user has not seen yet: the books added after the newest one `new` last showed
    /// (all recorded arrivals before it showed any); showing them moves that marker.
    case unseen
    /// This moment.
    case date(Date)
  }

  /// Why a book comes before the rest.
  public enum Reason: Sendable, Hashable {
    /// An author of a favourite wrote it (the name as the favourite has it).
    case author(String)
    /// It has a subject of a favourite.
    case subject(String)
    /// It is on a bookshelf of a favourite.
    case bookshelf(String)

    /// `by an author you keep: Dickens, Charles`.
    public var text: String {
      switch self {
      case .author(let name): "by an author you keep: \(name)"
      case .subject(let subject): "in a subject you keep: \(subject)"
      case .bookshelf(let shelf): "on a bookshelf you keep: \(shelf)"
      }
    }

    /// `author`, `subject` or `bookshelf` (JSON).
    public var kind: String {
      switch self {
      case .author: "author"
      case .subject: "subject"
      case .bookshelf: "bookshelf"
      }
    }

    /// The author, subject or bookshelf.
    public var value: String {
      switch self {
      case .author(let text), .subject(let text), .bookshelf(let text): text
      }
    }

    /// Its place in the order: authors, subjects, bookshelves.
    var rank: Int {
      switch self {
      case .author: 0
      case .subject: 1
      case .bookshelf: 2
      }
    }
  }

  /// One new book.
  public struct Item: Sendable, Hashable {
    /// The book as the local catalogue has it.
    public var book: Book
    /// When the sync that added it ran.
    public var added: Date
    /// The feed's release date (`2025-09-14`), when a feed refresh added it.
    public var issued: String?
    /// Why it comes first; nil for the rest.
    public var reason: Reason?

    /// An item.
    public init(book: Book, added: Date, issued: String? = nil, reason: Reason? = nil) {
      self.book = book
      self.added = added
      self.issued = issued
      self.reason = reason
    }
  }

  /// The books of this page, in order.
  public var items: [Item]
  /// How many books are new in all (``items`` may be the first page of them).
  public var total: Int
  /// How many of them are by an author you keep.
  public var byAuthorsYouKeep: Int
  /// How many are in a subject or on a bookshelf you keep (and not by such an author).
  public var inSubjectsYouKeep: Int
  /// The moment they were added after (or at).
  public var since: Date
  /// Whether ``since`` is the last sync's start (not a date the user gave).
  public var sinceLastSync: Bool
  /// Whether the local catalogue ever synced (if not, nothing can be new).
  public var hasSynced: Bool
  /// Whether these are the books new to the user (``Since/unseen``): ``since`` is then when
  /// the newest book `new` showed before was added.
  public var unseen = false
  /// When the newest book counted was added (what showing them marks as seen).
  public var newestAdded: Date?
  /// Why the local catalogue could not be read (a damaged state file or index), when it could
  /// not: then nothing is listed, and the next sync rebuilds it.
  public var damage: String?

  /// A list.
  public init(
    items: [Item], total: Int? = nil, byAuthorsYouKeep: Int? = nil,
    inSubjectsYouKeep: Int? = nil, since: Date, sinceLastSync: Bool, hasSynced: Bool,
    damage: String? = nil
  ) {
    self.items = items
    self.total = total ?? items.count
    self.byAuthorsYouKeep = byAuthorsYouKeep ?? items.count { $0.reason?.rank == 0 }
    self.inSubjectsYouKeep = inSubjectsYouKeep ?? items.count { ($0.reason?.rank ?? 0) > 0 }
    self.since = since
    self.sinceLastSync = sinceLastSync
    self.hasSynced = hasSynced
    self.damage = damage
  }

  /// What a book is ranked by: its authors' names, subjects and bookshelves.
  struct Facets {
    var id: Int
    var authors: [String]
    var subjects: [String]
    var bookshelves: [String]
  }

  /// What `favorites` hold, to give each new book its reason: by an author you keep, then a
  /// subject, then a bookshelf.
  struct Ranker {
    private var authors: [String: String] = [:]
    private var subjects = Set<String>()
    private var shelves = Set<String>()

    init(favorites: [Book]) {
      for book in favorites {
        for author in book.authors where !author.name.isEmpty {
          authors[NewBooks.key(author.name)] = authors[NewBooks.key(author.name)] ?? author.name
        }
        subjects.formUnion(book.subjects)
        shelves.formUnion(book.bookshelves)
      }
    }

    /// Why `book` comes first, nil when nothing you keep is in it.
    func reason(_ book: Facets) -> Reason? {
      if let name = book.authors.lazy.compactMap({ authors[NewBooks.key($0)] }).first {
        return .author(name)
      } else if let subject = book.subjects.first(where: subjects.contains) {
        return .subject(subject)
      } else if let shelf = book.bookshelves.first(where: shelves.contains) {
        return .bookshelf(shelf)
      }
      return nil
    }
  }

  /// The order of `books` (indexes into it) with each one's reason, from what `favorites` hold:
  /// by an author you keep, then a subject, then a bookshelf, then the rest; newest id first
  /// within each.
  static func ranked(_ books: [Facets], favorites: [Book]) -> [(index: Int, reason: Reason?)] {
    let ranker = Ranker(favorites: favorites)
    let reasoned = books.enumerated().map { index, book -> (index: Int, reason: Reason?) in
      (index, ranker.reason(book))
    }
    return reasoned.sorted {
      let left = $0.reason?.rank ?? 3
      let right = $1.reason?.rank ?? 3
      return left != right ? left < right : books[$0.index].id > books[$1.index].id
    }
  }

  /// An author's name as compared: case and surrounding blanks do not count.
  static func key(_ name: String) -> String {
    name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }
}
