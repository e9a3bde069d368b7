import Foundation
import Gutendex

extension CatalogueSync {
  /// The most redirects a feed request follows (a mirror moving its file, http to https).
  static let feedRedirectLimit = 5

  /// Refreshes the local catalogue from Project Gutenberg's feed when `policy` says it is due:
  /// one conditional GET (an unchanged file is one 304), the body streamed through libarchive
  /// and the RDF reader, then a new index of every book the feed has plus the books held here
  /// that it lacks, committed atomically (`state` and `base` then describe it). Never throws:
  /// a feed that cannot be had or read leaves the previous catalogue and says why. Called with
  /// the sync lock held; nil when no refresh was due.
  func refreshFromFeed(
    _ policy: FeedPolicy, state: inout SyncState, base: inout GutendexEngine
  ) async -> FeedOutcome? {
    guard policy.isDue(state.feed, at: now()) else { return nil }
    var requests = 0
    let url = policy.url
    var feed =
      state.feed.flatMap { $0.url == url.absoluteString ? $0 : nil }
      ?? FeedState(url: url.absoluteString)
    func failed(_ note: String, _ cause: SyncRun.Cause = .unavailable) -> FeedOutcome {
      var outcome = FeedOutcome(result: .failed, note: "the feed: \(note)", requests: requests)
      outcome.cause = cause
      return outcome
    }

    var headers = ["User-Agent": FeedPolicy.userAgent, "Accept-Encoding": "identity"]
    if let etag = feed.etag { headers["If-None-Match"] = etag }
    if let lastModified = feed.lastModified { headers["If-Modified-Since"] = lastModified }
    var target = url
    var response: StreamedResponse
    do {
      while true {
        requests += 1
        let request = HTTPRequest(url: target, headers: headers, timeout: client.timeout)
        response = try await client.transport.open(request)
        guard (300..<400).contains(response.status), response.status != 304,
          let location = response.header("Location")
        else { break }
        response.body.cancel()
        guard requests <= Self.feedRedirectLimit,
          let next = URL(string: location, relativeTo: target)?.absoluteURL,
          next.scheme == "https" || (next.scheme == "http" && target.scheme == "http")
        else { return failed("redirect to \(location) refused (\(target.absoluteString))") }
        target = next
      }
    } catch let error as GutendexError {
      if case .cancelled = error { return failed(error.description, .cancelled) }
      return failed(error.description)
    } catch {
      return failed("\(error)")
    }

    switch response.status {
    case 304:
      feed.checked = now()
      state.feed = feed
      return FeedOutcome(
        result: .unchanged, books: feed.books, note: nil, requests: requests)
    case 200: break
    default:
      response.body.cancel()
      return failed("HTTP \(response.status) from \(target.absoluteString)")
    }

    let reading: FeedReader.Reading
    do {
      reading = try await FeedReader.read(response.body)
      try Task.checkCancellation()
    } catch _ where Task.isCancelled {
      // Ctrl-C ended the transfer: the archive looks cut off, but nothing is wrong with it.
      return failed("stopped by Ctrl-C", .cancelled)
    } catch let failure as FeedArchive.Failure {
      if let source = failure.source as? GutendexError {
        if case .cancelled = source { return failed(source.description, .cancelled) }
        return failed(source.description)
      }
      return failed(
        "not a readable .tar.bz2 (\(failure.reason)): \(target.absoluteString)", .badData)
    } catch let error as GutendexError {
      if case .cancelled = error { return failed(error.description, .cancelled) }
      return failed(error.description)
    } catch {
      return failed("\(error)")
    }
    guard !reading.records.isEmpty else {
      return failed("no book records in \(target.absoluteString)", .badData)
    }

    do {
      var records: [Int: BookRecord] = [:]
      records.reserveCapacity(reading.records.count + 1024)
      for record in reading.records { records[record.id] = record }
      // Books held here that the feed lacks (or whose record was broken) stay, as on the
      // real server, which never deletes a book its feed stopped listing.
      for id in base.bookIDs where records[id] == nil && !reading.seen.contains(id) {
        guard let json = base.bookJSON(id: id) else { continue }
        var parser = JSONParser(Array(json), options: BookRecord.jsonOptions)
        if let record = try? BookRecord.read(from: &parser) { records[id] = record }
      }
      let index = try CatalogueSnapshot.make(
        records: Array(records.values), keepingSummaries: true)
      let refreshed = now()
      feed.etag = response.header("ETag")
      feed.lastModified = response.header("Last-Modified")
      feed.refreshed = refreshed
      feed.checked = refreshed
      feed.books = reading.records.count
      var next = state
      next.feed = feed
      next.bookCount = records.count
      var synced = files.readSyncedIDs()
      synced.formUnion(reading.records.map(\.id))
      try files.writeSyncedIDs(synced)
      next.syncedBooks = synced.count
      // The books the previous catalogue lacked arrived now, with the feed's release dates.
      let previous = base
      let arrived = reading.records.map(\.id).filter { previous.bookJSON(id: $0) == nil }
      try files.recordArrivals(arrived, at: refreshed, issued: reading.issued)
      try files.commit(base: index, bookCount: records.count, state: next)
      next = try files.readState() ?? next
      state = next
      base = try files.openEngine()
    } catch {
      return failed("cannot write the local catalogue: \(error)", .files)
    }
    let skipped = reading.skipped.map(\.id).sorted()
    let note =
      skipped.isEmpty
      ? nil
      : "skipped unreadable records: "
        + reading.skipped.prefix(5).map { "book \($0.id) (\($0.reason))" }.joined(separator: ", ")
    return FeedOutcome(
      result: .refreshed, books: reading.records.count, skipped: skipped, note: note,
      requests: requests)
  }
}
