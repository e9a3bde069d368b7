import Foundation

/// `new-seen`: the arrival time (unix seconds) of the newest book `gutenberg new` has shown, so
/// that `new` lists what is new to the user (books added after it), whatever syncs came in
/// between. A file of its own, not a field of `state.json`: `new` only reads the catalogue and
/// must not race a sync rewriting its state.
extension LocalCatalogueFiles {
  var newSeenURL: URL { directory.appendingPathComponent("new-seen") }

  /// The newest arrival shown, nil before `new` showed any (or when the file is unreadable).
  public func readNewSeen() -> Date? {
    guard let data = try? Data(contentsOf: newSeenURL),
      let seconds = Double(
        String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
      seconds.isFinite
    else { return nil }
    return Date(timeIntervalSince1970: seconds)
  }

  /// Records that the arrivals up to `date` were shown (the marker never moves back). Best
  /// effort: a read-only data directory keeps the old marker.
  public func markNewSeen(upTo date: Date) {
    if let seen = readNewSeen(), seen >= date { return }
    let seconds = String(Int64(date.timeIntervalSince1970.rounded(.down)))
    try? AtomicFile.write(Data((seconds + "\n").utf8), to: newSeenURL, durable: false)
  }
}
