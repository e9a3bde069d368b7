import Foundation
import TestSupport

/// One run of a child process for a figure: the tests' `ChildProcess` (one harness for both),
/// its streams sent to files so reading them costs the bench nothing.
struct BenchRun {
  /// How one run ended.
  struct Outcome: Sendable {
    /// Wall time from just before `posix_spawn` to the child being reaped.
    var seconds: Double
    /// The child's peak resident set size in bytes: the last `VmHWM` read from
    /// `/proc/<pid>/status` while it ran (nan when none was read).
    ///
    /// Not `ru_maxrss`: after `posix_spawn` (which shares this process's memory until `exec`)
    /// Linux carries the spawning process's peak over into the child's `ru_maxrss`.
    var peakRSS: Double
    /// 0 for a clean exit; otherwise the exit code or the signal, as `wait4` reports them.
    var exitStatus: Int32
    /// CPU seconds (user and system) the child used.
    var cpuSeconds: Double = 0
  }

  var executable: String
  var arguments: [String]
  /// Files for standard input, output and error (`/dev/null` by default).
  var input = "/dev/null"
  var output = "/dev/null"
  var error = "/dev/null"
  /// The child's whole environment.
  var environment: [String: String] = BenchRun.cleanEnvironment

  /// The bench's own environment without the variables that steer `gutenberg`.
  static let cleanEnvironment: [String: String] = ProcessInfo.processInfo.environment.filter {
    !$0.key.hasPrefix("GUTENBERG_") && $0.key != "GUTENDEX_URL" && $0.key != "NO_COLOR"
  }

  /// Runs the child to its end (killed after `timeout`); the wall time is taken on the thread
  /// that reaps it, so the harness's polling adds nothing to it.
  func run(timeout: Duration = .seconds(600)) async throws -> Outcome {
    let child: ChildProcess
    do {
      child = try ChildProcess(
        executable: executable, arguments: arguments, environment: environment,
        input: .file(input), output: .file(output), error: .file(error))
    } catch {
      throw BenchError("cannot start \(executable): \(error)")
    }
    let exit = await child.wait(timeout: timeout)
    if exit.timedOut {
      throw BenchError("\(executable) \(arguments.joined(separator: " ")) timed out")
    }
    return Outcome(
      seconds: Stopwatch.seconds(exit.elapsed),
      peakRSS: exit.sampledPeakKiB.map { Double($0) * 1024 } ?? .nan,
      exitStatus: exit.code.map { $0 << 8 } ?? (exit.signal ?? 1), cpuSeconds: exit.cpuSeconds)
  }
}

/// A benchmark that cannot run; the message says why.
struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
