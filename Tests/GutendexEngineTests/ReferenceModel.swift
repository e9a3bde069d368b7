import Foundation

/// A deliberately naive reading of the server's `get_queryset` over Foundation-parsed books,
/// to check the engine's indexed filters against (written from API.md, not from the engine);
/// `search` and `topic` compare the way PostgreSQL does (``PostgresUpper``).
struct ReferenceModel {
  struct Book {
    var id: Int
    var title: String
    var authors: [(name: String, birth: Int?, death: Int?)]
    var topics: [String]
    var languages: [String]
    var copyright: Bool?
    var mimeTypes: [String]
    var downloads: Int
  }

  var books: [Book]

  init(_ objects: [[String: Any]]) {
    books = objects.map { object in
      let authors = (object["authors"] as? [[String: Any]] ?? []).map {
        (
          name: $0["name"] as? String ?? "", birth: $0["birth_year"] as? Int,
          death: $0["death_year"] as? Int
        )
      }
      return Book(
        id: object["id"] as? Int ?? -1, title: object["title"] as? String ?? "", authors: authors,
        topics: (object["subjects"] as? [String] ?? [])
          + (object["bookshelves"] as? [String] ?? []),
        languages: object["languages"] as? [String] ?? [],
        copyright: object["copyright"] as? Bool,
        mimeTypes: Array((object["formats"] as? [String: String] ?? [:]).keys),
        downloads: object["download_count"] as? Int ?? 0)
    }
  }

  /// Python `int()` for the plain cases the table uses (whitespace, sign, digits, huge).
  static func pythonInt(_ text: String) -> Int? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let digits =
      trimmed.hasPrefix("+") || trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
      return nil
    }
    return Int(trimmed.hasPrefix("+") ? String(digits) : trimmed) ?? Int.max
  }

  /// The ids the server would list for decoded query parameters (last value wins).
  func ids(_ parameters: [String: String]) -> [Int] {
    var result = books
    if let search = parameters["search"] {
      for term in search.components(separatedBy: " ").prefix(32) {
        result = result.filter { book in
          PostgresUpper.contains(book.title, term)
            || book.authors.contains { PostgresUpper.contains($0.name, term) }
        }
      }
    }
    if let languages = parameters["languages"] {
      let codes = languages.components(separatedBy: ",").map { $0.lowercased() }
      result = result.filter { !Set($0.languages).isDisjoint(with: codes) }
    }
    if let topic = parameters["topic"] {
      result = result.filter { book in book.topics.contains { PostgresUpper.contains($0, topic) } }
    }
    if let start = parameters["author_year_start"].flatMap(Self.pythonInt) {
      result = result.filter { book in
        book.authors.contains {
          ($0.birth.map { $0 >= start } ?? false) || ($0.death.map { $0 >= start } ?? false)
        }
      }
    }
    if let end = parameters["author_year_end"].flatMap(Self.pythonInt) {
      result = result.filter { book in
        book.authors.contains {
          ($0.birth.map { $0 <= end } ?? false) || ($0.death.map { $0 <= end } ?? false)
        }
      }
    }
    if let copyright = parameters["copyright"] {
      let tokens = copyright.components(separatedBy: ",")
      result = result.filter { book in
        switch book.copyright {
        case true?: tokens.contains("true")
        case false?: tokens.contains("false")
        case nil: tokens.contains("null")
        }
      }
    }
    if let ids = parameters["ids"] {
      let parsed = ids.components(separatedBy: ",").map(Self.pythonInt)
      if parsed.allSatisfy({ $0 != nil }) {
        result = result.filter { parsed.contains($0.id) }
      }
    }
    if let mime = parameters["mime_type"] {
      result = result.filter { $0.mimeTypes.contains { $0.hasPrefix(mime) } }
    }
    switch parameters["sort"] {
    case "ascending": result.sort { $0.id < $1.id }
    case "descending": result.sort { $0.id > $1.id }
    default:
      result.sort { $0.downloads != $1.downloads ? $0.downloads > $1.downloads : $0.id < $1.id }
    }
    return result.map(\.id)
  }
}
