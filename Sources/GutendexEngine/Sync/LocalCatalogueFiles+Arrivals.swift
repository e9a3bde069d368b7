import Foundation

/// `arrivals.tsv`: one line per book a sync added, `<id>\t<unix seconds>\t<issued>`, so that
/// `gutenberg new` can say what arrived when without reading the catalogue. Replaced whole
/// (``AtomicFile``) before the state that makes the books visible, so a crash in between only
/// leaves lines for books the catalogue does not have yet (they are skipped, and the next sync
/// records them again, the later line winning).
extension LocalCatalogueFiles {
  /// How many arrivals the file keeps (the newest): years of Project Gutenberg's releases.
  public static let arrivalLimit = 50_000

  var arrivalsURL: URL { directory.appendingPathComponent("arrivals.tsv") }

  /// The recorded arrivals, oldest first, one per book (its latest); a damaged line is skipped.
  public func readArrivals() -> [Arrival] {
    guard let data = Self.contents(of: arrivalsURL) else { return [] }
    return Self.parseArrivals(data)
  }

  static func parseArrivals(_ data: Data) -> [Arrival] {
    var arrivals: [Arrival] = []
    var position: [Int: Int] = [:]
    for line in data.split(separator: 0x0A) {
      let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
      guard fields.count >= 2,
        let id = Int(String(decoding: fields[0], as: UTF8.self)), id > 0,
        let seconds = Double(String(decoding: fields[1], as: UTF8.self)), seconds.isFinite
      else { continue }
      let issuedText = fields.count > 2 ? String(decoding: fields[2], as: UTF8.self) : ""
      let arrival = Arrival(
        id: id, added: Date(timeIntervalSince1970: seconds),
        issued: Arrival.isIssuedDate(issuedText) ? issuedText : nil)
      if let index = position[id] {
        arrivals[index] = arrival
      } else {
        position[id] = arrivals.count
        arrivals.append(arrival)
      }
    }
    return arrivals.sorted { ($0.added, $0.id) < ($1.added, $1.id) }
  }

  /// Records that `ids` arrived at `date` (with the feed's release dates, when given), keeping
  /// the newest ``arrivalLimit``.
  func recordArrivals(
    _ ids: [Int], at date: Date, issued: [Int: String] = [:]
  ) throws(SyncFileError) {
    try recordArrivals(ids, at: date) { issued[$0] }
  }

  /// Records that `ids` arrived at `date`, `issued` giving each one's release date; the file
  /// is written as it is made (a feed refresh adds tens of thousands of books at once: a
  /// dictionary of their dates, a set of their ids and the whole text at once cost megabytes
  /// that grew with the feed).
  func recordArrivals(
    _ ids: [Int], at date: Date, issued: (Int) -> String?
  ) throws(SyncFileError) {
    guard !ids.isEmpty else { return }
    let fresh = ids.sorted()
    func isFresh(_ id: Int) -> Bool {
      var low = 0
      var high = fresh.count
      while low < high {
        let middle = (low + high) / 2
        if fresh[middle] < id { low = middle + 1 } else { high = middle }
      }
      return low < fresh.count && fresh[low] == id
    }
    // The older arrivals first (a book arriving again takes its new line), then these; only
    // the newest `arrivalLimit` are kept, the oldest dropped first.
    let older = readArrivals().filter { !isFresh($0.id) }
    var distinct = 0
    for (index, id) in fresh.enumerated() where index == 0 || fresh[index - 1] != id {
      distinct += 1
    }
    var skip = max(0, older.count + distinct - Self.arrivalLimit)
    let seconds = String(Int64(date.timeIntervalSince1970.rounded(.down)))
    try AtomicFile.write(to: arrivalsURL) { (emit) throws(SyncFileError) in
      var piece: [UInt8] = []
      piece.reserveCapacity(1 << 16)
      func line(_ id: Int, _ when: String, _ issued: String?) throws(SyncFileError) {
        if skip > 0 {
          skip -= 1
          return
        }
        piece.append(contentsOf: String(id).utf8)
        piece.append(0x09)
        piece.append(contentsOf: when.utf8)
        piece.append(0x09)
        if let issued { piece.append(contentsOf: issued.utf8) }
        piece.append(0x0A)
        if piece.count >= 1 << 16 {
          try piece.withFileBytes { (bytes) throws(SyncFileError) in try emit(bytes) }
          piece.removeAll(keepingCapacity: true)
        }
      }
      for arrival in older {
        let when =
          arrival.added == date
          ? seconds : String(Int64(arrival.added.timeIntervalSince1970.rounded(.down)))
        try line(arrival.id, when, arrival.issued)
      }
      for (index, id) in fresh.enumerated() where index == 0 || fresh[index - 1] != id {
        try line(id, seconds, issued(id))
      }
      try piece.withFileBytes { (bytes) throws(SyncFileError) in try emit(bytes) }
    }
  }
}
