import Foundation
import Gutendex
import Testing

@testable import Catalog

@Suite struct PageCacheTests {
  let query = BookQuery(languages: ["en"], sort: .popular, page: 87)

  @Test func storedPageReadsBackIdenticalWithItsFetchTime() throws {
    try withScratchDirectory { directory in
      let cache = try PageCache(databaseURL: directory.appendingPathComponent("pages.sqlite"))
      let english = try StoreFixtures.page("en__page_87")
      let japanese = try StoreFixtures.page("ja__page_1")
      let japaneseQuery = BookQuery(languages: ["ja"])
      try cache.store(english, for: query, fetchedAt: StoreFixtures.date(0))
      try cache.store(japanese, for: japaneseQuery, fetchedAt: StoreFixtures.date(1))

      let cached = try #require(try cache.page(for: query, now: StoreFixtures.date(10)))
      #expect(cached.page == english)
      #expect(cached.page.next == english.next)
      #expect(cached.fetchedAt == StoreFixtures.date(0))
      #expect(
        cached.page.results.map(\.rawJSON) == english.results.map(\.rawJSON))
      #expect(try cache.page(for: japaneseQuery, now: StoreFixtures.date(10))?.page == japanese)
      // Another page or other filters are other entries.
      #expect(try cache.page(for: query.atPage(88), now: StoreFixtures.date(10)) == nil)
      #expect(
        try cache.page(for: BookQuery(languages: ["fr"], page: 87), now: StoreFixtures.date(10))
          == nil)
    }
  }

  @Test func storingAgainReplacesTheEntry() throws {
    try withScratchDirectory { directory in
      let cache = try PageCache(databaseURL: directory.appendingPathComponent("pages.sqlite"))
      let english = try StoreFixtures.page("en__page_87")
      let empty = BookPage(count: 0, results: [])
      try cache.store(english, for: query, fetchedAt: StoreFixtures.date(0))
      try cache.store(empty, for: query, fetchedAt: StoreFixtures.date(5))
      let cached = try #require(try cache.page(for: query, now: StoreFixtures.date(5)))
      #expect(cached.page == empty)
      #expect(cached.fetchedAt == StoreFixtures.date(5))
      #expect(try cache.info().entries == 1)
    }
  }

  @Test func entriesOlderThanMaxAgeReadAsAbsent() throws {
    try withScratchDirectory { directory in
      let cache = try PageCache(
        databaseURL: directory.appendingPathComponent("pages.sqlite"), maxAge: 60)
      try cache.store(
        StoreFixtures.page("ja__page_1"), for: query, fetchedAt: StoreFixtures.date(0))
      #expect(try cache.page(for: query, now: StoreFixtures.date(59)) != nil)
      #expect(try cache.page(for: query, now: StoreFixtures.date(60)) != nil)
      #expect(try cache.page(for: query, now: StoreFixtures.date(61)) == nil)
      // Reading does not delete: the entry is still counted until the next write.
      #expect(try cache.info().entries == 1)
    }
  }

  @Test func writesDropEntriesOlderThanMaxAge() throws {
    try withScratchDirectory { directory in
      let cache = try PageCache(
        databaseURL: directory.appendingPathComponent("pages.sqlite"), maxAge: 60)
      let page = try StoreFixtures.page("ja__page_1")
      try cache.store(page, for: query.atPage(1), fetchedAt: StoreFixtures.date(0))
      try cache.store(page, for: query.atPage(2), fetchedAt: StoreFixtures.date(30))
      try cache.store(page, for: query.atPage(3), fetchedAt: StoreFixtures.date(61))
      let info = try cache.info()
      #expect(info.entries == 2)
      #expect(info.oldest == StoreFixtures.date(30))
      #expect(try cache.page(for: query.atPage(1), now: StoreFixtures.date(0)) == nil)
      #expect(try cache.page(for: query.atPage(2), now: StoreFixtures.date(61)) != nil)
    }
  }

  @Test func writesEvictTheOldestBeyondMaxEntries() throws {
    try withScratchDirectory { directory in
      let cache = try PageCache(
        databaseURL: directory.appendingPathComponent("pages.sqlite"), maxEntries: 3)
      let page = try StoreFixtures.page("ja__page_1")
      // Stored out of time order: eviction goes by fetch time, not by insertion.
      for (pageNumber, seconds) in [(1, 10.0), (2, 50), (3, 20), (4, 40), (5, 30)] {
        try cache.store(page, for: query.atPage(pageNumber), fetchedAt: StoreFixtures.date(seconds))
      }
      let now = StoreFixtures.date(60)
      let kept = try (1...5).filter { try cache.page(for: query.atPage($0), now: now) != nil }
      #expect(kept == [2, 4, 5])
      let info = try cache.info()
      #expect(info.entries == 3)
      #expect(info.oldest == StoreFixtures.date(30))
      #expect(info.newest == StoreFixtures.date(50))
    }
  }

  @Test func infoCountsEntriesAndBodyBytesAndClearEmptiesIt() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("pages.sqlite")
      let cache = try PageCache(databaseURL: url)
      let empty = try cache.info()
      #expect(empty.entries == 0 && empty.bytes == 0)
      #expect(empty.oldest == nil && empty.newest == nil)
      #expect(empty.path == url.standardizedFileURL)

      let english = try StoreFixtures.page("en__page_87")
      try cache.store(english, for: query, fetchedAt: StoreFixtures.date(0))
      let one = try cache.info()
      // The body holds every book's raw bytes, so it is at least their total size.
      #expect(one.bytes >= english.results.reduce(0) { $0 + $1.rawJSON.count })
      try cache.store(english, for: query.atPage(2), fetchedAt: StoreFixtures.date(9))
      let two = try cache.info()
      #expect(two.entries == 2)
      #expect(two.bytes == 2 * one.bytes)
      #expect(two.oldest == StoreFixtures.date(0))
      #expect(two.newest == StoreFixtures.date(9))

      try cache.clear()
      #expect(try cache.info().entries == 0)
      #expect(try cache.page(for: query, now: StoreFixtures.date(1)) == nil)
      // A second cache on the same file sees the same (cleared) state.
      #expect(try PageCache(databaseURL: url).info().bytes == 0)
    }
  }

  @Test func unboundedMaxAgeKeepsEverything() throws {
    try withScratchDirectory { directory in
      let cache = try PageCache(
        databaseURL: directory.appendingPathComponent("pages.sqlite"), maxAge: .infinity)
      try cache.store(StoreFixtures.page("ja__page_1"), for: query, fetchedAt: .distantPast)
      try cache.store(
        StoreFixtures.page("ja__page_1"), for: query.atPage(2), fetchedAt: .distantFuture)
      #expect(try cache.info().entries == 2)
      #expect(try cache.page(for: query, now: .distantFuture)?.fetchedAt == .distantPast)
    }
  }

  @Test func bodyIsAGutendexPage() throws {
    let english = try StoreFixtures.page("en__page_87")
    let body = try PageCache.body(of: english, path: "test")
    let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    #expect(Set(object.keys) == ["count", "next", "previous", "results"])
    #expect(object["count"] as? Int == english.count)
    #expect((object["results"] as? [Any])?.count == english.results.count)
    #expect(try BookPage.decode(from: body) == english)
  }
}
