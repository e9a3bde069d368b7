import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A child process with piped standard streams, spawned with `posix_spawn` so the test knows
/// its pid (for `kill -9`, `/proc/<pid>/status`) and reaps it with `wait4` (for its peak RSS).
///
/// Every blocking call (`read`, `wait4`, large writes) runs on a dedicated thread, never on the
/// cooperative pool, which the loopback server in the same process needs. Waiting is bounded:
/// a child still running at its deadline is killed with SIGKILL.
final class ChildProcess: Sendable {
  /// How a child ended.
  struct Exit: Sendable {
    /// The exit code, or nil when a signal ended it.
    var code: Int32?
    /// The signal that ended it, if one did.
    var signal: Int32?
    /// Peak resident set size in KiB, from `wait4`'s `ru_maxrss`.
    var maxRSSKiB: Int
    /// True when the harness killed it for running past its deadline.
    var timedOut: Bool
  }

  private struct State {
    var stdout: [UInt8] = []
    var stderr: [UInt8] = []
    var stdoutClosed = false
    var stderrClosed = false
    var exit: Exit?
    var killedForTimeout = false
  }

  struct SpawnError: Error, CustomStringConvertible {
    var description: String
  }

  let pid: pid_t
  private let inputFD: Int32
  private let inputClosed = Mutex(false)
  private let state = Mutex(State())

  /// Serialises pipe creation and spawning: the pipes are made close-on-exec only after
  /// `pipe` returns (`pipe2` is not imported), so no other spawn may happen in between, or
  /// that child would inherit our pipe ends and keep them open.
  private static let spawnLock = Mutex(())

  /// Starts `executable` with exactly `arguments` and `environment`.
  init(executable: String, arguments: [String], environment: [String: String]) throws {
    Self.ignoreSIGPIPE
    let (pid, inputFD, outputFD, errorFD) = try Self.spawnLock.withLock { _ in
      try Self.spawn(executable: executable, arguments: arguments, environment: environment)
    }
    self.pid = pid
    self.inputFD = inputFD
    startReader(fd: outputFD, isError: false)
    startReader(fd: errorFD, isError: true)
    startReaper()
  }

  private static func makePipe() throws -> [Int32] {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
    }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fds
  }

  private static func spawn(
    executable: String, arguments: [String], environment: [String: String]
  ) throws -> (pid_t, Int32, Int32, Int32) {
    let input = try makePipe()
    let output = try makePipe()
    let error = try makePipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, error[1], 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(input[0])
    close(output[1])
    close(error[1])
    guard result == 0 else {
      close(input[1])
      close(output[0])
      close(error[0])
      throw SpawnError(
        description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
    }
    return (pid, input[1], output[0], error[0])
  }

  private static let ignoreSIGPIPE: Void = {
    // A child that exits early must not kill the test runner when the harness writes to it.
    signal(SIGPIPE, SIG_IGN)
  }()

  private func startReader(fd: Int32, isError: Bool) {
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        state.withLock { state in
          if isError {
            state.stderr += buffer[0..<count]
          } else {
            state.stdout += buffer[0..<count]
          }
        }
      }
      close(fd)
      state.withLock { state in
        if isError { state.stderrClosed = true } else { state.stdoutClosed = true }
      }
    }
    thread.start()
  }

  private func startReaper() {
    let pid = self.pid
    let thread = Thread { [self] in
      var status: Int32 = 0
      var usage = rusage()
      while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
      // WIFEXITED / WTERMSIG, spelled out: the C macros are not imported.
      let signal = status & 0x7f
      let exit = Exit(
        code: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
        maxRSSKiB: Int(usage.ru_maxrss), timedOut: false)
      state.withLock { state in
        var exit = exit
        exit.timedOut = state.killedForTimeout
        state.exit = exit
      }
    }
    thread.start()
  }

  /// Writes bytes to the child's standard input (on a separate thread: it may block).
  func write(_ data: Data) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let thread = Thread { [self] in
        writeBlocking(data)
        continuation.resume()
      }
      thread.start()
    }
  }

  /// Writes one line and a newline.
  func send(_ line: String) async {
    await write(Data((line + "\n").utf8))
  }

  private func writeBlocking(_ data: Data) {
    guard !inputClosed.withLock({ $0 }) else { return }
    data.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = Glibc.write(inputFD, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return  // EPIPE: the child is gone; the test looks at its exit instead.
        }
        offset += written
      }
    }
  }

  /// Closes standard input: the child sees end of input.
  func closeInput() {
    let wasOpen = inputClosed.withLock { closed -> Bool in
      defer { closed = true }
      return !closed
    }
    if wasOpen { close(inputFD) }
  }

  /// Everything the child wrote to standard output so far.
  var stdout: Data { Data(state.withLock { $0.stdout }) }
  /// Everything the child wrote to standard error so far.
  var stderr: Data { Data(state.withLock { $0.stderr }) }

  /// Standard output so far as text (invalid UTF-8 repaired).
  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

  /// Waits until `predicate` holds for the standard output so far, or `timeout` passes, or
  /// the child ends; returns whether it held.
  func waitForOutput(
    timeout: Duration = .seconds(30), _ predicate: (String) -> Bool
  ) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
      if predicate(stdoutText) { return true }
      let ended = state.withLock { $0.exit != nil && $0.stdoutClosed }
      if ended || ContinuousClock.now > deadline { return predicate(stdoutText) }
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  /// The child's peak resident set so far in KiB (`VmHWM`), nil once it has ended.
  func peakRSSKiB() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
    }
    return nil
  }

  /// Sends a signal (SIGKILL by default) unless the child has already been reaped.
  func kill(_ signal: Int32 = SIGKILL) {
    state.withLock { state in
      if state.exit == nil { _ = Glibc.kill(pid, signal) }
    }
  }

  /// Waits for the child to end and its output to be read; kills it at `timeout`.
  func wait(timeout: Duration = .seconds(60)) async -> Exit {
    let deadline = ContinuousClock.now + timeout
    var killed = false
    while true {
      let done = state.withLock { state -> Exit? in
        state.stdoutClosed && state.stderrClosed ? state.exit : nil
      }
      if let done {
        closeInput()
        return done
      }
      if !killed, ContinuousClock.now > deadline {
        killed = true
        state.withLock { state in
          state.killedForTimeout = true
          if state.exit == nil { _ = Glibc.kill(pid, SIGKILL) }
        }
      }
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
}
