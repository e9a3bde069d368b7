import Catalog
import Foundation

/// The state of the connection, cache and favourites, and the last few requests: what the user
/// checks when something seems slow or stale.
package struct StatusScreen: Sendable, Hashable {
  /// Whether the server answered lately.
  package enum Reachability: Sendable, Hashable {
    /// Not checked yet.
    case unknown
    /// Answered; checked `checkedAgo` seconds ago.
    case reachable(checkedAgo: TimeInterval)
    /// Did not answer; checked `checkedAgo` seconds ago, with why.
    case unreachable(checkedAgo: TimeInterval, reason: String?)
  }

  /// One recent request.
  package struct Request: Sendable, Hashable {
    /// How a request was answered.
    package enum Outcome: Sendable, Hashable {
      /// An HTTP status.
      case status(Int)
      /// No usable answer, with a short reason.
      case failure(String)
      /// Answered without HTTP: a page from the cache or the local catalogue.
      case served
    }

    /// The HTTP method sent (`GET`, `PUT`, `POST`); nil for an answer found without a request
    /// (the page cache or the local catalogue), shown as `-`.
    package var method: String?
    /// When it was sent.
    package var startedAt: Date
    /// What was asked, e.g. `/books/?page=2`.
    package var target: String
    /// The status, or why there was none.
    package var outcome: Outcome
    /// How long it took.
    package var durationMilliseconds: Int
    /// Where the answer came from.
    package var origin: RequestLog.Entry.Origin

    /// A request line.
    package init(
      method: String? = nil, startedAt: Date, target: String, outcome: Outcome,
      durationMilliseconds: Int, origin: RequestLog.Entry.Origin
    ) {
      self.method = method
      self.startedAt = startedAt
      self.target = target
      self.outcome = outcome
      self.durationMilliseconds = durationMilliseconds
      self.origin = origin
    }
  }

  /// The Gutendex server in use.
  package var serverURL: String
  /// Whether it answered lately.
  package var reachability: Reachability
  /// Where the current page came from.
  package var provenance: Provenance
  /// The time ages are measured from.
  package var now: Date
  /// How many favourites are saved.
  package var favoriteCount: Int
  /// Seconds since the favourites were last refreshed from the server; nil: never.
  package var favoritesRefreshedAgo: TimeInterval?
  /// How many pages the local cache holds.
  package var cachedPageCount: Int
  /// The size of the local cache.
  package var cacheBytes: Int
  /// Age in seconds of the oldest cached page; nil when the cache is empty.
  package var oldestCachedAge: TimeInterval?
  /// The last few requests, newest first (as the request log gives them).
  package var requests: [Request]
  /// The time zone for request times (the user's own; fixed in tests).
  package var timeZone: TimeZone
  /// The keys shown at the bottom.
  package var hints: [String]
  /// The local catalogue and its syncs, nil without a synced catalogue.
  package var sync: SyncStatus?

  /// The keys shown under the status.
  package static let defaultHints = ["b back", "? help", "q quit"]

  /// A status screen.
  package init(
    serverURL: String, reachability: Reachability, provenance: Provenance, now: Date = Date(),
    favoriteCount: Int,
    favoritesRefreshedAgo: TimeInterval?, cachedPageCount: Int, cacheBytes: Int,
    oldestCachedAge: TimeInterval?, requests: [Request], timeZone: TimeZone = .current,
    hints: [String] = StatusScreen.defaultHints, sync: SyncStatus? = nil
  ) {
    self.sync = sync
    self.serverURL = serverURL
    self.reachability = reachability
    self.provenance = provenance
    self.now = now
    self.favoriteCount = favoriteCount
    self.favoritesRefreshedAgo = favoritesRefreshedAgo
    self.cachedPageCount = cachedPageCount
    self.cacheBytes = cacheBytes
    self.oldestCachedAge = oldestCachedAge
    self.requests = requests
    self.timeZone = timeZone
    self.hints = hints
  }
}

extension StatusScreen: LineRendering {
  /// Labelled fields, then one aligned line per recent request.
  /// The title, the figures and requests, and the keys.
  package func parts(width: Int, style: Style) -> ScreenLines {
    ScreenLines(
      lines(width: width, style: style), heading: 1,
      footer: ScreenParts.hints(hints, width: width, style: style).count)
  }

  package func lines(width: Int, style: Style) -> [String] {
    let labelWidth = 13
    func field(_ label: String, _ value: String) -> [String] {
      ScreenParts.field(label, value, labelWidth: labelWidth, width: width, style: style)
    }
    var lines = [style.bold("Status")]
    lines += ScreenParts.urlField(
      "Server", serverURL, labelWidth: labelWidth, width: width, style: style)
    lines += field("Reachable", reachabilityText)
    lines += field("Source", ProvenanceText.summary(provenance, now: now))
    var favorites = TextFormat.plural(favoriteCount, "book")
    if let ago = favoritesRefreshedAgo {
      favorites += " · refreshed \(TextFormat.age(ago))"
    } else {
      favorites += " · never refreshed"
    }
    lines += field("Favourites", favorites)
    var cache = TextFormat.plural(cachedPageCount, "page") + " · " + TextFormat.bytes(cacheBytes)
    if let oldest = oldestCachedAge { cache += " · oldest \(TextFormat.age(oldest))" }
    lines += field("Cache", cache)
    if let sync { lines += syncLines(sync).flatMap { field($0.0, $0.1) } }
    if requests.isEmpty {
      lines.append(style.bold("Recent requests:") + " none yet")
    } else {
      lines.append(style.bold("Recent requests:"))
      lines += requestLines(width: width, style: style)
    }
    lines += ScreenParts.hints(hints, width: width, style: style)
    return lines
  }

  /// Catalogue, last sync, next sync.
  private func syncLines(_ sync: SyncStatus) -> [(String, String)] {
    var catalogue =
      "\(sync.snapshotDate) snapshot · \(TextFormat.plural(sync.snapshotBooks, "book")) from it · "
      + "\(TextFormat.grouped(sync.syncedBooks)) synced"
    if let last = sync.lastSuccess {
      catalogue += " · as of \(TextFormat.date(last, timeZone: timeZone))"
    }
    if let until = sync.freshUntil {
      catalogue += " · answers first until \(TextFormat.date(until, timeZone: timeZone))"
    }
    var lines = [("Catalogue", catalogue)]
    if let problem = sync.problem {
      lines.append(("Last sync", "unknown: " + Sanitizer.sanitize(problem)))
    } else if let run = sync.lastRun {
      var text =
        "\(TextFormat.age(max(0, now.timeIntervalSince(run.started)))) · \(run.result.rawValue)"
        + " · \(SyncText.summary(run))"
      if let note = run.note { text += " · " + Sanitizer.sanitize(note) }
      lines.append(("Last sync", text))
    } else {
      lines.append(("Last sync", "never (gutenberg sync)"))
    }
    if let due = sync.nextSyncDue {
      let wait = due.timeIntervalSince(now)
      lines.append(("Next sync", wait <= 0 ? "due now" : "in \(SyncText.span(wait))"))
    }
    return lines
  }

  private var reachabilityText: String {
    switch reachability {
    case .unknown:
      return "unknown (not checked yet)"
    case .reachable(let ago):
      return "yes (checked \(TextFormat.age(ago)))"
    case .unreachable(let ago, let reason):
      let why = reason.map(Sanitizer.sanitize).flatMap { $0.isEmpty ? nil : ": \($0)" } ?? ""
      return "no (checked \(TextFormat.age(ago)))\(why)"
    }
  }

  /// `  06:21:09  HTTP 200  123 ms  network  GET  /books/?page=2`, aligned (`-` for the
  /// method of an answer found without a request); a failure says `error` there and its reason
  /// on the lines under it, wrapped to the width, never cut.
  private func requestLines(width: Int, style: Style) -> [String] {
    let outcomes = requests.map { request in
      switch request.outcome {
      case .status(let code): "HTTP \(code)"
      case .failure: "error"
      case .served: "ok"
      }
    }
    let columns = [
      ColumnLayout.Column(
        cells: requests.map { "  " + TextFormat.time($0.startedAt, timeZone: timeZone) }),
      ColumnLayout.Column(
        cells: outcomes, isFlexible: true, share: 1, minimum: 5),
      ColumnLayout.Column(
        cells: requests.map { TextFormat.grouped($0.durationMilliseconds) + " ms" },
        alignment: .right, dropPriority: 20),
      ColumnLayout.Column(cells: requests.map(\.origin.rawValue), dropPriority: 10),
      // The method is dropped before the target it goes with when the width is short.
      ColumnLayout.Column(
        cells: requests.map { $0.method.map(Sanitizer.sanitize) ?? "-" }, dropPriority: 35),
      ColumnLayout.Column(
        cells: requests.map { Sanitizer.sanitize($0.target) }, isFlexible: true, share: 2,
        minimum: 12, dropPriority: 30),
    ]
    let rows = ColumnLayout(columns: columns).lines(width: width)
    // Under the time: `  06:19:50  ` is twelve cells.
    let indent = String(repeating: " ", count: min(12, max(0, width / 4)))
    var lines: [String] = []
    for (row, request) in zip(rows, requests) {
      lines.append(row)
      if case .failure(let reason) = request.outcome {
        let text = Sanitizer.sanitize(reason)
        if !text.isEmpty {
          lines += TextWrapper.wrap(text, toCells: width, firstPrefix: indent, prefix: indent)
        }
      }
    }
    return lines
  }
}
