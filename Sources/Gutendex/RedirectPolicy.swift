import Foundation

/// Where a redirect may lead: one rule for API pages, one for files (books and Project
/// Gutenberg's feed), used by every request of the program.
public enum RedirectPolicy: Sendable, Hashable {
  /// The API: the same scheme, host and port only, so a server cannot send the client (and
  /// what it asked) elsewhere.
  case sameOrigin
  /// Files: https anywhere; http only on this machine (tests); never from https down to http.
  case files

  /// Why a redirect was refused: where it pointed and the rule it broke.
  public struct Refusal: Error, Sendable, Hashable {
    /// The URL that answered with the redirect.
    public var from: URL
    /// The `Location` as given (or `(none)`).
    public var to: String
    /// The rule it broke, for the user.
    public var reason: String
  }

  /// The most redirects one request follows.
  public static let limit = 5

  /// The URL `location` points to from `current`, or why it may not be followed.
  public func target(from current: URL, location: String?) -> Result<URL, Refusal> {
    guard let location, !location.isEmpty,
      let target = URL(string: location, relativeTo: current)?.absoluteURL, target.host != nil
    else {
      return .failure(
        Refusal(from: current, to: location ?? "(none)", reason: "no usable Location header"))
    }
    switch self {
    case .sameOrigin:
      guard GutendexClient.sameOrigin(target, current) else {
        return .failure(
          Refusal(
            from: current, to: target.absoluteString, reason: "it leaves the server's origin"))
      }
      return .success(target)
    case .files:
      let scheme = target.scheme?.lowercased()
      if scheme == "https" { return .success(target) }
      if scheme == "http", Self.isLoopback(target.host) { return .success(target) }
      if scheme == "http", current.scheme?.lowercased() == "https" {
        return .failure(
          Refusal(
            from: current, to: target.absoluteString, reason: "a downgrade from https to http"))
      }
      return .failure(
        Refusal(
          from: current, to: target.absoluteString,
          reason: "only https is followed (http only on this machine)"))
    }
  }

  /// 127.0.0.0/8, ::1 and localhost.
  static func isLoopback(_ host: String?) -> Bool {
    guard let host = host?.lowercased() else { return false }
    return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
  }
}
