import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the password of `progress login`: on a terminal, asked once with echo off; otherwise
/// the first line of standard input (as `docker login --password-stdin` reads it).
enum PasswordInput {
  /// The password, nil at end of input.
  static func read(prompt: String, output: TerminalOutput) -> String? {
    guard isatty(STDIN_FILENO) == 1 else { return firstLine() }
    var saved = termios()
    guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return firstLine() }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    quiet.c_lflag |= tcflag_t(ECHONL)
    output.write(prompt)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
    return firstLine()
  }

  /// One line from standard input, read byte by byte so nothing after it is consumed; without
  /// its line ending.
  static func firstLine() -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = Glibc.read(STDIN_FILENO, &byte, 1)
      if count < 0, errno == EINTR { continue }
      guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      if byte == 0x0A { break }
      bytes.append(byte)
      // A password is short; a line of more than 4 KiB is not one.
      if bytes.count > 4096 { break }
    }
    if bytes.last == 0x0D { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }
}
