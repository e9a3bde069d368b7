import Foundation
import Gutendex
import Synchronization
import TestSupport

@testable import Catalog
@testable import Terminal

/// The app as users run it, for the captures in `Screens/`: the real interactive session and
/// view models over a real `CatalogService` with real SQLite stores in a scratch directory, the
/// real embedded catalogue as the last fallback, and the shared Gutendex double: the engine over
/// every recorded book, with the recorded listing pages answered as gutendex.com answered them
/// (``RecordedGutendex``, which `EndToEndTests/CaptureBinaryTests` serves to the binary).
/// Only the clock, the time zone and the width are fixed, so a capture is the same everywhere.
@MainActor
final class CaptureApp {
  /// Text written to standard output, at a fixed width, without colour.
  final class Screen: Sendable {
    private let text = Mutex("")
    let width: Int
    /// The window's height, for the captures of a short window; nil: no height (a page is
    /// never cut to one).
    let height: Int?

    init(width: Int, height: Int? = nil) {
      self.width = width
      self.height = height
    }

    var out: String { text.withLock { $0 } }

    func output() -> TerminalOutput {
      let write: @Sendable (String) -> Void = { line in self.text.withLock { $0 += line } }
      guard let height else {
        return TerminalOutput(
          isTerminal: true, errorIsTerminal: false, style: .plain, width: width,
          writeOut: write, writeErr: { _ in })
      }
      let size = (width: width, height: height)
      return TerminalOutput(
        isTerminal: true, errorIsTerminal: false, style: .plain, windowSize: { size },
        writeOut: write, writeErr: { _ in })
    }
  }

  /// A clock the captures move by hand.
  final class Clock: Sendable {
    private let current = Mutex(SampleScreens.now)
    var now: Date { current.withLock { $0 } }
    func set(_ date: Date) { current.withLock { $0 = date } }
  }

  let directory: URL
  let server: GutendexDouble
  let clock = Clock()
  let favorites: FavoritesStore
  let service: CatalogService
  let screen: Screen
  let session: InteractiveSession
  /// The app whose book actions the session uses, once ``attachBookActions()`` made it.
  private(set) var app: AppContext?

  /// `syncedCatalogue`: the local catalogue is the data directory's (embedded plus synced
  /// books, what `sync` writes) instead of the embedded snapshot alone.
  init(
    width: Int = 100, height: Int? = nil, query: BookQuery = BookQuery(),
    mode: CatalogService.Mode = .automatic, syncedCatalogue: Bool = false
  ) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-capture-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    server = try RecordedGutendex.server()
    favorites = try FavoritesStore(
      databaseURL: directory.appendingPathComponent("favorites.sqlite"))
    let cache = try PageCache(databaseURL: directory.appendingPathComponent("pages.sqlite"))
    let clock = self.clock
    service = CatalogService(
      client: GutendexClient(
        server: URL(string: "https://gutendex.com")!, transport: server, retry: .none),
      favorites: favorites, cache: cache,
      local: syncedCatalogue
        ? LocalCatalogue(dataDirectory: directory, policy: SyncPolicy())
        : LocalCatalogue.embedded(), mode: mode,
      now: { clock.now })
    screen = Screen(width: width, height: height)
    session = InteractiveSession(
      service: service, output: screen.output(), query: query, prefetch: false,
      now: { clock.now }, timeZone: SampleScreens.utc)
    // The browser's "did you mean", as `BrowseRunner` gives it.
    session.suggest = { [service] query, found in
      await service.suggestions(for: query, found: found)
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  /// What starting the browser prints.
  func start() async -> String {
    await printed { await session.start() }
  }

  /// What one line typed at the prompt prints.
  func type(_ line: String) async -> String {
    await printed { _ = await session.handle(line) }
  }

  /// Gives the session the app's own book actions (download, read, and the details screen's
  /// `Downloaded:` lines), from an `AppContext` over the same data directory.
  func attachBookActions() async throws {
    let options = AppOptions(
      dataDirectory: directory.path, source: .embedded, color: .never, environment: [:])
    let app = try await AppContext(options: options, output: screen.output())
    session.bookActions = BrowseRunner(context: app).bookActions(
      input: OneShotOutputTests.Lines([]))
    self.app = app
  }

  /// Saves these recorded books as favourites through the service, as `f N` would.
  func favorite(_ books: [Book]) async throws {
    for book in books where !(try await service.isFavorite(book.id)) {
      _ = try await service.toggleFavorite(book)
    }
  }

  private func printed(_ body: () async -> Void) async -> String {
    let before = screen.out.count
    await body()
    return String(screen.out.dropFirst(before))
  }
}
