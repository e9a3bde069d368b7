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
      // The previous catalogue's ids, listed once (a merge of base and delta): for the books
      // kept or removed here, and for the arrivals below.
      let heldIDs = base.bookIDs
      // A book whose record left the feed is deleted, as Gutendex's `updatecatalog` deletes
      // it; but not one that arrived after the feed was made (it is newer than the file), one
      // whose record is there but broken, nor any when so many are missing that the file is
      // more likely incomplete than PG's catalogue smaller.
      let listed = reading.seen.union(reading.skipped.map(\.id))
      let made = response.header("Last-Modified").flatMap(TodayRSS.date) ?? now()
      let later = Set(files.readArrivals().filter { $0.added > made }.map(\.id))
      let lacking = heldIDs.filter { !listed.contains($0) }
      removed = lacking.filter { !later.contains($0) }
      if removed.count > LocalCatalogueFiles.removalLimit(bookCount: heldIDs.count) {
        keptMissing = removed.count
        removed = []
      }
      let removing = Set(removed)
      for (number, id) in lacking.enumerated() where !removing.contains(id) {
        if number % 4096 == 0 { try Task.checkCancellation() }
        guard let json = base.bookJSON(id: id) else { continue }
        var parser = JSONParser(Array(json), options: BookRecord.jsonOptions)
        if let record = try? BookRecord.read(from: &parser) { try index.add(record) }
      }
      let name = files.freshName("local")
      let file = files.directory.appendingPathComponent(name)
      let bookCount = try index.write(to: file, keepingSummaries: true)
      written = file
      let refreshed = now()
      feed.etag = response.header("ETag")
      feed.lastModified = response.header("Last-Modified")
      feed.refreshed = refreshed
      feed.checked = refreshed
      feed.books = reading.count
      var next = state
      next.feed = feed
      next.bookCount = bookCount
      var synced = files.readSyncedIDs()
      synced.formUnion(reading.records.index.ids)
      try files.writeSyncedIDs(synced)
      next.syncedBooks = synced.count
      // The books the previous catalogue lacked arrived now, with the feed's release dates.
      // By id alone: building each book's JSON to see whether it exists took 3 s of a refresh.
      let held = Set(heldIDs)
      let arrived = reading.records.index.ids.filter { !held.contains($0) }.sorted()
      arrivedCount = arrived.count
      try files.recordArrivals(arrived, at: refreshed, issued: reading.issued)
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
}
