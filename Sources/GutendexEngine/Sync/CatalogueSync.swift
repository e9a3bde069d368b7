import Foundation
import Gutendex
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Brings the local catalogue up to date from a Gutendex server, politely and atomically.
///
/// New books: `/books/?sort=descending` (the server's newest first) page by page until a whole
/// page holds only books the catalogue already has. Held books (favourites, library): `ids=`
/// batches of 32. One request at a time; the client honours `Retry-After`, and a 429 that
/// remains ends the sync early. Every page's books are appended to `pending.jsonl` and the next
/// link to `cursor` as they arrive, so a sync killed at any point is resumed by the
/// next without fetching again; the new index is written beside the old one and takes effect
/// only when `state.json` is renamed over, so the previous catalogue answers until then.
public struct CatalogueSync: Sendable {
  /// What a sync did, for the caller to show and to apply to its own stores.
  public struct Outcome: Sendable {
    /// The run, as logged.
    public var run: SyncRun
    /// The held books the server returned, as it sent them.
    public var held: [Book]
    /// Held ids the server no longer has.
    public var missing: [Int]
  }

  /// The server's client (its retry policy and observer are kept; requests are counted).
  public var client: GutendexClient
  /// The data directory's catalogue files.
  public var files: LocalCatalogueFiles
  /// When to refresh from Project Gutenberg's feed first (see `FeedRefresh.swift`);
  /// nil never.
  public var feed: FeedPolicy?
  /// Where and how to read Project Gutenberg's daily changes (see
  /// `GutenbergDailyRead.swift`); nil not at all.
  public var gutenberg: GutenbergPolicy?
  /// Whether the Gutendex server's pages are walked for new books and the held books
  /// refreshed in `ids=` batches (a self-hosted Gutendex); false when PG's own files keep the
  /// catalogue current.
  public var walksServer = true
  /// Told what the sync has done so far, as it goes (see ``SyncEvent``); from any thread.
  public var events: (@Sendable (SyncEvent) -> Void)?
  /// The most books a walk keeps pending beyond those the catalogue has: a server that keeps
  /// offering new ids (a `count` as large as it likes, ids ever lower) stops here rather than
  /// fill the disk. Project Gutenberg adds a few thousand books a year; a `--full` walk may
  /// also refetch every book already held.
  var pendingLimit = CatalogueSync.defaultPendingLimit
  var now: @Sendable () -> Date

  /// ``pendingLimit``'s default: years of new books, about 40 MB pending.
  static let defaultPendingLimit = 20_000

  /// A sync of `files` from `client`'s server (and from the feed, as `feed` says).
  public init(
    client: GutendexClient, files: LocalCatalogueFiles, feed: FeedPolicy? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.client = client
    self.files = files
    self.feed = feed
    self.now = now
  }

  /// How many requests a full refresh would make: every page of the catalogue as it is known
  /// here, plus the holdings' batches (a server with more books takes a few more).
  public func fullRequestEstimate(holdings: Int) throws -> Int {
    let books = try files.openEngine().bookCount
    return BookQuery.pageCount(forResults: books) + batches(holdings)
  }

  private func batches(_ count: Int) -> Int {
    (count + BookQuery.pageSize - 1) / BookQuery.pageSize
  }

  /// Runs one sync; never throws: a failure is a run whose result says so (and is logged).
  public func run(holdings: [Int], full: Bool = false) async -> Outcome {
    let started = now()
    // Durations come from the same clock as the dates (`now`), so a test's fixed clock gives
    // fixed figures; a wall clock stepping back reads as 0.
    let now = self.now
    func elapsed() -> Double { max(0, now().timeIntervalSince(started)) }
    let counter = Atomic<Int>(0)
    var client = self.client
    let previous = client.observer
    client.observer = { event in
      counter.add(1, ordering: .relaxed)
      previous?(event)
    }
    var run = SyncRun(
      started: started, seconds: 0, added: 0, updated: 0, requests: 0, result: .failed, full: full)
    var held: [Book] = []
    var missing: [Int] = []
    var daily: GutenbergDailyRead.Reading?
    // The feed and PG's small files count their own requests (the counter is the walk's).
    let feedRefresh = FeedRefresh(client: self.client, files: files, events: events, now: now)
    // The one record of what each source did; every count the run prints is taken from it.
    func tally(added: [Int] = [], updated: [Int] = []) {
      var sources: [SourceCounts] = []
      if let feed = run.feed {
        var counts = SourceCounts(source: .feed)
        counts.requests = feed.requests
        counts.bytes = feed.bytes ?? 0
        counts.added = feed.added ?? 0
        counts.changed = feed.changed ?? 0
        counts.removed = feed.removedIDs?.count ?? 0
        counts.skipped = feed.skipped.count
        counts.unchanged = feed.result == .unchanged
        sources.append(counts)
      }
      let fetched = daily?.fetched ?? []
      if var reading = daily {
        reading.records.added = added.count { fetched.contains($0) }
        reading.records.changed = updated.count { fetched.contains($0) }
        sources += reading.sources
      }
      if walksServer {
        var api = SourceCounts(source: .api)
        api.requests = counter.load(ordering: .relaxed)
        api.added = added.count { !fetched.contains($0) }
        api.changed = updated.count { !fetched.contains($0) }
        sources.append(api)
      }
      run.sources = sources
      run.added = added.count + (run.feed?.added ?? 0)
      run.updated = updated.count + (run.feed?.changed ?? 0)
      let removed = (run.feed?.removedIDs ?? []) + (daily?.gone ?? [])
      run.removedIDs = removed.isEmpty ? nil : removed.sorted()
      run.requests = sources.reduce(0) { $0 + $1.requests }
    }
    func finish(_ state: SyncState?) -> Outcome {
      run.seconds = elapsed()
      tally()
      if var state {
        state.record(run)
        do {
          try files.write(state)
        } catch {
          run.note = [run.note, "the sync log could not be written: \(error)"]
            .compactMap { $0 }.joined(separator: "; ")
        }
      }
      return Outcome(run: run, held: held, missing: missing)
    }

    do {
      try files.createDirectory()
    } catch {
      run.note = error.description
      run.cause = .files
      return finish(nil)
    }
    let lock: SyncLock
    do {
      lock = try SyncLock(files.lockURL)
    } catch {
      run.note = error.description
      if case .locked = error.kind { run.cause = .busy } else { run.cause = .files }
      return finish(nil)
    }
    defer { lock.release() }

    var state: SyncState
    var base: GutendexEngine
    do {
      base = try files.openEngine()
      state =
        try files.readState()
        ?? SyncState(snapshotDate: EmbeddedCatalogue.snapshotDate, bookCount: base.bookCount)
    } catch {
      // A damaged state or index file: this sync starts again from the embedded catalogue
      // (the books it fetches and those pending are kept); its state replaces the damaged one.
      do {
        base = try EmbeddedCatalogue.load()
      } catch {
        run.note = "cannot open the embedded catalogue: \(error)"
        run.cause = .files
        return finish(nil)
      }
      state = SyncState(snapshotDate: EmbeddedCatalogue.snapshotDate, bookCount: base.bookCount)
      run.note = "the local catalogue was damaged (\(error)) and is rebuilt from the embedded one"
    }
    files.removeStaleIndexes(keeping: state)
    // The feed first: the walk below then only adds what is newer than the feed.
    if let feed { run.feed = await feedRefresh.run(feed, state: &state, base: &base) }
    // Then PG's small files: what changed since, into the pending list; books gone from a
    // newer complete list are removed now, before the pending books are merged.
    var listNote: String?
    if let gutenberg {
      // A feed read whole is a complete list as of when it was made: the days before need no
      // catalogue list, and the download counts are fresh.
      func feedRead(_ next: GutenbergState?) -> GutenbergState {
        var next = next ?? GutenbergState(site: gutenberg.site.base.absoluteString)
        let made = state.feed?.lastModified.flatMap(TodayRSS.date) ?? now()
        next.currentAsOf = max(next.currentAsOf ?? .distantPast, made)
        next.countsRefreshed = now()
        return next
      }
      if run.feed?.result == .refreshed { state.gutenberg = feedRead(state.gutenberg) }
      var reading = await GutenbergDailyRead(
        client: self.client, files: files, events: events, now: now
      ).read(gutenberg, state: state, base: base)
      if reading.needsFeed, run.feed?.result != .refreshed {
        // Too many records to fetch one by one: the whole feed, whatever its age.
        let policy = FeedPolicy(url: feed?.url ?? gutenberg.site.feed, maxAge: nil, force: true)
        run.feed = await feedRefresh.run(policy, state: &state, base: &base)
        if run.feed?.result == .refreshed { reading.next = feedRead(reading.next) }
      }
      let limit = LocalCatalogueFiles.removalLimit(bookCount: base.bookCount)
      if reading.gone.count > limit {
        listNote =
          "pg_catalog.csv lacks \(reading.gone.count) books held here, too many for a complete "
          + "list to drop; none removed"
        reading.gone = []
      }
      if !reading.gone.isEmpty, reading.stop == nil {
        do {
          state = try files.removing(Set(reading.gone), from: base, state: state)
          base = try files.openEngine()
          reading.csv?.removed = reading.gone.count
        } catch {
          run.note = "cannot write the local catalogue: \(error)"
          run.cause = .files
          return finish(state)
        }
      } else {
        reading.gone = []
      }
      daily = reading
    }

    // What the catalogue holds is asked of it (two binary searches an id), not listed.
    let known = base
    var pendingIDs = Set<Int>()
    files.forEachPending { line in
      if let id = try? Book.decode(from: Data(line)).id { pendingIDs.insert(id) }
    }
    let resume = files.readCursor()
    var stop: GutendexError?
    var bounded: String?

    // Walks from `first`, journaling each page, until a page of known books or the end. A
    // walk resumed from a saved link stops only at a known page whose ids are all at most its
    // watermark (the highest id known when that walk began): books that arrived since shift
    // the server's pages, so the saved page may now hold books fetched before, not old ones.
    // The cursor holds where this walk would go on, then `rest`: the points where earlier walks
    // were interrupted (newest first), so an interrupted resume loses none of them.
    let watermark = max(known.highestID ?? 0, pendingIDs.max() ?? 0)
    // A full walk refetches the books held too; a walk for new books only what is new.
    let pendingBound = pendingLimit + (full ? known.bookCount : 0)
    var skipped: [String] = []
    func walk(
      _ first: Endpoint<BookPage>, mode: String, below limit: Int?, rest: [String]
    ) async throws {
      var endpoint = first
      // Bounds, so that no server can keep a sync walking: as many pages as its first count
      // calls for and two more (books arriving meanwhile), each reaching lower ids than the one
      // before (pages are newest first), none repeating.
      var pages = 0
      var pageLimit: Int?
      var lowest = Int.max
      while true {
        let page = try await client.send(endpoint.skippingBadBooks)
        pages += 1
        skipped += page.skipped
        let maxPages = pageLimit ?? BookQuery.pageCount(forResults: page.count) + 2
        pageLimit = maxPages
        if let least = page.results.map(\.id).min() {
          guard least < lowest else {
            throw WalkBound(
              reason: "the server's pages stopped going down in ids (page \(pages) of this walk)")
          }
          lowest = least
        }
        let allKnown = page.results.allSatisfy {
          (known.holds($0.id) || pendingIDs.contains($0.id)) && $0.id <= (limit ?? .max)
        }
        // Checked before writing: the pending list never holds more than the bound.
        let fresh = Set(page.results.map(\.id)).subtracting(pendingIDs)
        guard pendingIDs.count + fresh.count <= pendingBound else {
          throw WalkBound(
            reason: "the server offered more books than a sync keeps pending "
              + "(\(pendingBound))")
        }
        try files.appendPending(page.results.map(\.rawJSON), durable: false)
        events?(.page(books: page.results.count))
        pendingIDs.formUnion(fresh)
        let untilKnown = mode == "new"
        let done = page.next == nil || (untilKnown && allKnown) || page.results.isEmpty
        let own = done ? [] : [page.next.map { "\(limit ?? watermark) \($0)" }].compactMap { $0 }
        let links = own + rest
        try files.writeCursor(links.isEmpty ? nil : ([mode] + links).joined(separator: "\n"))
        guard !done, let next = page.next else { return }
        guard pages < maxPages else {
          throw WalkBound(
            reason: "the server offered more pages than its count of \(page.count) books calls for "
              + "(\(maxPages))")
        }
        endpoint = .link(next)
      }
    }

    do {
      // PG's files stopped early: what they brought is merged, and the next sync goes on.
      if let stopped = daily?.stop { throw stopped }
      guard walksServer else { throw WalkSkipped() }
      let resumeParts = resume?.split(separator: "\n").map(String.init) ?? []
      // Each saved point: "<watermark> <link>".
      let saved: [(limit: Int, link: String)] = resumeParts.dropFirst().compactMap { line in
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let limit = Int(parts[0]) else { return nil }
        return (limit, parts[1])
      }
      if full {
        let first = resumeParts.first == "full" ? saved.first : nil
        try await walk(
          first.map { .link($0.link) } ?? .books(BookQuery(sort: .descending)), mode: "full",
          below: first?.limit, rest: [])
      } else {
        let earlier = resumeParts.first == "new" ? saved : []
        let lines = earlier.map { "\($0.limit) \($0.link)" }
        try await walk(
          .books(BookQuery(sort: .descending)), mode: "new", below: nil, rest: lines)
        // Earlier walks stopped part-way: go on from where each stopped, newest first.
        for (index, point) in earlier.enumerated() {
          try await walk(
            .link(point.link), mode: "new", below: point.limit,
            rest: Array(lines.dropFirst(index + 1)))
        }
      }
      try files.writeCursor(nil)
      let ids = holdingsToRefresh(holdings)
      var start = 0
      while start < ids.count {
        let batch = Array(ids[start..<min(start + BookQuery.pageSize, ids.count)])
        start += batch.count
        let page = try await client.send(.books(BookQuery(ids: batch)))
        let answered = page.results.filter { batch.contains($0.id) }
        try files.appendPending(answered.map(\.rawJSON), durable: false)
        events?(.page(books: answered.count))
        held += answered
        let returned = Set(answered.map(\.id))
        missing += batch.filter { !returned.contains($0) }
      }
    } catch is WalkSkipped {
      // Only PG's files this time: nothing to walk.
    } catch let error as GutendexError {
      stop = error
    } catch let error as WalkBound {
      bounded = "\(error.reason); the sync stopped there and kept what it fetched"
      // Not resumed: the next sync starts from the newest page again.
      try? files.writeCursor(nil)
    } catch let error as SyncFileError {
      run.note = error.description
      run.cause = .files
      return finish(state)
    } catch {
      run.note = "\(error)"
      run.cause = .files
      return finish(state)
    }
    if let badFile = daily?.badFile {
      bounded = [bounded, badFile].compactMap { $0 }.joined(separator: "; ")
    }
    run.cause = bounded != nil ? .badData : Self.cause(of: stop)

    // Held books PG no longer lists are kept by the stores and marked.
    let removedNow = Set((run.feed?.removedIDs ?? []) + (daily?.gone ?? []))
    let heldRemoved = holdings.filter { removedNow.contains($0) }
    if !walksServer {
      // No `ids=` batches ran: the marks of earlier syncs stand.
      missing = state.missingIDs.filter { !removedNow.contains($0) }
    }
    missing = Array(Set(missing + heldRemoved))
    // PG's files were all read: what they said is remembered (validators, the list's date).
    if let daily, daily.stop == nil, daily.badFile == nil, let next = daily.next {
      state.gutenberg = next
    }
    if case .cancelled = stop {
      // Ctrl-C: what arrived stays pending for the next sync; nothing slow happens now.
      run.result = .partial
      run.note = "stopped by Ctrl-C; the next sync resumes where this one stopped"
      return finish(state)
    }
    // The pending books are read one at a time into the new delta (never all at once: a sync
    // of thousands of books holds their ids, not their records).
    var delta: DeltaBuilder
    do {
      delta = try DeltaBuilder(engine: base, in: files.directory)
    } catch {
      run.note = "cannot write the local catalogue: \(error)"
      run.cause = .files
      return finish(state)
    }
    defer { delta.close() }
    var readFailure: (any Error)?
    files.forEachPending { line in
      guard readFailure == nil else { return }
      do { try delta.add(line) } catch { readFailure = error }
    }
    if let readFailure {
      run.result = .failed
      run.note = "cannot write the local catalogue: \(readFailure)"
      run.cause = .files
      return finish(state)
    }
    if delta.read == 0, stop != nil {
      run.note = Self.note(for: stop)
      return finish(state)
    }
    // A book the index cannot hold (a number out of range) is left out, one cut to its limits
    // goes in cut: named, like a book a page could not give.
    // A book a page skipped may be named again by the pending list's reading: once each.
    var named = Set<String>()
    skipped = (skipped + delta.skipped).filter { named.insert($0).inserted }
    // Named, one line: the rest of each page was kept.
    func names(_ list: [String]) -> String {
      list.prefix(10).joined(separator: "; ")
        + (list.count > 10 ? " and \(list.count - 10) more" : "")
    }
    // Said, but no reason to call the sync partial: it took every book that can be stored
    // (a hostile book must not keep the catalogue from counting as fresh).
    let notes = [
      skipped.isEmpty ? nil : "skipped a book that cannot be read or stored: \(names(skipped))",
      delta.cut.isEmpty ? nil : "cut to what the index holds: \(names(delta.cut))",
    ].compactMap { $0 }
    func noted(_ note: String?) -> String? {
      let all = [note].compactMap { $0 } + notes
      return all.isEmpty ? nil : all.joined(separator: "; ")
    }
    let changed: Bool
    do {
      changed = try delta.hasChanges()
    } catch {
      run.result = .failed
      run.note = "cannot write the local catalogue: \(error)"
      run.cause = .files
      return finish(state)
    }
    if stop == nil, !changed {
      // Nothing changed: the index stands; only the state (the run, the marks) is written.
      state.missingIDs = missing.sorted()
      run.result = bounded == nil ? .ok : .partial
      run.note = noted(bounded ?? listNote ?? run.note)
      let outcome = finish(state)
      // Every pending book is held as it is: should a power cut bring them back, the next
      // sync finds nothing to change again, so this need not wait for the disk.
      files.clearPending(durable: false)
      return outcome
    }
    let name = files.freshName("delta")
    let file = files.directory.appendingPathComponent(name)
    var written = false
    do {
      // Only the delta is written: the base (snapshot or feed refresh) stays as it is.
      let bookCount = try delta.write(to: file)
      written = true
      let added = delta.added.sorted()
      let updated = delta.updated.sorted()
      tally(added: added, updated: updated)
      // Written first: ids that are ahead of the state only make the next count right sooner.
      let fresh = Array(Set(added + updated)).sorted()
      state.syncedBooks = try files.addSyncedIDs { body in try fresh.forEach(body) }
      state.bookCount = bookCount
      state.baseBooks = base.baseBookCount
      state.addedBooks = bookCount - base.baseBookCount
      if stop == nil, let bounded {
        run.result = .partial
        run.note = noted(bounded)
      } else if stop == nil {
        state.missingIDs = missing.sorted()
        run.result = .ok
        run.note = noted(listNote ?? run.note)
      } else {
        run.result = .partial
        run.note = noted(Self.note(for: stop))
      }
      run.seconds = elapsed()
      var committed = state
      committed.record(run)
      // Before the state that makes them visible (see `LocalCatalogueFiles+Arrivals.swift`).
      try files.recordArrivals(added, at: started)
      try files.commit(deltaNamed: name, state: committed)
      files.clearPending(keepingCursor: stop != nil)
      return Outcome(run: run, held: held, missing: missing)
    } catch {
      if written { unlink(file.path) }
      run.result = .failed
      run.note = "cannot write the local catalogue: \(error)"
      run.cause = .files
      return finish(state)
    }
  }

  /// The held ids worth asking for, ascending and distinct.
  private func holdingsToRefresh(_ holdings: [Int]) -> [Int] {
    Array(Set(holdings.filter { $0 > 0 })).sorted()
  }

  static func cause(of error: GutendexError?) -> SyncRun.Cause? {
    switch error {
    case nil: nil
    case .cancelled?: .cancelled
    case .rateLimited?: .rateLimited
    case .badData?, .bodyTooLarge?: .badData
    default: .unavailable
    }
  }

  /// Why a sync stopped early, and that it resumes.
  static func note(for error: GutendexError?) -> String? {
    guard let error else { return nil }
    if case .rateLimited = error {
      return "the server asked to slow down (429); the next sync resumes where this one stopped"
    }
    return "\(error.description); the next sync resumes where this one stopped"
  }
}

/// The server is not walked this time (PG's own files keep the catalogue current).
struct WalkSkipped: Error {}

/// A walk that went past one of its bounds (see ``CatalogueSync``): it stops with one line.
struct WalkBound: Error {
  /// What went past the bound, one line.
  let reason: String
}
