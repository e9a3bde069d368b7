import Foundation
import Gutendex

/// A recent failure to reach the server (a timeout, a refused connection), kept in a small file
/// of the data directory for a few minutes: until it expires, or the server answers again,
/// pages and books come from the local catalogue at once, in this process and the next ones,
/// instead of each waiting for the same timeout.
struct ServerOutage: Sendable {
  /// How long a failure is trusted before the server is asked again in the foreground.
  static let window: TimeInterval = 180
  /// The file: the server's URL, the failure's time (seconds since 1970) and its reason.
  let file: URL

  /// The failure recorded for `server` less than ``window`` before `now`, if any.
  func recent(server: URL, now: Date) -> (at: Date, reason: String)? {
    // Read without blocking (a FIFO put there is passed over, see ``RegularFile``).
    guard let data = (try? RegularFile.read(file.path, limit: 64 << 10)) ?? nil else {
      return nil
    }
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 3, lines[0] == server.redacted, let seconds = Double(lines[1])
    else { return nil }
    let at = Date(timeIntervalSince1970: seconds)
    let age = now.timeIntervalSince(at)
    guard age >= 0, age < Self.window else { return nil }
    return (at, lines[2])
  }

  /// Remembers that `server` failed at `date` because of `reason` (best effort: a data
  /// directory that cannot be written only loses the memory).
  func record(server: URL, reason: String, at date: Date) {
    let oneLine = reason.replacingOccurrences(of: "\n", with: " ")
    // The server as it may be stored: without credentials.
    let text = "\(server.redacted)\n\(date.timeIntervalSince1970)\n\(oneLine)\n"
    try? Data(text.utf8).write(to: file, options: .atomic)
  }

  /// Forgets the failure (the server answered, or the user asked to wait for it).
  func clear() {
    if FileManager.default.fileExists(atPath: file.path) {
      try? FileManager.default.removeItem(at: file)
    }
  }
}
