import Foundation
import Gutendex

/// Mirrors that stalled or timed out a few minutes ago, kept in a small file of the data
/// directory (`mirrors-down`: one line each, the mirror without its credentials, the time and
/// the reason), so this process and the next ones try them after the others instead of waiting
/// for the same stall again, as ``ServerOutage`` does for the API server.
struct MirrorOutage: Sendable {
  /// How long a failure is trusted.
  static let window: TimeInterval = 600
  /// The file.
  let file: URL

  /// Why `mirror` failed less than ``window`` before `now`, if it did.
  func recent(_ mirror: DownloadMirror, now: Date) -> String? {
    entries().first { $0.mirror == mirror.base.redacted && fresh($0.at, now: now) }?.reason
  }

  /// Remembers that `mirror` failed at `date` (best effort: a data directory that cannot be
  /// written only loses the memory).
  func record(_ mirror: DownloadMirror, reason: String, at date: Date) {
    var kept = entries().filter { $0.mirror != mirror.base.redacted && fresh($0.at, now: date) }
    kept.append((mirror.base.redacted, date, reason.replacingOccurrences(of: "\n", with: " ")))
    write(kept)
  }

  /// Forgets `mirror`'s failure: it served a file.
  func forget(_ mirror: DownloadMirror) {
    let all = entries()
    let kept = all.filter { $0.mirror != mirror.base.redacted }
    if kept.count != all.count { write(kept) }
  }

  private func fresh(_ at: Date, now: Date) -> Bool {
    let age = now.timeIntervalSince(at)
    return age >= 0 && age < Self.window
  }

  private func entries() -> [(mirror: String, at: Date, reason: String)] {
    // Read without blocking (a FIFO put there is passed over).
    guard let data = (try? RegularFile.read(file.path, limit: 64 << 10)) ?? nil else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
      let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
      guard fields.count == 3, let seconds = Double(fields[1]) else { return nil }
      return (fields[0], Date(timeIntervalSince1970: seconds), fields[2])
    }
  }

  private func write(_ entries: [(mirror: String, at: Date, reason: String)]) {
    if entries.isEmpty {
      try? FileManager.default.removeItem(at: file)
      return
    }
    let text = entries.map { "\($0.mirror)\t\($0.at.timeIntervalSince1970)\t\($0.reason)\n" }
      .joined()
    try? Data(text.utf8).write(to: file, options: .atomic)
  }
}
