import Foundation
import Gutendex
import Synchronization

/// A short log of recent requests for the status screen (the seed apps' "sync log").
public final class RequestLog: Sendable {
  /// One request or lookup: what, how it ended, how long, and where the answer came from.
  public struct Entry: Sendable, Hashable {
    /// Where an answer came from: the server, the page cache or the local catalogue.
    public enum Origin: String, Sendable, Hashable {
      case network, cache, local
    }

    /// The HTTP method sent (`GET`, or `PUT` and `POST` for progress sync); nil for an answer
    /// found without a request (the page cache or the local catalogue).
    public var method: String? = nil
    /// When the request started.
    public var date: Date
    /// The URL asked for.
    public var url: String
    /// The HTTP status, when one arrived.
    public var status: Int?
    /// One line on the failure, if it failed.
    public var error: String?
    /// How long it took, retries included.
    public var duration: Duration
    /// Where the answer came from.
    public var origin: Origin
  }

  /// How many entries are kept; older ones are dropped.
  public let capacity: Int
  private let entries = Mutex<[Entry]>([])

  /// An empty log keeping at most `capacity` entries.
  public init(capacity: Int = 50) {
    self.capacity = max(1, capacity)
  }

  /// Adds an entry, dropping the oldest beyond ``capacity``.
  public func record(_ entry: Entry) {
    entries.withLock { list in
      list.append(entry)
      if list.count > capacity { list.removeFirst(list.count - capacity) }
    }
  }

  /// Adds the entry of one attempt at a request sent to a server (its URL redacted), made at
  /// `date`.
  public func record(_ event: RequestEvent, at date: Date) {
    record(
      Entry(
        method: event.method, date: date, url: event.url.redacted, status: event.status,
        error: event.error?.description, duration: event.duration, origin: .network))
  }

  /// The newest `limit` entries, newest first.
  public func recent(_ limit: Int = 10) -> [Entry] {
    // `suffix` traps on a negative length; a negative limit simply asks for nothing.
    entries.withLock { Array($0.suffix(max(0, limit)).reversed()) }
  }
}
