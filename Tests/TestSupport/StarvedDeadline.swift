import Foundation

/// A deadline that does not count the time the machine had no CPU to give.
///
/// A child process (the real binary) on two cores shared with six CPU-bound processes and a
/// parallel test run can wait minutes for a CPU: a feed sync that takes 20 s alone took over
/// 300 s at load 30. Wall time then says nothing about whether it hangs. So the time counted is
/// wall time less the time Linux's pressure stall information (`/proc/pressure/cpu`, "some")
/// says tasks were waiting for a CPU; a child that hangs on a quiet machine (asleep on a socket,
/// a lock) is counted in full. Where that file is missing the deadline is plain wall time.
/// However starved the machine, the wait ends at ``cap`` of wall time.
public struct StarvedDeadline: Sendable {
  /// The time a wait may count.
  public let limit: Duration
  /// The most wall time the wait may take, whatever the load.
  public let cap: Duration
  private let start: ContinuousClock.Instant
  private let startStall: Int?

  /// A deadline `limit` from now, counted as described above.
  public init(_ limit: Duration) {
    self.limit = limit
    cap = max(limit * 10, limit + .seconds(600))
    start = .now
    startStall = Self.stallMicroseconds()
  }

  /// Whether the counted time (or the cap) has passed.
  public var hasPassed: Bool {
    let elapsed = ContinuousClock.now - start
    if elapsed > cap { return true }
    guard elapsed > limit else { return false }
    guard let startStall, let stall = Self.stallMicroseconds() else { return true }
    let starved = Duration.microseconds(max(0, stall - startStall))
    return elapsed - min(starved, elapsed) > limit
  }

  /// How long `body` took, less the time tasks waited for a CPU meanwhile (wall time where
  /// there is no pressure stall information): for a check that a process did not wait for
  /// something, which a starved machine would fail by its own slowness.
  public static func counted<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let startStall = stallMicroseconds()
    let value = try await body()
    let elapsed = ContinuousClock.now - start
    guard let startStall, let stall = stallMicroseconds() else { return (value, elapsed) }
    let starved = Duration.microseconds(max(0, stall - startStall))
    return (value, elapsed - min(starved, elapsed))
  }

  /// Microseconds some task has waited for a CPU since boot ("some … total=" of
  /// /proc/pressure/cpu), nil without pressure stall information.
  static func stallMicroseconds() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/pressure/cpu", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("some ") }),
      let field = line.split(separator: " ").first(where: { $0.hasPrefix("total=") })
    else { return nil }
    return Int(field.dropFirst("total=".count))
  }
}
