import Catalog
import Foundation
import Gutendex

@testable import Terminal

/// Books and screens whose every text field tries to attack the terminal.
enum HostileData {
  /// Escape sequences, C0 and C1 controls, bidi overrides and invisibles in one string.
  static let poison =
    "Evil\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{9D}0;t\u{9C}\t\n\r\u{202E}desrever\u{202C}"
    + "\u{2066}\u{2069}\u{200E}\u{200F}\u{061C}\u{FEFF}\u{200B}\u{AD}\u{0}\u{7F}\u{85}\u{97}"
    + " \u{1B}P$q\u{1B}\\ 红楼梦 Война كتاب"

  static func person(_ suffix: String) -> Person {
    Person(name: poison + suffix, birthYear: -750, deathYear: nil)
  }

  static let book = Book(
    id: 666, title: poison + " title " + String(repeating: "long ", count: 60),
    authors: [person("a1"), person("a2")], summaries: [poison + " summary"],
    editors: [person("e")], translators: [person("t")], subjects: [poison + " subject"],
    bookshelves: [poison + " shelf"], languages: [poison, "en"], copyright: nil,
    mediaType: poison, formats: ["text/html" + poison: "https://x.example/" + poison],
    downloadCount: 1_234_567)

  static func rows() -> [BookRow] {
    [
      BookRow(number: 1, book: book, isFavorite: true),
      BookRow(number: 2, id: 7, title: poison, author: person("x"), languages: [poison]),
    ]
  }

  static var screens: [(name: String, screen: any LineRendering)] {
    let now = Date(timeIntervalSince1970: 1_795_242_600)
    let favorites = rows().map {
      FavoritesScreen.Row(book: $0, addedAt: now, isMissingOnServer: true)
    }
    return [
      (
        "browse",
        BrowseScreen(
          query: poison, page: 1, pageCount: 2, totalCount: 40,
          provenance: Provenance(.local(name: poison), fallbackReason: poison), rows: rows(),
          hints: [poison])
      ),
      (
        "browse-cache",
        BrowseScreen(
          query: poison, page: 1, pageCount: 1, totalCount: 0,
          provenance: Provenance(.cache(fetchedAt: now.addingTimeInterval(-90))), now: now, rows: []
        )
      ),
      (
        "details",
        DetailScreen(
          book: book, isFavorite: true,
          provenance: Provenance(.local(name: poison), fallbackReason: poison))
      ),
      ("links", LinksScreen(book: book)),
      (
        "favorites",
        FavoritesScreen(order: .author, rows: favorites, notice: poison)
      ),
      (
        "status",
        StatusScreen(
          serverURL: "https://example.org/" + poison,
          reachability: .unreachable(checkedAgo: 10, reason: poison),
          provenance: Provenance(
            .cache(fetchedAt: now.addingTimeInterval(-7)), fallbackReason: poison),
          now: now,
          favoriteCount: 2, favoritesRefreshedAgo: nil, cachedPageCount: 1, cacheBytes: 10,
          oldestCachedAge: nil,
          requests: [
            .init(
              startedAt: now, target: poison, outcome: .failure(poison), durationMilliseconds: 3,
              origin: .local)
          ])
      ),
      ("help", HelpScreen(entries: [.init(poison, poison), .init("x", poison)])),
      ("export", ExportConfirmation(count: 1, path: "/tmp/" + poison)),
      ("error", ErrorLine(poison)),
      ("unknown-command", ErrorLine("unknown command '\(poison)' — type ? for help")),
    ]
  }
}
