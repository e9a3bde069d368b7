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
    let delta = Self.deltaInMemory(files.deltaURL(state))
    let wanted = Set(languages.map { $0.lowercased() })
    var found: [(arrival: Arrival, facets: NewBooks.Facets)] = []
    for arrival in arrivals {
      // A book recorded by a sync whose state was never written is not in the catalogue.
      guard let facets = delta?.facets(id: arrival.id) ?? engine.facets(id: arrival.id) else {
        continue
      }
      if !wanted.isEmpty, !facets.languages.contains(where: { wanted.contains($0.lowercased()) }) {
        continue
      }
      found.append(
        (
          arrival,
          NewBooks.Facets(
            id: facets.id, authors: facets.authors, subjects: facets.subjects,
            bookshelves: facets.bookshelves)
        ))
    }
    let kept = found.isEmpty ? [] : try await service.allFavorites(order: .newest).map(\.book)
    let ranked = NewBooks.ranked(found.map(\.facets), favorites: kept)
    // Only the books shown are read whole (their JSON written and parsed).
    let items = ranked.prefix(limit ?? ranked.count).compactMap { entry -> NewBooks.Item? in
      let arrival = found[entry.index].arrival
      guard let json = delta?.bookJSON(id: arrival.id) ?? engine.bookJSON(id: arrival.id),
        let book = try? Book.decode(from: json)
      else { return nil }
      return NewBooks.Item(
        book: book, added: arrival.added, issued: arrival.issued, reason: entry.reason)
    }
    var listed = NewBooks(
      items: items, total: ranked.count,
      byAuthorsYouKeep: ranked.count { $0.reason?.rank == 0 },
      inSubjectsYouKeep: ranked.count { ($0.reason?.rank ?? 0) > 0 }, since: from,
      sinceLastSync: since == .lastSync && hasSynced, hasSynced: hasSynced)
    listed.unseen = since == .unseen
    listed.newestAdded = found.map(\.arrival.added).max()
    return listed
  }

  /// The largest delta file read whole into memory to look new books up.
  static let deltaReadLimit = 16 << 20

  /// The delta (the books syncs added, newest copies) read in one piece, when it is small: the
  /// mapped catalogue reads each string of a record with its own `pread` (so that scattered
  /// reads keep the resident size down), which for a thousand new books is tens of thousands
  /// of system calls. Nil when there is no delta, it is large, or it cannot be read (the
  /// mapped catalogue answers then). The delta's copy of a book is the one the catalogue
  /// serves, so looking it up there first gives the same answer.
  static func deltaInMemory(_ url: URL?) -> GutendexEngine? {
    guard let url,
      let size = try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize,
      size <= deltaReadLimit, let data = (try? RegularFile.read(url.path, limit: size)) ?? nil
    else { return nil }
    return try? CatalogueSnapshot.engine(from: data)
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
