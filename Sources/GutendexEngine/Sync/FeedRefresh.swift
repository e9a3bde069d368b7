import Foundation
import Gutendex
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``CatalogueSync``'s refresh from Project Gutenberg's feed (the whole catalogue in one
/// archive), run with the sync lock held.
struct FeedRefresh: Sendable {
  /// The client whose pipeline (and timeout) the feed's request goes through.
  let client: GutendexClient
  /// The local catalogue's files: the new index, the arrivals, the state.
  let files: LocalCatalogueFiles
  /// Hears the feed's bytes and books as they arrive, for the progress line.
  let events: (@Sendable (SyncEvent) -> Void)?
  let now: @Sendable () -> Date

  /// Refreshes the local catalogue from Project Gutenberg's feed when `policy` says it is due:
  /// one conditional GET (an unchanged file is one 304), the body streamed through libarchive
  /// and the RDF reader, then a new index of every book the feed has plus the books held here
  /// that it lacks, committed atomically (`state` and `base` then describe it). Never throws:
  /// a feed that cannot be had or read leaves the previous catalogue and says why. Called with
  /// the sync lock held; nil when no refresh was due.
  func run(
    _ policy: FeedPolicy, state: inout SyncState, base: inout GutendexEngine
  ) async -> FeedOutcome? {
    guard policy.isDue(state.feed, at: now()) else { return nil }
    var requests = 0
    let url = policy.url
    // Stored and compared without credentials (state.json is readable by others).
    var feed =
      state.feed.flatMap { $0.url == url.redacted ? $0 : nil }
      ?? FeedState(url: url.redacted)
    func failed(_ note: String, _ cause: SyncRun.Cause = .unavailable) -> FeedOutcome {
      var outcome = FeedOutcome(result: .failed, note: "the feed: \(note)", requests: requests)
      outcome.cause = cause
      return outcome
    }

    var headers = ["User-Agent": FeedPolicy.userAgent, "Accept-Encoding": "identity"]
    if let etag = feed.etag { headers["If-None-Match"] = etag }
    if let lastModified = feed.lastModified { headers["If-Modified-Since"] = lastModified }
    let conditional = feed.etag != nil || feed.lastModified != nil
    // Through the client's pipeline, as every request: `--verbose` and `status` show it, and
    // a redirect follows the rule of files (https anywhere, never down to http). `--timeout`
    // is how long it may receive nothing; the minimum speed (as for book files) ends a feed
    // trickled slowly enough never to stall.
    let request = HTTPRequest(
      url: url, headers: headers, timeout: client.timeout, minimumSpeed: policy.minimumSpeed)
    let response: StreamedResponse
    let target: URL
    do throws(HTTPPipeline.Failure) {
      let opened = try await client.pipeline.open(request, redirects: .files)
      requests += opened.requests
      response = opened.response
      target = opened.url
    } catch {
      switch error {
      case .transport(let cause, let sent):
        requests += sent
        if let error = cause as? GutendexError {
          if case .cancelled = error { return failed(error.description, .cancelled) }
          return failed(error.description)
        }
        return failed("\(cause)")
      case .redirectRefused(let refusal, let sent):
        requests += sent
        return failed(
          "redirect to \(URL.redacting(refusal.to)) refused (\(refusal.reason); "
            + "\(refusal.from.redacted))")
      case .tooManyRedirects(let from, let sent):
        requests += sent
        return failed(
          "too many redirects (more than \(RedirectPolicy.limit)) from \(from.redacted)")
      }
    }

    switch response.status {
    case 304 where !conditional:
      // "Not modified" since nothing: no answer to this request. Taken as "unchanged", it
      // would hold off every refresh for the feed's maximum age.
      return failed(
        "HTTP 304 (not modified) from \(target.redacted) to a request that named no copy; "
          + "nothing was read")
    case 304:
      feed.checked = now()
      state.feed = feed
      return FeedOutcome(
        result: .unchanged, books: feed.books, note: nil, requests: requests)
    case 200: break
    default:
      response.body.cancel()
      return failed("HTTP \(response.status) from \(target.redacted)")
    }

    // Each book goes to a temporary file in the catalogue's directory as it is read, so the
    // refresh holds the ids, not the books (the whole feed is hundreds of MB of records).
    var index: StreamedIndex
    do {
      index = try StreamedIndex(in: files.directory)
    } catch {
      response.body.cancel()
      return failed("cannot write the local catalogue: \(error)", .files)
    }
    defer { index.close() }
    let reading: FeedReader.Reading<ChangeCountingIndex>
    let received = Atomic<Int64>(0)
    do {
      let total = response.body.length
      let events = self.events
      reading = try await FeedReader.read(
        response.body, into: ChangeCountingIndex(index: index, previous: base),
        progress: FeedProgress { bytes, books in
          received.store(bytes, ordering: .relaxed)
          events?(.feed(bytes: bytes, total: total, books: books))
        })
      try Task.checkCancellation()
    } catch _ where Task.isCancelled {
      // Ctrl-C ended the transfer: the archive looks cut off, but nothing is wrong with it.
      return failed("stopped by Ctrl-C", .cancelled)
    } catch let failure as FeedArchive.Failure {
      if let source = failure.source as? GutendexError {
        if case .cancelled = source { return failed(source.description, .cancelled) }
        return failed(source.description)
      }
      // A library this machine lacks says nothing of the feed: the loader's line, as it is.
      if failure.libraryMissing { return failed(failure.reason) }
      return failed(
        "not a readable .tar.bz2 (\(failure.reason)): \(target.redacted)", .badData)
    } catch let error as GutendexError {
      if case .cancelled = error { return failed(error.description, .cancelled) }
      return failed(error.description)
    } catch let error as SyncFileError {
      return failed("cannot write the local catalogue: \(error)", .files)
    } catch {
      return failed("\(error)")
    }
    guard reading.count > 0 else {
      return failed("no book records in \(target.redacted)", .badData)
    }
    index = reading.records.index

    var written: URL?
    var arrivedCount = 0
    var removed: [Int] = []
    var keptMissing = 0
    do {
      // A book whose record left the feed is deleted, as Gutendex's `updatecatalog` deletes
      // it; but not one that arrived after the feed was made (it is newer than the file), one
      // whose record is there but broken, nor any when so many are missing that the file is
      // more likely incomplete than PG's catalogue smaller. The previous catalogue's ids and
      // the feed's are both walked in order, side by side: neither list is held.
      let made = response.header("Last-Modified").flatMap(TodayRSS.date) ?? now()
      let later = Set(files.readArrivals().filter { $0.added > made }.map(\.id))
      let skippedIDs = Set(reading.skipped.map(\.id)).sorted()
      let limit = LocalCatalogueFiles.removalLimit(bookCount: base.bookCount)
      var removable = 0
      try Self.forEachLacking(base, listed: &index, skipped: skippedIDs) { id in
        guard !later.contains(id) else { return }
        removable += 1
        if removable <= limit { removed.append(id) }
      }
      if removable > limit {
        keptMissing = removable
        removed = []
      }
      let removing = Set(removed)
      // The books kept are listed on disk first (the walk reads the index's own list of ids,
      // which adding to it would disturb), then read from the previous catalogue.
      var keptIDs = SpillFile(in: files.directory, bufferSize: 1 << 16)
      defer { keptIDs.close() }
      try Self.forEachLacking(base, listed: &index, skipped: skippedIDs) { id in
        if !removing.contains(id) { try keptIDs.append32(UInt32(truncatingIfNeeded: id)) }
      }
      var number = 0
      try Self.forEachID(in: keptIDs) { id in
        number += 1
        if number % 4096 == 0 { try Task.checkCancellation() }
        // A record of the previous catalogue that cannot be read is left out, as before.
        guard let record = try? base.record(id: id) else { return }
        try index.add(record)
      }
      let name = files.freshName("local")
      let file = files.directory.appendingPathComponent(name)
      // The books the previous catalogue lacked arrived now, with the feed's release dates
      // (by id alone: building each book's JSON to see whether it exists took 3 s of a
      // refresh); every book written is synced. Both are heard as the index is written, the
      // ids kept on disk, the arrivals only as many as the file keeps.
      var arrivals = ArrivalWindow(limit: LocalCatalogueFiles.arrivalLimit)
      var writtenIDs = SpillFile(in: files.directory, bufferSize: 1 << 16)
      defer { writtenIDs.close() }
      let previous = base
      let bookCount = try index.write(to: file, keepingSummaries: true) { id, issued in
        try writtenIDs.append32(UInt32(truncatingIfNeeded: id))
        if !previous.holds(id) { arrivals.add(id, issued: issued) }
      }
      // The writer's buffers are freed: their pages go back before the new index is opened.
      FreedMemory.release()
      written = file
      arrivedCount = arrivals.count
      let refreshed = now()
      feed.etag = response.header("ETag")
      feed.lastModified = response.header("Last-Modified")
      feed.refreshed = refreshed
      feed.checked = refreshed
      feed.books = reading.count
      var next = state
      next.feed = feed
      next.bookCount = bookCount
      let ids = writtenIDs
      next.syncedBooks = try files.addSyncedIDs { body in try Self.forEachID(in: ids, body) }
      try files.recordArrivals(arrivals.ids, at: refreshed, issued: arrivals.issued(_:))
      try files.commit(baseNamed: name, bookCount: bookCount, state: next)
      written = nil
      next = try files.readState() ?? next
      state = next
      base = try files.openEngine()
    } catch {
      // The previous catalogue stays, and no file of this attempt is left.
      if let written { unlink(written.path) }
      if Task.isCancelled { return failed("stopped by Ctrl-C", .cancelled) }
      return failed("cannot write the local catalogue: \(error)", .files)
    }
    let skipped = reading.skipped.map(\.id).sorted()
    func named(_ records: [FeedRecordError]) -> String {
      let more = records.count > 5 ? " and \(records.count - 5) more" : ""
      return records.prefix(5).map { "book \($0.id) (\($0.reason))" }.joined(separator: ", ")
        + more
    }
    let notes = [
      skipped.isEmpty ? nil : "skipped unreadable records: " + named(reading.skipped),
      reading.cut.isEmpty ? nil : "cut to what the index holds: " + named(reading.cut),
      keptMissing > 0
        ? "kept \(keptMissing) books the feed lacks (too many for a complete list to drop)" : nil,
    ].compactMap { $0 }
    var outcome = FeedOutcome(
      result: .refreshed, books: reading.count, skipped: skipped,
      note: notes.isEmpty ? nil : notes.joined(separator: "; "), requests: requests)
    outcome.added = arrivedCount
    outcome.changed = reading.records.changed
    outcome.removedIDs = removed
    outcome.bytes = received.load(ordering: .relaxed)
    outcome.keptMissing = keptMissing > 0 ? keptMissing : nil
    return outcome
  }

  /// Calls `body` with each id of a spill of 4-byte ids, in order.
  static func forEachID(in spill: SpillFile, _ body: (Int) throws -> Void) throws {
    try spill.forEachPiece { piece in
      try piece.withUnsafeBytes { raw in
        for offset in stride(from: 0, to: raw.count, by: 4) {
          try body(
            Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
        }
      }
    }
  }

  /// Calls `body` with each id `base` holds that the feed did not list (its records, read or
  /// hidden: `listed`'s seen ids, and `skipped`, ascending), in order: the two lists are walked
  /// side by side.
  static func forEachLacking(
    _ base: GutendexEngine, listed: inout StreamedIndex, skipped: [Int],
    _ body: (Int) throws -> Void
  ) throws {
    var held = base.idCursor()
    var next = held.next()
    var skippedIndex = 0
    func pass(_ id: Int) throws {
      while let current = next, current < id {
        try body(current)
        next = held.next()
      }
      if next == id { next = held.next() }
    }
    try listed.forEachSeenID { id in
      while skippedIndex < skipped.count, skipped[skippedIndex] < id {
        try pass(skipped[skippedIndex])
        skippedIndex += 1
      }
      try pass(id)
    }
    while skippedIndex < skipped.count {
      try pass(skipped[skippedIndex])
      skippedIndex += 1
    }
    while let current = next {
      try body(current)
      next = held.next()
    }
  }
}

/// The books a refresh adds, as the arrivals file keeps them: how many, and the newest
/// `limit` (the highest ids: every one arrived at the same moment) with their release dates.
struct ArrivalWindow {
  let limit: Int
  private(set) var count = 0
  /// Each kept arrival: the id (high 32 bits) and the packed release date (``SpilledBook``).
  private var kept: [UInt64] = []

  init(limit: Int) {
    self.limit = limit
  }

  /// Adds an arrival; ids come ascending.
  mutating func add(_ id: Int, issued: String?) {
    count += 1
    kept.append(UInt64(UInt32(truncatingIfNeeded: id)) << 32 | UInt64(SpilledBook.pack(issued)))
    // Trimmed in halves, so that adding stays cheap whatever the count.
    if kept.count >= 2 * limit { kept.removeFirst(kept.count - limit) }
  }

  /// The ids kept, ascending.
  var ids: [Int] { kept.suffix(limit).map { Int($0 >> 32) } }

  /// The release date of `id`, one of ``ids``: found by a binary search of the kept
  /// arrivals (ascending by id), so no dictionary of tens of thousands of dates is built.
  func issued(_ id: Int) -> String? {
    let kept = self.kept.suffix(limit)
    var low = kept.startIndex
    var high = kept.endIndex
    while low < high {
      let middle = (low + high) / 2
      if Int(kept[middle] >> 32) < id { low = middle + 1 } else { high = middle }
    }
    guard low < kept.endIndex, Int(kept[low] >> 32) == id else { return nil }
    return SpilledBook(key: 0, offset: 0, count: 0, issued: UInt32(truncatingIfNeeded: kept[low]))
      .issuedDate
  }
}
