import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started with `posix_spawn`, its standard streams redirected to files.
struct ChildProcess {
  /// How one run ended.
  struct Outcome: Sendable {
    /// Wall time from just before `posix_spawn` to the child's exit being reaped.
    var seconds: Double
    /// The child's peak resident set size in bytes: the last `VmHWM` read from
    /// `/proc/<pid>/status` while it ran (``runPolling(timeout:)`` only; nan otherwise).
    ///
    /// Not `ru_maxrss`: after `posix_spawn` (which shares this process's memory until `exec`)
    /// Linux carries the spawning process's peak over into the child's `ru_maxrss`.
    var peakRSS: Double
    var exitStatus: Int32
  }

  var executable: String
  var arguments: [String]
  /// Files for standard input, output and error (`/dev/null` by default).
  var input = "/dev/null"
  var output = "/dev/null"
  var error = "/dev/null"
  /// The child's whole environment.
  var environment: [String: String] = ChildProcess.cleanEnvironment

  /// The bench's own environment without the variables that steer `gutenberg`.
  static let cleanEnvironment: [String: String] = ProcessInfo.processInfo.environment.filter {
    !$0.key.hasPrefix("GUTENBERG_") && $0.key != "GUTENDEX_URL" && $0.key != "NO_COLOR"
  }

  /// Runs the child to its end. While it runs, `wait4` blocks this thread, which is right for
  /// timing (no polling delay); use ``runPolling(timeout:)`` when this process must keep serving.
  func run() throws -> Outcome {
    let start = ContinuousClock.now
    let pid = try spawn()
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchError("wait4 failed: errno \(errno)") }
    }
    let seconds = Stopwatch.seconds(ContinuousClock.now - start)
    return Outcome(seconds: seconds, peakRSS: .nan, exitStatus: status)
  }

  /// Runs the child, checking for its end every few milliseconds so the caller's actors (a
  /// loopback server in this process) keep running; kills it after `timeout`.
  func runPolling(timeout: Duration) async throws -> Outcome {
    let start = ContinuousClock.now
    let pid = try spawn()
    var status: Int32 = 0
    var usage = rusage()
    var peak = Double.nan
    while true {
      // VmHWM only grows, so the last value read before the exit is the peak (short of the
      // last few milliseconds, when the process is tearing down).
      if let highWater = Self.highWaterMark(pid) { peak = highWater }
      let reaped = wait4(pid, &status, WNOHANG, &usage)
      if reaped == pid { break }
      if reaped < 0, errno != EINTR { throw BenchError("wait4 failed: errno \(errno)") }
      if ContinuousClock.now - start > timeout {
        kill(pid, SIGKILL)
        _ = wait4(pid, &status, 0, &usage)
        throw BenchError("\(executable) \(arguments.joined(separator: " ")) timed out")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    let seconds = Stopwatch.seconds(ContinuousClock.now - start)
    return Outcome(seconds: seconds, peakRSS: peak, exitStatus: status)
  }

  /// `VmHWM` of a running process, in bytes; nil once it has exited (or before `exec`).
  static func highWaterMark(_ pid: pid_t) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return nil }
    return kilobytes * 1024
  }

  private func spawn() throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable] + arguments).map { strdup($0) }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") }
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, nil, argv + [nil], envp + [nil])
    guard result == 0 else {
      throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))")
    }
    return pid
  }
}

/// A benchmark that cannot run; the message says why.
struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
