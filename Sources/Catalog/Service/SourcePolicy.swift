import Foundation
import Gutendex

/// Where a page or a book comes from, decided in one place for both, with the reason that goes
/// with a fallback computed once (the provenance the screens show):
///
/// 1. `--source local`: the local catalogue, always;
/// 2. a sync within the freshness window: the local catalogue first, with no request;
/// 3. simulated offline, or a server that failed a few minutes ago (here or in another
///    process): the fallbacks at once, saying why;
/// 4. else the server; when it cannot be used, the fallbacks, with its error as the reason.
///
/// The fallbacks: for a page the page cache, then the local catalogue; for a book the saved
/// favourite, then the local catalogue.
struct SourcePolicy: Sendable {
  /// Where an answer is looked for first.
  enum Route: Sendable, Equatable {
    /// The local catalogue only (`--source local`).
    case localOnly
    /// The local catalogue first: a sync is fresh.
    case localFirst
    /// The server is not asked; the fallbacks answer, for this reason.
    case fallback(reason: String)
    /// The server, then the fallbacks when it cannot be used.
    case server
  }

  let service: CatalogService

  /// The route for a request made now.
  func route() -> Route {
    if service.mode == .localOnly { return .localOnly }
    // Issue 20: a fresh sync answers from the local catalogue with no request.
    if service.answersLocallyFirst { return .localFirst }
    if service.network.current == .simulatedOffline {
      return .fallback(reason: "simulated offline")
    }
    // A server that just failed costs one timeout, not one per page (issue 27).
    if let note = skippedServerNote() { return .fallback(reason: note) }
    return .server
  }

  /// One page for `query`, from where the route says.
  func page(_ query: BookQuery) async throws(CatalogError) -> LoadedPage {
    switch route() {
    case .localOnly, .localFirst:
      return try await localPage(query, reason: nil)
    case .fallback(let reason):
      return try await fallbackPage(query, reason: reason, error: nil)
    case .server:
      break
    }
    let asked = ContinuousClock.now
    do {
      let page = try await service.client.page(query)
      answered()
      upsertSeen(page.results)
      await cache(page, for: query)
      return LoadedPage(query: query, page: page, source: .network)
    } catch {
      if case .cancelled = error { throw .cancelled }
      guard error.isUnavailable else { throw .server(error) }
      failed(error, asked: asked)
      return try await fallbackPage(query, reason: error.description, error: error)
    }
  }

  /// One book, from where the route says.
  func book(id: Int) async throws(CatalogError) -> LoadedBook {
    switch route() {
    case .localOnly:
      return try await fallbackBook(id: id, reason: nil, error: nil)
    case .localFirst:
      if let answer = await localFirstBook(id: id) { return answer }
      // The local catalogue lacks it: the server is asked (or the fallbacks when it cannot).
      if service.network.current == .simulatedOffline {
        return try await fallbackBook(id: id, reason: "simulated offline", error: nil)
      }
      if let note = skippedServerNote() {
        return try await fallbackBook(id: id, reason: note, error: nil)
      }
    case .fallback(let why):
      return try await fallbackBook(id: id, reason: why, error: nil)
    case .server:
      break
    }
    let asked = ContinuousClock.now
    do {
      let book = try await service.client.book(id: id)
      answered()
      upsertSeen([book])
      return LoadedBook(book: book, source: .network)
    } catch {
      if case .cancelled = error { throw .cancelled }
      guard error.isUnavailable else { throw .server(error) }
      failed(error, asked: asked)
      return try await fallbackBook(id: id, reason: error.description, error: error)
    }
  }

  /// The books with these ids, in order, each answered as ``book(id:)`` answers it, but in
  /// bulk: the server is asked for a page of them at a time (`ids=`, 32 a request, not a
  /// request each), the fallbacks read the saved favourites in one go. An id the bulk answers
  /// lack (not on the server, a failure) goes through ``book(id:)`` itself, for its own
  /// fallback or its own error.
  func books(ids: [Int]) async -> [Result<LoadedBook, CatalogError>] {
    var answers: [Int: LoadedBook] = [:]
    switch route() {
    case .localOnly:
      answers = await fallbackBooks(ids, reason: nil)
    case .fallback(let reason):
      answers = await fallbackBooks(ids, reason: reason)
    case .server:
      let asked = await serverBooks(ids)
      answers = asked.answers
      // The server cannot be used: the ids it did not answer come from the fallbacks at once
      // (as each would after its own attempt), not after an attempt (and its retries) each.
      if let failure = asked.failure {
        let left = ids.filter { answers[$0] == nil }
        answers.merge(await fallbackBooks(left, reason: failure.description)) { old, _ in old }
      }
    case .localFirst:
      // Each is a read of the local files already (the server only for a missing summary).
      break
    }
    var results: [Result<LoadedBook, CatalogError>] = []
    results.reserveCapacity(ids.count)
    for id in ids {
      if let known = answers[id] {
        results.append(.success(known))
        continue
      }
      // Interrupted: the rest are not looked for, one by one.
      if Task.isCancelled {
        results.append(.failure(.cancelled))
        continue
      }
      do {
        results.append(.success(try await book(id: id)))
      } catch {
        results.append(.failure(error))
      }
    }
    return results
  }

  /// The books among `ids` the server sends, asked a page of ids at a time, and the failure
  /// that made the server unusable, if one did. It stops at the first failure (the ids left
  /// are answered as ``book(id:)`` answers them).
  private func serverBooks(_ ids: [Int]) async -> (
    answers: [Int: LoadedBook], failure: GutendexError?
  ) {
    var answers: [Int: LoadedBook] = [:]
    var seen = Set<Int>()
    let unique = ids.filter { seen.insert($0).inserted }
    for start in stride(from: 0, to: unique.count, by: BookQuery.pageSize) {
      let chunk = Array(unique[start..<min(start + BookQuery.pageSize, unique.count)])
      let asked = ContinuousClock.now
      do {
        let page = try await service.client.page(BookQuery(ids: chunk))
        answered()
        // Only the books asked for: a server that ignored the filter sends others.
        let wanted = Set(chunk)
        let books = page.results.filter { wanted.contains($0.id) }
        upsertSeen(books)
        for book in books { answers[book.id] = LoadedBook(book: book, source: .network) }
      } catch {
        guard error.isUnavailable else { return (answers, nil) }
        failed(error, asked: asked)
        return (answers, error)
      }
    }
    return (answers, nil)
  }

  /// ``fallbackBook(id:reason:error:)`` for many ids: the saved favourites read at once, then
  /// the local catalogue. The ids neither holds, or that fail, are left out.
  private func fallbackBooks(_ ids: [Int], reason: String?) async -> [Int: LoadedBook] {
    var answers: [Int: LoadedBook] = [:]
    let favorites = service.favorites
    let saved = try? await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.favorites(ids: ids)
    }
    for favorite in saved ?? [] {
      answers[favorite.book.id] = Self.savedCopy(favorite, reason: reason)
    }
    guard let local = service.local, let store = try? local.store() else { return answers }
    for id in ids where answers[id] == nil {
      guard let book = try? store.book(id: id) else { continue }
      answers[id] = LoadedBook(book: book, source: .local(name: local.name), fallbackReason: reason)
    }
    return answers
  }

  /// Checks whether the server answers, with one small request and no retries.
  ///
  /// Simulated offline and local-only mode send nothing and answer false: the user switched
  /// the server off, so not even a probe may reach it.
  func probe(timeout: Duration) async -> Bool {
    guard service.mode != .localOnly, service.network.current != .simulatedOffline else {
      return false
    }
    var probe = service.client
    probe.retry = .none
    probe.timeout = timeout
    do {
      _ = try await probe.page(BookQuery(ids: [1]))
      service.network.markOnline()
      return true
    } catch {
      if error.isUnavailable { service.network.markOffline(error.description, at: service.now()) }
      return false
    }
  }

  // MARK: - The server's answers and failures

  /// The server answered: pages go to it again.
  private func answered() {
    service.network.markOnline()
    service.outage?.clear()
  }

  /// The server could not be used: remembered when it cost a wait (a timeout, a stall): a
  /// refusal costs nothing to try again, and trying it again uses the server the moment it is
  /// back. A refusal is known by its kind, not its time: on a loaded machine one can take a
  /// second to arrive, and a read must not leave a memory of it behind.
  private func failed(_ error: GutendexError, asked: ContinuousClock.Instant) {
    service.network.markOffline(error.description, at: service.now())
    guard !error.isRefusal, ContinuousClock.now - asked >= .seconds(1) else { return }
    service.outage?.record(server: service.server, reason: error.description, at: service.now())
  }

  /// Why the server is skipped now: it failed (here or in another process) within the last
  /// few minutes. The note says how to wait for it instead. Asking for it starts a retry in
  /// the background, which forgets the failure when the server answers.
  private func skippedServerNote() -> String? {
    guard let outage = service.outage,
      let failure = outage.recent(server: service.server, now: service.now())
    else { return nil }
    if !service.network.current.isOffline {
      service.network.markOffline(failure.reason, at: failure.at)
    }
    service.retryServerInBackground(outage)
    return "\(failure.reason); asking the server again in the background (to wait for it: "
      + "--source server, or offline off in the browser)"
  }

  // MARK: - The fallbacks

  /// Stores a page that arrived in the page cache; a cache that cannot be written must not
  /// stop browsing (the request log shows it).
  private func cache(_ page: BookPage, for query: BookQuery) async {
    guard let cache = service.cache else { return }
    let fetchedAt = service.now()
    do {
      try await StoreWork.run(on: cache.busyWait) { () throws(StoreError) in
        try cache.store(page, for: query, fetchedAt: fetchedAt)
      }
    } catch {
      // Cancelled after the page arrived: the page is still good to show.
      if error != .cancelled {
        service.record(url: "cache", origin: .cache, error: error.description)
      }
    }
  }

  /// The cached copy of the page, else the local catalogue's.
  func fallbackPage(_ query: BookQuery, reason: String, error: GutendexError?)
    async throws(CatalogError) -> LoadedPage
  {
    var cached: CachedPage?
    if let cache = service.cache {
      let date = service.now()
      do {
        cached = try await StoreWork.run(on: cache.busyWait) { () throws(StoreError) in
          try cache.page(for: query, now: date)
        }
      } catch {
        if error == .cancelled { throw .cancelled }
        service.record(url: "cache", origin: .cache, error: error.description)
      }
    }
    if let cached {
      service.record(url: "cache: \(query.encoded)", origin: .cache, error: nil)
      return LoadedPage(
        query: query, page: cached.page, source: .cache(fetchedAt: cached.fetchedAt),
        fallbackReason: reason)
    }
    if service.local != nil {
      return try await localPage(query, reason: reason)
    }
    if let error { throw .server(error) }
    throw .notAvailableOffline("this page")
  }

  /// The local catalogue's page.
  func localPage(_ query: BookQuery, reason: String?) async throws(CatalogError) -> LoadedPage {
    guard let local = service.local else { throw .notAvailableOffline("this page") }
    let store = try local.store()
    let start = ContinuousClock.now
    do {
      let page = try store.page(query)
      service.record(
        url: "local: \(query.encoded)", origin: .local, error: nil,
        duration: ContinuousClock.now - start)
      return LoadedPage(
        query: query, page: page, source: .local(name: local.name), fallbackReason: reason)
    } catch {
      let failure = Self.localFailure(error, in: local)
      service.record(url: "local: \(query.encoded)", origin: .local, error: failure.description)
      // Standing in for the server, a page the local catalogue lacks is simply not available
      // offline; the catalogue's own page count would describe a server nobody asked.
      if reason != nil, case .pageOutOfRange = error { throw .notAvailableOffline("this page") }
      throw failure
    }
  }

  /// A favourite's snapshot standing in for the server's copy, dated when it was last saved.
  private static func savedCopy(_ favorite: Favorite, reason: String?) -> LoadedBook {
    LoadedBook(
      book: favorite.book, source: .favorite(savedAt: favorite.refreshedAt ?? favorite.addedAt),
      fallbackReason: reason)
  }

  /// The saved favourite, else the local catalogue's copy.
  private func fallbackBook(id: Int, reason: String?, error: GutendexError?)
    async throws(CatalogError) -> LoadedBook
  {
    let favorites = service.favorites
    let saved = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.favorite(id: id)
    }
    if let favorite = saved { return Self.savedCopy(favorite, reason: reason) }
    if let local = service.local {
      let store = try local.store()
      do {
        return LoadedBook(
          book: try store.book(id: id), source: .local(name: local.name), fallbackReason: reason)
      } catch {
        // Standing in for the server, a book the local catalogue lacks is not available
        // offline; in local-only mode the catalogue is the source, so its miss stands.
        if case .notFound = error {
          throw service.mode == .localOnly
            ? .notInLocalCatalogue(id) : .notAvailableOffline("book \(id)")
        }
        throw Self.localFailure(error, in: local)
      }
    }
    if let error { throw .server(error) }
    throw .notAvailableOffline("book \(id)")
  }

  /// A book from the local catalogue when it answers first: a copy seen since the last sync,
  /// else the catalogue's; when it has no summary and the server can be asked, the server's
  /// (once: it is kept). Nil when the local catalogue lacks the book (the server is asked).
  private func localFirstBook(id: Int) async -> LoadedBook? {
    guard let local = service.local else { return nil }
    let found: Book
    if let seen = local.files?.seenBook(id: id), let book = try? Book.decode(from: seen) {
      // The server's own copy since the last sync: asked once already, summary or not.
      return LoadedBook(book: book, source: .local(name: local.name))
    } else {
      guard let book = try? local.store().book(id: id) else { return nil }
      found = book
    }
    if found.summaries?.isEmpty ?? true, service.network.current != .simulatedOffline,
      let fresh = try? await service.client.book(id: id)
    {
      service.network.markOnline()
      upsertSeen([fresh])
      return LoadedBook(book: fresh, source: .network)
    }
    return LoadedBook(book: found, source: .local(name: local.name))
  }

  /// What a store's failure means to the front.
  static func localFailure(_ error: CatalogueStoreError, in local: LocalCatalogue) -> CatalogError {
    switch error {
    case .notFound(let id): .notInLocalCatalogue(id)
    case .pageOutOfRange(let page, let pageCount): .pageOutOfRange(page: page, pageCount: pageCount)
    case .damaged(let reason): .localCatalogueUnavailable("the \(local.name) is damaged: \(reason)")
    }
  }

  /// Keeps what the server sent in normal use for the local catalogue: the books go to the
  /// pending list the next sync merges (and a local detail reads at once). Best effort: a
  /// running sync or a file that cannot be written skips it (the request log says so).
  func upsertSeen(_ books: [Book]) {
    guard let files = service.local?.files, !books.isEmpty else { return }
    do {
      try files.upsertSeen(books.map(\.rawJSON))
    } catch {
      service.record(url: "local catalogue", origin: .local, error: error.description)
    }
  }
}
