import CEditLine
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal's keys one at a time, as more(1) and less take them: while a key is awaited,
/// standard input is out of canonical mode and does not echo; signals stay on (Ctrl-C is
/// handled as everywhere else) and output is untouched, so pages are still plain appended
/// lines. A line a key asks for (`:`, `/`, a note) is read by the prompts' own source, with the
/// terminal back in the mode it had, and that mode is restored when the reader ends.
///
/// `@unchecked Sendable` is safe: the saved mode, whether it is changed and whether the source
/// was stopped are only touched with `lock` held; bytes are read only on `queue`, one read at a
/// time; `continues` is set once, in `init`.
package final class TerminalKeys: KeySource, @unchecked Sendable {
  /// How long the rest of an escape sequence (or of a UTF-8 character) is waited for.
  static let sequenceWait: Int32 = 50

  private let lock = NSLock()
  private let queue = DispatchQueue(label: "gutenberg.keys")
  private let lines: any LineSource
  private let saved: termios
  private var isRaw = false
  private var stopped = false
  /// Written by ``stop()`` to end a wait for a key.
  private let wake: (read: Int32, write: Int32)
  /// Continues after Ctrl-Z: the shell left the terminal in its own mode meanwhile.
  private var continues: SignalWatch?

  /// Keys of standard input, its lines read through `lines`; nil when standard input is not a
  /// terminal whose mode can be read.
  package init?(lines: any LineSource) {
    var mode = termios()
    guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &mode) == 0 else { return nil }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
    saved = mode
    // SIGTERM, SIGHUP or SIGQUIT while a key is awaited gives the terminal this mode back.
    _ = gb_terminal_guard(&mode)
    wake = (ends[0], ends[1])
    self.lines = lines
    continues = SignalWatch([SIGCONT]) { [weak self] in self?.continued() }
  }

  deinit {
    continues?.cancel()
    close(wake.read)
    close(wake.write)
  }

  /// Whether the reader on this terminal takes single keys: both standard input and output are
  /// terminals, and `TERM` names one that is not `dumb`.
  package static func isWanted(environment: [String: String]) -> Bool {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return false }
    guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return false }
    return true
  }

  /// The next key, waited for without Enter.
  package func nextKey() async -> ReaderKey? {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: self.readKey()) }
    }
  }

  /// A line after `prompt` with `typed` already in it, the terminal in its own mode meanwhile.
  package func line(prompt: String, typed: String) async -> String? {
    await withCheckedContinuation { continuation in
      queue.async {
        self.setRaw(false)
        continuation.resume()
      }
    }
    if lines.editsLines {
      return await lines.nextLine(prompt: prompt, remember: false, typed: typed)
    }
    // Read plainly, the terminal echoing: the prompt and the key already typed are written.
    FileHandle.standardOutput.write(Data((prompt + typed).utf8))
    guard let rest = await lines.nextLine() else { return nil }
    return typed + rest
  }

  /// Restores the terminal's mode and ends a wait for a key.
  package func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    queue.sync { setRaw(false) }
  }

  private func setRaw(_ raw: Bool) {
    lock.lock()
    defer { lock.unlock() }
    guard raw != isRaw, !(raw && stopped) else { return }
    var mode = raw ? keyMode : saved
    // TCSANOW: keys typed ahead stay in the queue (TCSAFLUSH would drop them).
    if tcsetattr(STDIN_FILENO, TCSANOW, &mode) == 0 { isRaw = raw }
  }

  /// The mode a key is awaited in: the terminal's own, out of canonical mode, without echo.
  private var keyMode: termios {
    var mode = saved
    mode.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &mode.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    return mode
  }

  /// The process was continued (`fg` after Ctrl-Z): a key awaited is awaited in key mode again.
  private func continued() {
    lock.lock()
    defer { lock.unlock() }
    guard isRaw, !stopped else { return }
    var mode = keyMode
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &mode)
  }

  /// One key from standard input (on `queue`); nil at the end of input or after ``stop()``.
  private func readKey() -> ReaderKey? {
    setRaw(true)
    lock.lock()
    let isStopped = stopped
    lock.unlock()
    guard !isStopped, let byte = nextByte(wait: -1) else { return nil }
    if let key = ReaderKey.single(byte) { return key }
    if byte == 0x1B {
      guard let next = nextByte(wait: Self.sequenceWait) else { return .other }
      guard next == 0x5B || next == 0x4F else { return .other }
      var parameters = ""
      while let part = nextByte(wait: Self.sequenceWait) {
        if (0x40...0x7E).contains(part) {
          return ReaderKey.sequence(parameters: parameters, final: part)
        }
        parameters.unicodeScalars.append(Unicode.Scalar(part))
        if parameters.count > 16 { return .other }
      }
      return .other
    }
    let extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0
    guard extra > 0 else { return .other }
    var bytes = [byte]
    for _ in 0..<extra {
      guard let next = nextByte(wait: Self.sequenceWait) else { return .other }
      bytes.append(next)
    }
    guard let character = String(decoding: bytes, as: UTF8.self).first, character != "\u{FFFD}"
    else { return .other }
    return .character(character)
  }

  /// The next byte of standard input within `wait` milliseconds (-1: however long); nil at the
  /// end of input, after ``stop()`` or when the time passed.
  private func nextByte(wait: Int32) -> UInt8? {
    while true {
      var fds = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, wait)
      if ready < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if ready == 0 || fds[1].revents != 0 { return nil }
      var byte: UInt8 = 0
      let count = read(STDIN_FILENO, &byte, 1)
      if count == 1 { return byte }
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      return nil
    }
  }
}
