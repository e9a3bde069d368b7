import Foundation

/// A deadline that does not count the time the machine had no CPU to give.
///
/// A child process (the real binary) on two cores shared with six CPU-bound processes and a
/// parallel test run can wait minutes for a CPU: a feed sync that takes 20 s alone took over
/// 300 s at load 30. Wall time then says nothing about whether it hangs. So the time counted is
/// wall time less the time Linux's pressure stall information (`/proc/pressure/cpu`, "some")
/// says tasks were waiting for a CPU; a child that hangs on a quiet machine (asleep on a socket,
/// a lock) is counted in full. Where that file is missing the deadline is plain wall time.
///
/// On a machine so loaded that some task always waits (load 40 on 2 cores), that measure
/// counts nothing, so a wait ends at ``cap`` of wall time. A wait on a child process goes on
/// past the cap while the child itself is being starved: the time its process tree spent queued
/// for a CPU (`/proc/<pid>/task/<tid>/schedstat`, per thread) is not counted either. A child
/// that hangs asleep is never queued, so it is still caught at `limit` past the cap; one that
/// spins is caught once its running time passes `limit`. ``hardCap`` bounds everything.
public struct StarvedDeadline: Sendable {
  /// The time a wait may count.
  public let limit: Duration
  /// The most wall time the wait may take, whatever the load, unless the child it waits on
  /// is itself queued for a CPU.
  public let cap: Duration
  /// The most wall time any wait may take.
  public let hardCap: Duration
  private let start: ContinuousClock.Instant
  private let startStall: Int?
  private let process: ProcessTreeQueue?

  /// A deadline `limit` from now, counted as described above; `process` is the child waited
  /// on, when there is one.
  public init(_ limit: Duration, process: pid_t? = nil) {
    self.limit = limit
    cap = max(limit * 10, limit + .seconds(600))
    hardCap = max(limit * 30, limit + .seconds(3600))
    start = .now
    startStall = Self.stallMicroseconds()
    self.process = process.map(ProcessTreeQueue.init(root:))
  }

  /// Whether the counted time (or the cap) has passed.
  public var hasPassed: Bool {
    let elapsed = ContinuousClock.now - start
    if elapsed > hardCap { return true }
    guard elapsed > limit else { return false }
    if elapsed > cap {
      guard let process else { return true }
      // Past the cap only the child's own queueing is discounted.
      return elapsed - min(process.queued(), elapsed) > limit
    }
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
