import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Catalog

@Suite struct FavoritesStoreTests {
  @Test func addReportsNewOnlyOnceAndKeepsAddedAtWhileUpdatingSnapshot() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let frankenstein = try StoreFixtures.book(84, in: StoreFixtures.e4())
      #expect(try store.add(frankenstein, at: StoreFixtures.date(0)))
      let renamed = try StoreFixtures.retitled(frankenstein, "Frankenstein (revised)")
      #expect(try store.add(renamed, at: StoreFixtures.date(100)) == false)
      let stored = try #require(try store.favorite(id: 84))
      #expect(stored.addedAt == StoreFixtures.date(0))
      #expect(stored.book == renamed)
      #expect(stored.book.title == "Frankenstein (revised)")
      #expect(stored.refreshedAt == nil)
      #expect(stored.missingOnServer == false)
      #expect(try store.count() == 1)
    }
  }

  @Test func favoriteReturnsTheExactServerBytes() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let books = try StoreFixtures.japanese() + StoreFixtures.english()
      for book in books { try store.add(book) }
      for book in books {
        let stored = try #require(try store.favorite(id: book.id))
        #expect(stored.book.rawJSON == book.rawJSON)
        #expect(stored.book == book)
      }
      #expect(try store.favorite(id: 999_999_999) == nil)
    }
  }

  @Test func bookWithInvalidRawJSONIsStoredFromItsFields() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      var book = Book(id: 77, title: "Made in code", authors: [Person(name: "Doe, Jane")])
      book.rawJSON = Data("not json".utf8)
      try store.add(book)
      let stored = try #require(try store.favorite(id: 77)).book
      #expect(stored.title == "Made in code")
      #expect(stored.authors == [Person(name: "Doe, Jane")])
      #expect(stored.rawJSON != book.rawJSON)
      #expect(try store.exportDocument().count > 0)
    }
  }

  @Test func removeReportsWhetherItWasAFavorite() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let books = try StoreFixtures.e4()
      try store.add(books[0])
      try store.add(books[1])
      #expect(try store.remove(id: books[0].id))
      #expect(try store.remove(id: books[0].id) == false)
      #expect(try store.isFavorite(books[0].id) == false)
      #expect(try store.isFavorite(books[1].id))
      #expect(try store.count() == 1)
    }
  }

  @Test func removeEachSaysForEveryIdInOrderWhetherItWasAFavorite() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let books = try StoreFixtures.e4()
      try store.add([books[0], books[1], books[2]])
      let ids = [books[1].id, 999_999, books[0].id, books[1].id]
      #expect(try store.remove(each: ids) == [true, false, true, false])
      #expect(try store.remove(each: []) == [])
      #expect(try store.count() == 1)
      #expect(try store.isFavorite(books[2].id))
    }
  }

  @Test func toggleFlipsAndIsVisibleToANewConnection() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("f.sqlite")
      let store = try FavoritesStore(databaseURL: url)
      let book = try StoreFixtures.book(2701, in: StoreFixtures.e4())
      #expect(try store.toggle(book, at: StoreFixtures.date(5)))
      // A second store is a separate DatabasePool: it sees only committed data.
      let other = try FavoritesStore(databaseURL: url)
      #expect(try other.isFavorite(2701))
      #expect(try other.favorite(id: 2701)?.addedAt == StoreFixtures.date(5))
      #expect(try store.toggle(book) == false)
      #expect(try other.isFavorite(2701) == false)
      #expect(try other.toggle(book))
      #expect(try store.isFavorite(2701))
    }
  }

  @Test func ordersByNewestTitleAndAuthor() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let e4 = try StoreFixtures.e4()
      // 84 Frankenstein (Shelley), 2701 Moby Dick (Melville), 1513 Romeo and Juliet
      // (Shakespeare), 1342 Pride and Prejudice (Austen); 54726 The Ladies' Paradise (Zola, Émile).
      let ids = [84, 2701, 1513, 1342]
      for (offset, id) in ids.enumerated() {
        try store.add(StoreFixtures.book(id, in: e4), at: StoreFixtures.date(Double(offset)))
      }
      let zola = try StoreFixtures.book(54726, in: StoreFixtures.english())
      try store.add(zola, at: StoreFixtures.date(10))
      let anonymous = Book(id: 7, title: "an anonymous tale")
      try store.add(anonymous, at: StoreFixtures.date(11))

      #expect(try store.favorites(order: .newest).map(\.id) == [7, 54726, 1342, 1513, 2701, 84])
      #expect(try store.favorites().map(\.id) == [7, 54726, 1342, 1513, 2701, 84])
      // Case-insensitive: "an anonymous tale" sorts before "Frankenstein".
      #expect(
        try store.favorites(order: .title).map(\.id) == [7, 84, 2701, 1342, 1513, 54726])
      // Authors by "Last, First"; the book without an author comes last.
      #expect(
        try store.favorites(order: .author).map(\.id) == [1342, 2701, 1513, 84, 54726, 7])
      #expect(try store.favorites(order: .title, limit: 2, offset: 1).map(\.id) == [84, 2701])
      #expect(try store.favorites(order: .newest, limit: 0).isEmpty)
      #expect(try store.favorites(order: .newest, offset: 5).map(\.id) == [84])
    }
  }

  /// A command's books found within one millisecond keep the order they were named in (the
  /// tie of times once fell back to the ids).
  @Test func booksAddedAtTheSameMomentKeepTheOrderNamed() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let e4 = try StoreFixtures.e4()
      let moment = StoreFixtures.date(5)
      let ids = [2701, 84, 1513, 1342]
      let added = try store.add(ids.map { (try StoreFixtures.book($0, in: e4), moment) })
      #expect(added == [true, true, true, true])
      #expect(try store.favorites(order: .newest).map(\.id) == ids.reversed())
    }
  }

  @Test func titleOrderIgnoresCaseAndAccents() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      try store.add(Book(id: 1, title: "Zebra"))
      try store.add(Book(id: 2, title: "émile"))
      try store.add(Book(id: 3, title: "Eagle"))
      try store.add(Book(id: 4, title: "frog"))
      #expect(
        try store.favorites(order: .title).map(\.book.title) == ["Eagle", "émile", "frog", "Zebra"])
    }
  }

  @Test func favoriteIDsAmongReturnsOnlyFavorites() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let books = try StoreFixtures.english()
      try store.add(Array(books.prefix(5)))
      let asked = books.map(\.id) + [1, 2, 3]
      #expect(try store.favoriteIDs(among: asked) == Set(books.prefix(5).map(\.id)))
      #expect(try store.favoriteIDs(among: []).isEmpty)
      // More ids than one SQL statement binds at once.
      let many = Array(1...2_000) + [books[0].id]
      #expect(try store.favoriteIDs(among: many) == [books[0].id])
    }
  }

  @Test func applyRefreshUpdatesSnapshotsAndMarksMissingWithoutDropping() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let e4 = try StoreFixtures.e4()
      let (a, b, c) = (e4[0], e4[1], e4[2])
      try store.add([a, b, c], at: StoreFixtures.date(0))
      #expect(try store.lastRefreshed() == nil)

      let newA = try StoreFixtures.retitled(a, "A refreshed title")
      let notAFavorite = e4[10]
      try store.applyRefresh(
        books: [newA, c, notAFavorite], missingIDs: [b.id], at: StoreFixtures.date(60))

      #expect(try store.count() == 3)
      #expect(try store.isFavorite(notAFavorite.id) == false)
      let storedA = try #require(try store.favorite(id: a.id))
      #expect(storedA.book.title == "A refreshed title")
      #expect(storedA.refreshedAt == StoreFixtures.date(60))
      #expect(storedA.missingOnServer == false)
      #expect(storedA.addedAt == StoreFixtures.date(0))
      let storedB = try #require(try store.favorite(id: b.id))
      #expect(storedB.missingOnServer)
      #expect(storedB.refreshedAt == nil)
      #expect(storedB.book == b)
      #expect(try store.lastRefreshed() == StoreFixtures.date(60))

      // The book comes back on the next refresh: no longer missing.
      try store.applyRefresh(books: [b], missingIDs: [], at: StoreFixtures.date(120))
      let back = try #require(try store.favorite(id: b.id))
      #expect(back.missingOnServer == false)
      #expect(back.refreshedAt == StoreFixtures.date(120))
      #expect(try store.lastRefreshed() == StoreFixtures.date(120))
    }
  }

  @Test func datesKeepMillisecondsAcrossReopening() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("f.sqlite")
      let date = StoreFixtures.date(0.25)
      do {
        let store = try FavoritesStore(databaseURL: url)
        try store.add(Book(id: 12, title: "Twelve"), at: date)
      }
      let reopened = try FavoritesStore(databaseURL: url)
      #expect(try reopened.favorite(id: 12)?.addedAt == date)
    }
  }

  @Test func initWithLocationCreatesPrivateDirectoriesAndTheFile() throws {
    try withScratchDirectory { directory in
      let location = StoreLocation(
        dataDirectory: directory.appendingPathComponent("a/b/data"),
        cacheDirectory: directory.appendingPathComponent("a/c/cache"))
      let store = try FavoritesStore(location: location)
      #expect(store.databaseURL == location.favoritesDatabase.standardizedFileURL)
      #expect(FileManager.default.fileExists(atPath: location.favoritesDatabase.path))
      for path in ["a", "a/b", "a/b/data"] {
        let attributes = try FileManager.default.attributesOfItem(
          atPath: directory.appendingPathComponent(path).path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(path)")
      }
      // Only the database (and SQLite's WAL companions) — no temporary leftovers.
      let names = try directoryListing(location.dataDirectory)
      #expect(names.allSatisfy { $0.hasPrefix("favorites.sqlite") }, "\(names)")
      let cache = try PageCache(location: location)
      #expect(FileManager.default.fileExists(atPath: location.cacheDatabase.path))
      #expect(try cache.info().entries == 0)
    }
  }

  /// A bulk insert in one transaction, then listing, export and import at 10,000 favourites
  /// (books without `formats`, to keep the documents small: this checks behaviour, not speed).
  @Test func tenThousandFavoritesListExportAndImport() async throws {
    // Seconds of CPU: on a thread of its own, not the pool the parallel suites share.
    try await OwnThread.run {
      try withScratchDirectory { directory in
        let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
        let templates = try StoreFixtures.english()
        let books = (1...10_000).map { number in
          let template = templates[number % templates.count]
          return Book(
            id: number, title: "Volume \(10_001 - number) \(template.title.prefix(20))",
            authors: template.authors, languages: template.languages, downloadCount: number)
        }
        #expect(try store.add(books, at: StoreFixtures.date(0)) == 10_000)
        #expect(try store.add(books, at: StoreFixtures.date(1)) == 0)
        #expect(try store.count() == 10_000)

        let byTitle = try store.favorites(order: .title)
        #expect(byTitle.count == 10_000)
        let keys = byTitle.map { FavoritesStore.sortKey($0.book.title) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(try store.favorites(order: .newest, limit: 3).map(\.id) == [10_000, 9_999, 9_998])
        #expect(try store.favoriteIDs(among: Array(9_990...10_010)) == Set(9_990...10_000))

        let document = try store.exportDocument(exportedAt: StoreFixtures.date(0))
        let parsed = try #require(
          try JSONSerialization.jsonObject(with: document) as? [String: Any])
        #expect(parsed["count"] as? Int == 10_000)
        #expect((parsed["favorites"] as? [Any])?.count == 10_000)

        let copy = try FavoritesStore(databaseURL: directory.appendingPathComponent("g.sqlite"))
        #expect(try copy.importDocument(document) == ImportSummary(added: 10_000))
        #expect(try copy.count() == 10_000)
        #expect(try copy.exportDocument(exportedAt: StoreFixtures.date(0)) == document)
        // The imported snapshot has the export's key order; the book itself is the same.
        var imported = try #require(try copy.favorite(id: 5_000)).book
        var original = try #require(try store.favorite(id: 5_000)).book
        imported.rawJSON = Data()
        original.rawJSON = Data()
        #expect(imported == original)
      }
    }
  }
}
