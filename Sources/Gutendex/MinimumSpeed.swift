/// The slowest a transfer may go: fewer than ``bytesPerSecond`` on average over a whole
/// ``window`` ends it (curl's `--speed-limit` and `--speed-time`), so a server trickling a byte a
/// second cannot hold a download for ever. Time spent waiting for the reader (a slow disk) does
/// not count: only the server's pace is judged.
public struct MinimumSpeed: Sendable, Hashable {
  /// The lowest average rate accepted.
  public var bytesPerSecond: Int
  /// How long the rate must stay below the minimum before the transfer is ended.
  public var window: Duration

  /// The default for book files: 1,024 bytes/s over 60 s.
  public static let standard = MinimumSpeed(bytesPerSecond: 1_024, window: .seconds(60))

  /// At least `bytesPerSecond` on average over every `window`.
  public init(bytesPerSecond: Int, window: Duration) {
    self.bytesPerSecond = bytesPerSecond
    self.window = window
  }
}
