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
    guard !ids.isEmpty else { return }
    let fresh = Set(ids)
    var arrivals = readArrivals().filter { !fresh.contains($0.id) }
    arrivals += ids.sorted().map { Arrival(id: $0, added: date, issued: issued[$0]) }
    if arrivals.count > Self.arrivalLimit {
      arrivals.removeFirst(arrivals.count - Self.arrivalLimit)
    }
    var text = ""
    text.reserveCapacity(arrivals.count * 24)
    let seconds = String(Int64(date.timeIntervalSince1970.rounded(.down)))
    for arrival in arrivals {
      let when =
        arrival.added == date
        ? seconds : String(Int64(arrival.added.timeIntervalSince1970.rounded(.down)))
      text += "\(arrival.id)\t\(when)\t\(arrival.issued ?? "")\n"
    }
    try AtomicFile.write(Data(text.utf8), to: arrivalsURL)
  }
}
