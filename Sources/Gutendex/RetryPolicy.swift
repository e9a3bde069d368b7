/// How often and how patiently the client retries 5xx, 429 and broken connections.
///
/// Delays grow exponentially with "equal jitter" (each between half and all of its ceiling);
/// a 429's `Retry-After` is honoured up to ``maxRetryAfter``, beyond which the client reports
/// the rate limit instead of waiting.
public struct RetryPolicy: Sendable, Hashable {
  /// Attempts in all, the first included (1 means never retry).
  public var maxAttempts: Int
  /// The delay before the first retry, doubled for each one after.
  public var baseDelay: Duration
  /// No single delay is longer than this.
  public var maxDelay: Duration
  /// The longest `Retry-After` the client will wait for.
  public var maxRetryAfter: Duration

  /// A policy: how many attempts, and the backoff between them.
  public init(
    maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500),
    maxDelay: Duration = .seconds(8),
    maxRetryAfter: Duration = .seconds(10)
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.maxRetryAfter = maxRetryAfter
  }

  /// Three attempts, 0.5 s then 1 s (jittered), `Retry-After` up to 10 s.
  public static let standard = RetryPolicy()
  /// A single attempt.
  public static let none = RetryPolicy(maxAttempts: 1)

  /// The pause before retry number `retry` (1-based), given a random number in 0..<1.
  public func delay(beforeRetry retry: Int, random: Double) -> Duration {
    let exponent = min(max(retry - 1, 0), 20)
    let ceiling = min(baseDelay * (1 << exponent), maxDelay)
    // Jitter keeps a crowd of clients from retrying in step; keep at least half the
    // ceiling so a retry never hammers the server straight away.
    // A NaN would trap when scaling a Duration; treat it as the middle of the range.
    let unit = random.isNaN ? 0.5 : min(max(random, 0), 1)
    return ceiling * (0.5 + 0.5 * unit)
  }
}
