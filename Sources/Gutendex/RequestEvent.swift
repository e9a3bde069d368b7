import Foundation

/// What one attempt at a request did, reported to the client's observer (for a request log).
public struct RequestEvent: Sendable, Hashable {
  /// The request's method: `GET`, or `PUT` and `POST` for progress sync and sign-up.
  public var method: String
  /// The URL asked for.
  public var url: URL
  /// The HTTP status, when a response arrived.
  public var status: Int?
  /// The error the attempt ended with, if any.
  public var error: GutendexError?
  /// How long the attempt took.
  public var duration: Duration
  /// 1 for the first attempt, 2 for the first retry, ...
  public var attempt: Int

  /// An event for one attempt at `url` with `method`.
  public init(
    method: String = "GET", url: URL, status: Int?, error: GutendexError?, duration: Duration,
    attempt: Int
  ) {
    self.method = method
    self.url = url
    self.status = status
    self.error = error
    self.duration = duration
    self.attempt = attempt
  }
}
