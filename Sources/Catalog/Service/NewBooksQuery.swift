import Foundation
import Gutendex
import GutendexEngine

/// The books syncs added that the user has not seen (or since a date), ranked by what the user
/// keeps: the work behind ``CatalogService/newBooks(since:languages:limit:)``.
struct NewBooksQuery: Sendable {
  let service: CatalogService

  /// The books syncs added to the local catalogue since `since` (in `languages`, when given),
  /// those by authors of your favourites first, then those in their subjects and on their
  /// bookshelves, then the rest: the first `limit` of them (all when nil), with the counts of
  /// all. Reads the arrivals the syncs recorded, the local catalogue and the favourites; never
  /// asks the server.
  func run(
    since: NewBooks.Since, languages: [String], limit: Int?
  ) async throws(CatalogError) -> NewBooks {
    guard let files = service.local?.files else {
      throw .localCatalogueUnavailable("there is no local catalogue: nothing is recorded as new")
    }
    // A damaged state file or index: nothing listed, said once; the next sync rebuilds them
    // (as `list` answers from the embedded catalogue meanwhile).
    let state: SyncState?
    let damage: String?
    do {
      state = try files.readState()
      damage = nil
    } catch {
      state = nil
      damage = error.description
    }
    let lastSync = state?.runs.last { $0.result != .failed }?.started
    let hasSynced = lastSync != nil
    let from: Date
    let seen = since == .unseen ? files.readNewSeen() : nil
    switch since {
    case .lastSync: from = lastSync ?? Self.snapshotStart
    case .unseen: from = seen ?? Self.snapshotStart
    case .date(let date): from = date
    }
    func nothingNew(damage: String? = nil) -> NewBooks {
      var none = NewBooks(
        items: [], since: from, sinceLastSync: since == .lastSync && hasSynced,
        hasSynced: hasSynced, damage: damage)
      none.unseen = since == .unseen
      return none
    }
    if let damage { return nothingNew(damage: damage) }
    // Arrivals are kept to the second, as the state keeps a sync's start (cut, not rounded);
    // the books new to the user are those added after the newest one shown.
    let threshold = from.timeIntervalSince1970.rounded(.down)
    let arrivals = files.readArrivals().filter {
      seen == nil
        ? $0.added.timeIntervalSince1970 >= threshold : $0.added.timeIntervalSince1970 > threshold
    }
    guard !arrivals.isEmpty else { return nothingNew() }
    let engine: GutendexEngine
    do {
      engine = try files.openEngine()
    } catch {
      return nothingNew(damage: "\(error)")
    }
    // Every arrival is ranked as its facets are read (the delta and, for many books, the base
    // read as streams), keeping a rank per book, never the books: a refresh may add tens of
    // thousands.
    let kept = try await service.allFavorites(order: .newest).map(\.book)
    let ranker = NewBooks.Ranker(favorites: kept)
    let wanted = Set(languages.map { $0.lowercased() })
    var slot: [Int: Int32] = [:]
    slot.reserveCapacity(arrivals.count)
    for (index, arrival) in arrivals.enumerated() { slot[arrival.id] = Int32(index) }
    // Per arrival in the catalogue (and in the languages): its reason's rank (3 for none).
    var found: [(arrival: Int32, rank: UInt8)] = []
    BookFacets.forEach(of: Set(slot.keys), in: engine) { facets in
      guard let index = slot[facets.id] else { return }
      if !wanted.isEmpty, !facets.languages.contains(where: { wanted.contains($0.lowercased()) }) {
        return
      }
      let reason = ranker.reason(Self.facets(facets))
      found.append((index, UInt8(reason?.rank ?? 3)))
    }
    found.sort { left, right in
      left.rank != right.rank
        ? left.rank < right.rank : arrivals[Int(left.arrival)].id > arrivals[Int(right.arrival)].id
    }
    // Only the books shown are read whole (their JSON written and parsed).
    let items = found.prefix(limit ?? found.count).compactMap { entry -> NewBooks.Item? in
      let arrival = arrivals[Int(entry.arrival)]
      guard let json = engine.bookJSON(id: arrival.id), let book = try? Book.decode(from: json),
        let facets = BookFacets.of(id: arrival.id, in: engine)
      else { return nil }
      return NewBooks.Item(
        book: book, added: arrival.added, issued: arrival.issued,
        reason: ranker.reason(Self.facets(facets)))
    }
    let ranked = found
    var listed = NewBooks(
      items: items, total: ranked.count,
      byAuthorsYouKeep: ranked.count { $0.rank == 0 },
      inSubjectsYouKeep: ranked.count { $0.rank == 1 || $0.rank == 2 }, since: from,
      sinceLastSync: since == .lastSync && hasSynced, hasSynced: hasSynced)
    listed.unseen = since == .unseen
    listed.newestAdded = found.map { arrivals[Int($0.arrival)].added }.max()
    return listed
  }

  /// What the ranking reads of a book.
  static func facets(_ book: BookFacets) -> NewBooks.Facets {
    NewBooks.Facets(
      id: book.id, authors: book.authors, subjects: book.subjects, bookshelves: book.bookshelves)
  }

  /// The first day of the embedded snapshot's month: before any sync, nothing is newer.
  static var snapshotStart: Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let parts = EmbeddedCatalogue.snapshotDate.split(separator: "-").compactMap { Int($0) }
    let components = DateComponents(
      year: parts.first ?? 2025, month: parts.count > 1 ? parts[1] : 1, day: 1)
    return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
  }
}
