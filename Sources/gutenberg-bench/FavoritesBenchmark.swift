import Catalog
import Foundation
import GRDB
import Gutendex
import Terminal

#if canImport(Glibc)
  import Glibc
#endif

/// Figure 5: favourites at 10,000 books: the first screen, export, one durable toggle.
@MainActor
enum FavoritesBenchmark {
  static let favoriteCount = 10_000

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    Report.progress("figure 5: favourites, adding \(favoriteCount) books")
    let ids = context.engine.bookIDs
    guard ids.count > favoriteCount + 10 else { throw BenchError("the catalogue is too small") }
    var books: [Book] = []
    books.reserveCapacity(favoriteCount + 10)
    for id in ids.prefix(favoriteCount + 10) {
      guard let json = context.engine.bookJSON(id: id) else { throw BenchError("no book \(id)") }
      books.append(try Book.decode(from: json))
    }
    let spare = Array(books.suffix(10))
    books.removeLast(10)

    let fullDirectory = try context.dataDirectory("favorites-full")
    let full = try await context.service(dataDirectory: fullDirectory)
    let empty = try await context.service(dataDirectory: context.dataDirectory("favorites-empty"))
    // 10,000 favourites with distinct dates, as if added over time (a date per 1,000): one
    // export document, imported through the service as a user would.
    var document = Data(#"{"format":"gutenberg-favorites","version":1,"favorites":["#.utf8)
    for (index, book) in books.enumerated() {
      let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(index / 1000 * 1000))
      if index > 0 { document.append(UInt8(ascii: ",")) }
      document.append(Data(#"{"added_at":"\#(date.ISO8601Format())","book":"#.utf8))
      document.append(book.rawJSON)
      document.append(UInt8(ascii: "}"))
    }
    document.append(Data("]}".utf8))
    _ = try await full.transfer.importFavorites(document, source: "figure 5")
    guard try await full.favoritesSummary().count == favoriteCount else {
      throw BenchError("the store does not hold \(favoriteCount) favourites")
    }

    // The first screen: `F` in the interactive session, read and drawn.
    let runs = context.count(30)
    Report.progress("figure 5: first screen, \(runs) runs each")
    let fullSink = OutputSink()
    let emptySink = OutputSink()
    let fullSession = InteractiveSession(service: full, output: fullSink.output, prefetch: false)
    let emptySession = InteractiveSession(
      service: empty, output: emptySink.output, prefetch: false)
    var screen = Samples()
    var emptyScreen = Samples()
    for run in 0...runs {
      let one = await Stopwatch.time { _ = await fullSession.handle("F") }
      let other = await Stopwatch.time { _ = await emptySession.handle("F") }
      guard fullSession.favorites.current.favorites.count == FavoritesViewModel.pageSize,
        fullSession.favorites.current.count == favoriteCount, fullSink.last.contains("10,000")
      else { throw BenchError("the favourites screen is wrong: \(fullSink.last.prefix(300))") }
      if run > 0 {
        screen.append(one)
        emptyScreen.append(other)
      }
    }

    // Export: the whole document, written atomically and durably.
    let exports = context.count(7)
    Report.progress("figure 5: export, \(exports) runs each")
    let exportFile = context.scratch.appendingPathComponent("favorites-export.json")
    var export = Samples()
    var write = Samples()
    for run in 0...exports {
      let one = try await Stopwatch.time {
        _ = try await full.transfer.exportFavorites(to: exportFile)
      }
      let bytes = try Data(contentsOf: exportFile)
      guard bytes.count > 1_000_000 else { throw BenchError("the export is too small") }
      let other = try Stopwatch.time { try writeDurably(bytes, to: exportFile.path + ".raw") }
      if run > 0 {
        export.append(one)
        write.append(other)
      }
    }

    // Toggle: add, then remove, one spare book at a time, each committed with fsync.
    let toggles = context.count(40)
    Report.progress("figure 5: toggle, \(toggles) runs each")
    let raw = try RawInsert(
      path: context.dataDirectory("favorites-raw").appendingPathComponent("raw.sqlite").path)
    var toggle = Samples()
    var insert = Samples()
    for run in 0...toggles {
      let book = spare[run % spare.count]
      var now = false
      let one = try await Stopwatch.time { now = try await full.toggleFavorite(book) }
      guard now == (run % (2 * spare.count) < spare.count) else {
        throw BenchError("toggle gave the wrong state")
      }
      let other = try Stopwatch.time { try raw.insert(id: run, json: book.rawJSON) }
      if run > 0 {
        toggle.append(one)
        insert.append(other)
      }
    }
    return [
      ResultRow(
        figure: "5. favourites 10,000: first screen (F)", unit: .seconds, samples: screen,
        baselineName: "empty store", baseline: emptyScreen, target: .atMost(0.020)),
      ResultRow(
        figure: "5. favourites 10,000: export all", unit: .seconds, samples: export,
        baselineName: "write+fsync same bytes", baseline: write, target: .atMost(0.300),
        note: String(
          format: "export document %.1f MB", try Double(Data(contentsOf: exportFile).count) / 1e6)),
      ResultRow(
        figure: "5. favourites 10,000: durable toggle", unit: .seconds, samples: toggle,
        baselineName: "raw SQLite insert", baseline: insert, target: .atMost(0.005)),
    ]
  }

  /// The export's way of writing, without the store: temporary file, fsync, rename.
  static func writeDurably(_ data: Data, to path: String) throws {
    let temporary = path + ".tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw BenchError("cannot create \(temporary)") }
    defer { close(descriptor) }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == data.count, fsync(descriptor) == 0, rename(temporary, path) == 0 else {
      throw BenchError("cannot write \(path)")
    }
    let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }
}

/// The toggle's baseline: one row inserted in its own transaction, WAL and `synchronous = FULL`
/// as the store uses, through a cached prepared statement.
struct RawInsert {
  let queue: DatabaseQueue

  init(path: String) throws {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, raw BLOB)")
    }
  }

  func insert(id: Int, json: Data) throws {
    try queue.inTransaction { db in
      let statement = try db.cachedStatement(sql: "INSERT INTO t (id, raw) VALUES (?, ?)")
      try statement.execute(arguments: [id, json])
      return .commit
    }
  }
}
