import Foundation

/// What the app knows about the server's reachability, for the front's banner.
public enum NetworkState: Sendable, Hashable {
  /// Nothing has been asked yet.
  case unknown
  /// The last request reached the server.
  case online
  /// The last request could not reach the server (or it failed), since that date.
  case offline(reason: String, since: Date)
  /// The user switched the network off ("simulate offline"); nothing is sent.
  case simulatedOffline
  /// The local catalogue was chosen as the source; the server is not used.
  case localOnly

  /// True when pages cannot come from the server right now.
  public var isOffline: Bool {
    switch self {
    case .offline, .simulatedOffline, .localOnly: true
    case .unknown, .online: false
    }
  }
}
