import Catalog
import Foundation
import Gutendex

/// Turns view-model state into the plain screen structs the renderers draw.
enum ScreenMapping {
  static func browse(_ state: BrowserViewModel.State, now: Date)
    -> BrowseScreen
  {
    BrowseScreen(
      query: BrowseScreen.summary(of: state.query), page: state.page,
      pageCount: state.pageCount ?? 1, totalCount: state.totalCount ?? 0,
      provenance: state.load.provenance ?? .network, now: now,
      rows: state.items.enumerated().map { index, item in
        BookRow(number: index + 1, book: item.book, isFavorite: item.isFavorite)
      })
  }

  static func rows(_ page: BookPage, offset: Int) -> [BookRow] {
    page.results.enumerated().map { index, book in
      BookRow(number: offset + index + 1, book: book)
    }
  }

  static func details(_ state: BookDetailViewModel.State, now: Date) -> DetailScreen? {
    guard let book = state.book else { return nil }
    return DetailScreen(
      book: book, isFavorite: state.isFavorite, summaryNeedsNetwork: state.summaryNeedsNetwork,
      provenance: state.load.provenance ?? .network, now: now)
  }

  static func favorites(_ state: FavoritesViewModel.State, timeZone: TimeZone = .current)
    -> FavoritesScreen
  {
    FavoritesScreen(
      order: state.order,
      rows: favoriteRows(state.favorites), timeZone: timeZone, notice: state.notice,
      totalCount: state.count, page: state.page,
      pageCount: state.pageCount)
  }

  static func favoriteRows(_ favorites: [Favorite]) -> [FavoritesScreen.Row] {
    favorites.enumerated().map { index, favorite in
      FavoritesScreen.Row(
        book: BookRow(number: index + 1, book: favorite.book, isFavorite: true),
        addedAt: favorite.addedAt, isMissingOnServer: favorite.missingOnServer)
    }
  }

  static func status(
    _ state: StatusViewModel.State, page: Provenance?, now: Date, timeZone: TimeZone = .current
  ) -> StatusScreen {
    let reachability: StatusScreen.Reachability
    switch (state.serverAnswers, state.checkedAt) {
    case (true?, let checked?):
      reachability = .reachable(checkedAgo: max(0, now.timeIntervalSince(checked)))
    case (false?, let checked?):
      var reason: String?
      if case .offline(let text, _) = state.network { reason = text }
      reachability = .unreachable(
        checkedAgo: max(0, now.timeIntervalSince(checked)), reason: reason)
    default:
      reachability = .unknown
    }
    let requests = state.requests.map { entry in
      StatusScreen.Request(
        startedAt: entry.date, target: entry.url,
        // A cache or local lookup has no HTTP status: it must not pass for a server's 200.
        outcome: entry.error.map { .failure($0) } ?? entry.status.map { .status($0) } ?? .served,
        durationMilliseconds: Int(entry.duration / .milliseconds(1)),
        origin: entry.origin)
    }
    // Before any page is shown, say where the next one would come from.
    let local = PageSource.local(name: state.localCatalogue ?? "local catalogue")
    var current = page ?? .network
    if state.mode == .localOnly || (page == nil && state.sync?.localFirst == true) {
      current = Provenance(local)
    } else if state.network.isOffline, current.source == .network {
      current = Provenance(local, fallbackReason: Self.offlineReason(state.network))
    }
    return StatusScreen(
      serverURL: state.server.redacted, reachability: reachability, provenance: current,
      now: now,
      favoriteCount: state.favoritesCount ?? 0,
      favoritesRefreshedAgo: state.favoritesRefreshed.map { max(0, now.timeIntervalSince($0)) },
      cachedPageCount: state.cache?.entries ?? 0, cacheBytes: state.cache?.bytes ?? 0,
      oldestCachedAge: state.cache?.oldest.map { max(0, now.timeIntervalSince($0)) },
      requests: requests, timeZone: timeZone, sync: state.sync)
  }
}

extension ScreenMapping {
  /// Why the network is considered down, for a fallback's provenance.
  static func offlineReason(_ network: NetworkState) -> String {
    switch network {
    case .offline(let reason, _): reason
    case .simulatedOffline: "simulated offline"
    default: "offline"
    }
  }
}

extension GutenbergApp {
  /// One page of a listing: aligned rows on a terminal, tab-separated rows in a pipe, or JSON.
  func printPage(
    _ loaded: LoadedPage, format: ListFormat, rowOffset: Int, isFirst: Bool, isLast: Bool
  ) {
    switch format {
    case .json:
      var parts = [
        "\"count\":\(loaded.page.count)", "\"page\":\(loaded.query.page)",
        "\"page_count\":\(loaded.page.pageCount)",
        "\"source\":\"\(Self.sourceName(loaded.source))\"",
      ]
      let books = loaded.page.results.map { String(decoding: $0.rawJSON, as: UTF8.self) }
      parts.append("\"results\":[" + books.joined(separator: ",") + "]")
      output.print("{" + parts.joined(separator: ",") + "}")
    case .automatic where output.isTerminal:
      if isFirst {
        let header =
          "\(BrowseScreen.summary(of: loaded.query)) · page \(loaded.query.page) of "
          + "\(TextFormat.grouped(loaded.page.pageCount)) · "
          + TextFormat.plural(loaded.page.count, "book")
        output.print(output.style.bold(DisplayWidth.truncate(header, toCells: output.width)))
      }
      output.print(
        BookTable.lines(
          rows: ScreenMapping.rows(loaded.page, offset: rowOffset),
          marks: loaded.page.results.map { _ in " " }, extra: [], width: output.width,
          style: output.style))
    case .automatic:
      output.print(TSVRenderer.lines(loaded.page.results))
    }
  }

  static func sourceName(_ source: Catalog.PageSource) -> String {
    switch source {
    case .network: "network"
    case .cache: "cache"
    // A synced catalogue is the local one; before any sync it is the embedded snapshot.
    case .local(let name): name.hasPrefix(LocalCatalogue.embeddedNamePrefix) ? "embedded" : "local"
    case .favorite: "favorite"
    }
  }

  func sourceNote(_ provenance: Provenance) -> String {
    ProvenanceText.banner(provenance, now: Date()) ?? "offline"
  }

  func detailScreenLines(_ state: BookDetailViewModel.State) async -> [String] {
    guard var screen = ScreenMapping.details(state, now: Date()) else { return [] }
    if let id = state.book?.id { screen.downloads = await downloadLabels(id: id) }
    // `gutenberg show` ends when it has printed: there are no keys to press, so no footer;
    // where the book came from is a note on standard error (`show` prints it), as for `list`.
    screen.hints = []
    screen.provenance = .network
    return screen.lines(width: output.isTerminal ? output.width : 100, style: output.style)
  }

  func favoriteListLines(_ favorites: [Favorite]) -> [String] {
    if output.isTerminal {
      return FavoritesScreen(
        order: .newest, rows: ScreenMapping.favoriteRows(favorites), hints: [],
        emptyText: FavoritesScreen.commandLineEmptyText
      ).lines(width: output.width, style: output.style)
    }
    return favorites.map(Self.favoriteTSVLine)
  }

  /// A favourite's row in a pipe: the book's TSV fields and when it was added.
  nonisolated static func favoriteTSVLine(_ favorite: Favorite) -> String {
    TSVRenderer.line(favorite.book) + "\t" + iso8601(favorite.addedAt)
  }

  func cacheInfoLines(_ info: CacheInfo) -> [String] {
    let now = Date()
    var lines = [
      "cache: \(TextFormat.plural(info.entries, "page")), \(TextFormat.bytes(info.bytes))",
      "file: \(info.path.path)",
    ]
    if let oldest = info.oldest {
      lines.append("oldest: \(TextFormat.age(max(0, now.timeIntervalSince(oldest))))")
    }
    if let newest = info.newest {
      lines.append("newest: \(TextFormat.age(max(0, now.timeIntervalSince(newest))))")
    }
    return lines
  }

  func statusScreenLines(_ state: StatusViewModel.State) -> [String] {
    var screen = ScreenMapping.status(state, page: nil, now: Date())
    // `gutenberg status` is a one-shot command: the browser's keys would mean nothing here.
    screen.hints = []
    return screen.lines(width: output.isTerminal ? output.width : 100, style: output.style)
  }
}
