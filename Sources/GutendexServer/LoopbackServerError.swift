/// Why the loopback server could not start.
public enum LoopbackServerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `start()` was called on a server that is already running.
  case alreadyRunning
  /// The socket could not be set up (port in use, say).
  case socket(String)

  /// What went wrong, for a person.
  public var description: String {
    switch self {
    case .alreadyRunning: "the server is already running"
    case .socket(let reason): "cannot listen on 127.0.0.1: \(reason)"
    }
  }
}
