import Foundation

/// A sync's new delta index, built as its pending books are read one at a time: each book that
/// differs from what the catalogue holds goes to a ``StreamedIndex`` (the previous delta's books
/// under it), and its JSON to a spill so that a later copy of the same book is compared with
/// it. What is held per book is its id and where its JSON lies; the books themselves are on
/// disk. Only the delta is written: the base is never rebuilt.
///
/// The same rules as reading them all first (``CatalogueUpsert/deltaIndex(upserting:)``): a
/// book is added when the catalogue lacks it, updated when its JSON differs from the copy held
/// then (the delta's, the base's, or an earlier pending copy); one the index cannot store is
/// left out and named; one cut to the index's limits goes in cut, and is named too.
struct DeltaBuilder {
  let engine: GutendexEngine
  private var index: StreamedIndex
  /// The JSON of each differing copy, in the order read.
  private var copies: SpillFile
  /// Per book with a differing copy: where its latest copy's JSON lies in ``copies``.
  private var latest: [Int: (offset: Int, count: Int)] = [:]
  private(set) var added: Set<Int> = []
  private(set) var updated: Set<Int> = []
  /// One phrase per book left out ("book 5 (download_count … is out of range …)").
  private(set) var skipped: [String] = []
  /// One phrase per book cut to the index's limits.
  private(set) var cut: [String] = []
  /// How many pending books were read (what "pending book #N" counts).
  private(set) var read = 0

  /// A builder over `engine` (the catalogue before the sync), its files in `directory`.
  init(engine: GutendexEngine, in directory: URL) throws(SyncFileError) {
    self.engine = engine
    index = try StreamedIndex(in: directory)
    copies = SpillFile(in: directory, bufferSize: 1 << 16)
  }

  /// Frees the temporary files.
  func close() {
    index.close()
    copies.close()
  }

  /// Reads one pending book (raw JSON in the server's shape).
  mutating func add(_ data: some Collection<UInt8>) throws {
    defer { read += 1 }
    switch IncomingBooks.read(Array(data)) {
    case .book(let fresh, let cuts):
      if !cuts.isEmpty { cut.append("book \(fresh.id) (\(cuts.joined(separator: ", ")))") }
      try take(fresh)
    case .hidden:
      break
    case .unreadable(let error):
      skipped.append("pending book #\(read) (\(error.reason))")
    case .outOfRange(let problem):
      skipped.append("book \(problem.id) (\(problem))")
    }
  }

  private mutating func take(_ fresh: BookRecord) throws {
    let json = fresh.json
    if let current = try latestJSON(fresh.id) ?? engine.bookJSON(id: fresh.id).map(Array.init) {
      guard current != json else { return }
      if !added.contains(fresh.id) { updated.insert(fresh.id) }
    } else {
      added.insert(fresh.id)
    }
    let offset = try copies.append(json)
    latest[fresh.id] = (offset, json.count)
    try index.add(fresh)
  }

  private func latestJSON(_ id: Int) throws -> [UInt8]? {
    guard let place = latest[id] else { return nil }
    var bytes: [UInt8] = []
    try copies.read(at: place.offset, count: place.count, into: &bytes)
    return bytes
  }

  /// Whether a book's latest copy differs from the catalogue's (what
  /// ``CatalogueUpsert/changes(upserting:)`` finds): when none does, nothing need be written.
  func hasChanges() throws -> Bool {
    for id in latest.keys {
      guard let json = try latestJSON(id), let current = engine.bookJSON(id: id) else {
        return true
      }
      if !current.elementsEqual(json) { return true }
    }
    return false
  }

  /// Writes the new delta to `url` (created, synced to disk): the previous delta's books and
  /// the pending ones that differ, the latter replacing the former. Returns how many books the
  /// catalogue then holds.
  mutating func write(to url: URL) throws -> Int {
    if let delta = engine.delta {
      var index = self.index
      try delta.forEachRecord { try index.add($0, superseded: true) }
      self.index = index
    }
    let engine = self.engine
    var newInDelta = 0
    try index.write(to: url, keepingSummaries: true) { id, _ in
      if !engine.baseHolds(id) { newInDelta += 1 }
    }
    return engine.baseBookCount + newInDelta
  }
}
