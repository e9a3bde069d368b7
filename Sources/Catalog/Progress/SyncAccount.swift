import Foundation

/// The kosync login kept in the data directory (`progress/account.json`, mode 0600): the
/// server, the user name and the key the protocol sends in `x-auth-key`, which is the MD5 of the
/// password (the password itself is never kept). The key is never printed.
public struct SyncAccount: Sendable, Hashable, Codable {
  /// The server's base URL, as given to `progress login`.
  public var server: String
  /// The user name.
  public var user: String
  /// The MD5 of the password, as KOReader sends it.
  public var key: String
  /// The name other devices see (`device` in each record).
  public var device: String
  /// How books are matched with KOReader's records.
  public var match: String

  /// An account for `user` at `server` with the password's key.
  public init(server: String, user: String, key: String, device: String, match: DocumentKey.Method)
  {
    self.server = server
    self.user = user
    self.key = key
    self.device = device
    self.match = match.rawValue
  }

  /// The matching method, binary when the file names none it knows.
  public var method: DocumentKey.Method { DocumentKey.Method(rawValue: match) ?? .binary }

  /// The server's URL, nil when the file holds something that is not one.
  public var serverURL: URL? {
    URL(string: server).flatMap { ["http", "https"].contains($0.scheme?.lowercased()) ? $0 : nil }
  }

  /// The server as it may be printed (a password in the URL replaced by `***`).
  public var printableServer: String { serverURL?.redacted ?? server }
}
