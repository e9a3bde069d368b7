import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A child process, spawned with `posix_spawn` so the caller knows its pid (for `kill -9`,
/// `/proc/<pid>/status`) and reaped with `wait4`: the one harness of the tests and the bench.
///
/// Each standard stream is a pipe (the tests read and write them) or a file (the bench, which
/// must not pay for reading). Every blocking call (`read`, `wait4`, large writes) runs on a
/// dedicated thread, never on the cooperative pool, which a loopback server in the same process
/// needs. Waiting is bounded: a child still running at its deadline is killed with SIGKILL.
public final class ChildProcess: Sendable {
  /// Where one standard stream goes.
  public enum Stream: Sendable {
    /// A pipe to this process (standard input is written with ``write(_:)``; output is kept).
    case pipe
    /// A file: read for standard input, created or truncated for output.
    case file(String)
  }

  /// How a child ended.
  public struct Exit: Sendable {
    /// The exit code, or nil when a signal ended it.
    public var code: Int32?
    /// The signal that ended it, if one did.
    public var signal: Int32?
    /// Peak resident set size in KiB, from `wait4`'s `ru_maxrss`. On Linux this starts at the
    /// spawning process's own peak (`posix_spawn` shares its memory until `exec`), so it says
    /// little about a small child: see ``sampledPeakKiB``.
    public var maxRSSKiB: Int
    /// The largest `VmHWM` read from `/proc/<pid>/status` while ``wait(timeout:)`` waited (every
    /// 5 ms; the child's last moments may be missed); nil if none was read.
    public var sampledPeakKiB: Int?
    /// From just before `posix_spawn` to the child being reaped (timed on the reaping thread,
    /// so no polling delay is in it).
    public var elapsed: Duration
    /// True when the harness killed it for running past its deadline.
    public var timedOut: Bool
    /// CPU seconds the child used (user and system, from `wait4`'s `rusage`).
    public var cpuSeconds: Double = 0
  }

  private struct State {
    var stdout: [UInt8] = []
    var stderr: [UInt8] = []
    var stdoutClosed = false
    var stderrClosed = false
    var exit: Exit?
    var killedForTimeout = false
    var sampledPeakKiB: Int?
  }

  /// Why a child could not be started.
  public struct SpawnError: Error, CustomStringConvertible {
    /// What failed, with the system's reason.
    public var description: String
  }

  /// The child's process id.
  public let pid: pid_t
  private let inputFD: Int32
  private let inputClosed = Mutex(false)
  private let state = Mutex(State())

  /// Serialises pipe creation and spawning: the pipes are made close-on-exec only after
  /// `pipe` returns (`pipe2` is not imported), so no other spawn may happen in between, or
  /// that child would inherit our pipe ends and keep them open.
  private static let spawnLock = Mutex(())

  /// Starts `executable` with exactly `arguments` and `environment`, its streams as given.
  public init(
    executable: String, arguments: [String], environment: [String: String],
    input: Stream = .pipe, output: Stream = .pipe, error: Stream = .pipe
  ) throws {
    Self.ignoreSIGPIPE
    let start = ContinuousClock.now
    let (pid, inputFD, outputFD, errorFD) = try Self.spawnLock.withLock { _ in
      try Self.spawn(
        executable: executable, arguments: arguments, environment: environment,
        streams: (input, output, error))
    }
    self.pid = pid
    self.inputFD = inputFD
    if inputFD < 0 { inputClosed.withLock { $0 = true } }
    state.withLock { state in
      state.stdoutClosed = outputFD < 0
      state.stderrClosed = errorFD < 0
    }
    if outputFD >= 0 { startReader(fd: outputFD, isError: false) }
    if errorFD >= 0 { startReader(fd: errorFD, isError: true) }
    startReaper(start: start)
  }

  private static func makePipe() throws -> [Int32] {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
    }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fds
  }

  /// Spawns the child; returns its pid and this side's ends of its pipes (-1 for a file).
  private static func spawn(
    executable: String, arguments: [String], environment: [String: String],
    streams: (input: Stream, output: Stream, error: Stream)
  ) throws -> (pid_t, Int32, Int32, Int32) {
    // A file stream gets no pipe: [-1, -1] marks it, and the child opens the file itself.
    func pipeFor(_ stream: Stream) throws -> [Int32] {
      if case .pipe = stream { return try makePipe() }
      return [-1, -1]
    }
    let input = try pipeFor(streams.input)
    let output = try pipeFor(streams.output)
    let error = try pipeFor(streams.error)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    func attach(_ stream: Stream, _ pipe: [Int32], childEnd: Int, to fd: Int32, flags: Int32) {
      switch stream {
      case .pipe: posix_spawn_file_actions_adddup2(&actions, pipe[childEnd], fd)
      case .file(let path): posix_spawn_file_actions_addopen(&actions, fd, path, flags, 0o644)
      }
    }
    attach(streams.input, input, childEnd: 0, to: 0, flags: O_RDONLY)
    attach(streams.output, output, childEnd: 1, to: 1, flags: O_WRONLY | O_CREAT | O_TRUNC)
    attach(streams.error, error, childEnd: 1, to: 2, flags: O_WRONLY | O_CREAT | O_TRUNC)
    // The child gets its three streams and nothing else. Other threads of this process open
    // descriptors that are not close-on-exec (FlyingSocks' listening and accepted sockets, in
    // a loopback server serving another test): a child holding a copy keeps such a socket
    // open after the server closes it, so the server's close, reset or stop never reaches its
    // client, and a stopped server's port still takes connections.
    guard let closeFrom = Self.closeFrom, closeFrom(&actions, 3) == 0 else {
      throw SpawnError(description: "posix_spawn_file_actions_addclosefrom_np (glibc 2.34+)")
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    Self.resetSignals(&attributes)
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    // close(-1) is a harmless EBADF for the streams that are files.
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

  /// glibc's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time: it is declared
  /// only under `_GNU_SOURCE`, which Swift's Glibc module does not define.
  private static let closeFrom:
    (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
      guard
        let symbol = dlsym(
          UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
      else { return nil }
      return unsafeBitCast(
        symbol,
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)
          .self)
    }()

  /// The signals a child gets with their default action, as a shell would start it.
  static let signalsReset = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE]

  /// Starts the child with no signal blocked and ``signalsReset`` at their default action.
  ///
  /// Without this a child inherits the spawning thread's signal mask, and the test runner's
  /// threads (the cooperative pool's, dispatch's) block SIGINT, SIGTERM and SIGHUP: a child
  /// would then never see a Ctrl-C or a `kill`, and only SIGKILL could stop it. It would also
  /// inherit this process's ignored SIGPIPE (see ``ignoreSIGPIPE``), which no shell passes on.
  private static func resetSignals(_ attributes: inout posix_spawnattr_t) {
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in signalsReset { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
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

  private func startReaper(start: ContinuousClock.Instant) {
    let pid = self.pid
    let thread = Thread { [self] in
      var status: Int32 = 0
      var usage = rusage()
      while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
      let elapsed = ContinuousClock.now - start
      // WIFEXITED / WTERMSIG, spelled out: the C macros are not imported.
      let signal = status & 0x7f
      let exit = Exit(
        code: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
        maxRSSKiB: Int(usage.ru_maxrss), sampledPeakKiB: nil, elapsed: elapsed, timedOut: false,
        cpuSeconds: Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
          + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6)
      state.withLock { state in
        var exit = exit
        exit.timedOut = state.killedForTimeout
        exit.sampledPeakKiB = state.sampledPeakKiB
        state.exit = exit
      }
    }
    thread.start()
  }

  /// Writes bytes to the child's standard input (on a separate thread: it may block).
  public func write(_ data: Data) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let thread = Thread { [self] in
        writeBlocking(data)
        continuation.resume()
      }
      thread.start()
    }
  }

  /// Writes one line and a newline.
  public func send(_ line: String) async {
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
  public func closeInput() {
    let wasOpen = inputClosed.withLock { closed -> Bool in
      defer { closed = true }
      return !closed
    }
    if wasOpen { close(inputFD) }
  }

  /// Everything the child wrote to standard output so far.
  public var stdout: Data { Data(state.withLock { $0.stdout }) }
  /// Everything the child wrote to standard error so far.
  public var stderr: Data { Data(state.withLock { $0.stderr }) }

  /// Whether the child has ended (been reaped).
  public var hasExited: Bool { state.withLock { $0.exit != nil } }

  /// Standard output so far as text (invalid UTF-8 repaired).
  public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

  /// Waits until `predicate` holds for the standard output so far, or `timeout` passes
  /// (time the machine was starved of CPU not counted: ``StarvedDeadline``), or the child ends;
  /// returns whether it held.
  public func waitForOutput(
    timeout: Duration = Awaiting.standard, _ predicate: (String) -> Bool
  ) async -> Bool {
    let deadline = StarvedDeadline(timeout, process: pid)
    while true {
      if predicate(stdoutText) { return true }
      let ended = state.withLock { $0.exit != nil && $0.stdoutClosed }
      if ended || deadline.hasPassed { return predicate(stdoutText) }
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  /// The child's peak resident set so far in KiB (`VmHWM`), nil once it has ended.
  public func peakRSSKiB() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
    }
    return nil
  }

  /// Sends a signal (SIGKILL by default) unless the child has already been reaped.
  public func kill(_ signal: Int32 = SIGKILL) {
    state.withLock { state in
      if state.exit == nil { _ = Glibc.kill(pid, signal) }
    }
  }

  /// Waits for the child to end and its output to be read; kills it at `timeout` (time the
  /// machine was starved of CPU not counted: ``StarvedDeadline``).
  public func wait(timeout: Duration = .seconds(60)) async -> Exit {
    let deadline = StarvedDeadline(timeout, process: pid)
    var killed = false
    while true {
      // VmHWM only grows, so the last value read before the exit is the peak (short of the
      // last few milliseconds); the reaper copies it into the exit.
      if let peak = peakRSSKiB() {
        state.withLock { $0.sampledPeakKiB = max($0.sampledPeakKiB ?? 0, peak) }
      }
      let done = state.withLock { state -> Exit? in
        state.stdoutClosed && state.stderrClosed ? state.exit : nil
      }
      if let done {
        closeInput()
        return done
      }
      if !killed, deadline.hasPassed {
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
