/// How far a download has come, reported as bytes arrive.
public struct DownloadProgress: Sendable, Hashable {
  /// Bytes in the file so far, a resumed part included.
  public var received: Int64
  /// The full size, when the server said.
  public var total: Int64?
  /// Bytes that were already there when this transfer started (a resume).
  public var resumedFrom: Int64

  /// Progress of `received` of `total` bytes.
  public init(received: Int64, total: Int64?, resumedFrom: Int64 = 0) {
    self.received = received
    self.total = total
    self.resumedFrom = resumedFrom
  }

  /// 0...1 when the total is known.
  public var fraction: Double? {
    guard let total, total > 0 else { return nil }
    return min(1, Double(received) / Double(total))
  }
}
