import Foundation

/// What progress sync keeps between runs (`progress/state.json`): this device's id, and for each
/// book its document key, the last record seen on the server and a push not yet delivered.
public struct ProgressState: Sendable, Hashable, Codable {
  /// This data directory's device id, made once (KOReader's `device_id`).
  public var deviceID: String?
  /// Per book, by Project Gutenberg number.
  public var books: [String: BookProgress] = [:]

  /// No state yet.
  public init() {}

  enum CodingKeys: String, CodingKey {
    case deviceID = "device_id"
    case books
  }

  /// The state of book `id`.
  public subscript(id: Int) -> BookProgress {
    get { books[String(id)] ?? BookProgress() }
    set { books[String(id)] = newValue }
  }

  /// The books with a push waiting, by id.
  public var queued: [(id: Int, push: QueuedPush)] {
    books.compactMap { key, book in
      guard let id = Int(key), let push = book.queued else { return nil }
      return (id, push)
    }.sorted { $0.id < $1.id }
  }
}

/// One book's sync state.
public struct BookProgress: Sendable, Hashable, Codable {
  /// The document key, once computed (KOReader's digest of the same file).
  public var document: String?
  /// The file the key was computed from (its base name), for `status`.
  public var file: String?
  /// The last record the server gave (this device's own after a push).
  public var remote: RemoteProgress?
  /// When it was fetched or written.
  public var checkedAt: Date?
  /// A push that could not be delivered yet.
  public var queued: QueuedPush?

  /// Nothing known.
  public init() {}

  enum CodingKeys: String, CodingKey {
    case document, file, remote, queued
    case checkedAt = "checked_at"
  }
}

/// A position waiting to be pushed.
public struct QueuedPush: Sendable, Hashable, Codable {
  /// How far, from 0 to 1.
  public var percentage: Double
  /// The position string sent with it.
  public var progress: String
  /// When it was read here.
  public var at: Date
  /// Why it is waiting (the failure's line), for `status`.
  public var reason: String?

  /// A waiting push.
  public init(percentage: Double, progress: String, at: Date, reason: String?) {
    self.percentage = percentage
    self.progress = progress
    self.at = at
    self.reason = reason
  }
}
