import Gutendex

/// One book as a line of a listing: its number on screen, favourite mark, title, first author,
/// languages and downloads.
package struct BookRow: Sendable, Hashable {
  /// The number the user types to pick this book (1-based, on this screen).
  package var number: Int
  /// The Project Gutenberg number.
  package var id: Int
  /// The title as the server sent it (sanitised when rendered).
  package var title: String
  /// Whether the book is a favourite (shown as `*`).
  package var isFavorite: Bool
  /// The first author, if any.
  package var author: Person?
  /// How many more authors the book has after ``author``.
  package var extraAuthorCount: Int
  /// Language codes.
  package var languages: [String]
  /// Recent downloads.
  package var downloadCount: Int
  /// `Text`, `Sound`, `Image`...; anything but text is shown before the title (`[Sound]`).
  package var mediaType: String

  /// A row from its parts.
  package init(
    number: Int, id: Int, title: String, isFavorite: Bool = false, author: Person? = nil,
    extraAuthorCount: Int = 0, languages: [String] = [], downloadCount: Int = 0,
    mediaType: String = "Text"
  ) {
    self.number = number
    self.id = id
    self.title = title
    self.isFavorite = isFavorite
    self.author = author
    self.extraAuthorCount = extraAuthorCount
    self.languages = languages
    self.downloadCount = downloadCount
    self.mediaType = mediaType
  }

  /// The row for `book`, shown as number `number`.
  package init(number: Int, book: Book, isFavorite: Bool = false) {
    self.init(
      number: number, id: book.id, title: book.title, isFavorite: isFavorite,
      author: book.authors.first, extraAuthorCount: max(0, book.authors.count - 1),
      languages: book.languages, downloadCount: book.downloadCount, mediaType: book.mediaType)
  }

  /// The sanitised title, or `(untitled)` when the server sent none, after `[Sound]` (or
  /// another media type) for anything but text, where cutting the title cannot hide it.
  var displayTitle: String {
    var clean = Sanitizer.title(title)
    if clean.isEmpty { clean = "(untitled)" }
    let media = Sanitizer.sanitize(mediaType)
    return media.isEmpty || media == "Text" ? clean : "[\(media)] \(clean)"
  }

  /// `Dickens, Charles (1812–1870) +2`, sanitised; ``noAuthor`` when there is none.
  var authorText: String {
    guard let author else { return Self.noAuthor }
    let text = TextFormat.person(
      name: author.name, birth: author.birthYear, death: author.deathYear)
    return extraAuthorCount > 0 ? "\(text) +\(extraAuthorCount)" : text
  }

  /// `Dickens, Charles +2`: ``authorText`` without the years, for narrow columns.
  var shortAuthorText: String {
    guard let author else { return Self.noAuthor }
    let text = TextFormat.person(name: author.name, birth: nil, death: nil)
    return extraAuthorCount > 0 ? "\(text) +\(extraAuthorCount)" : text
  }

  /// What the author column says for a book with no author (*Beowulf*), dimmed like names.
  static let noAuthor = "unknown author"

  /// `en,fr`, sanitised.
  var languageText: String {
    Sanitizer.sanitize(languages.joined(separator: ","))
  }
}
