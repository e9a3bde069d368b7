import Foundation

/// Measured values of one kind (durations in seconds, or sizes in bytes), with order statistics.
struct Samples: Sendable {
  private(set) var values: [Double] = []

  init(_ values: [Double] = []) {
    self.values = values
  }

  mutating func append(_ value: Double) {
    values.append(value)
  }

  var count: Int { values.count }
  var sorted: [Double] { values.sorted() }
  var min: Double { sorted.first ?? .nan }
  var max: Double { sorted.last ?? .nan }
  var median: Double { quantile(0.5) }
  var p90: Double { quantile(0.9) }

  /// The `q`-quantile by linear interpolation between the closest ranks.
  func quantile(_ q: Double) -> Double {
    let values = sorted
    guard !values.isEmpty else { return .nan }
    let position = q * Double(values.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = Swift.min(lower + 1, values.count - 1)
    let fraction = position - Double(lower)
    return values[lower] + (values[upper] - values[lower]) * fraction
  }
}

/// Wall-clock timing with the monotonic clock.
enum Stopwatch {
  /// Seconds `body` took.
  static func time(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    return seconds(ContinuousClock.now - start)
  }

  /// Seconds `body` took (async).
  static func time(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void)
    async rethrows -> Double
  {
    let start = ContinuousClock.now
    try await body()
    return seconds(ContinuousClock.now - start)
  }

  static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }
}
