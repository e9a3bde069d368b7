import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The number of rows for the pager: `LINES` when it is a positive integer, else the terminal's
/// own size, else 24.
package enum TerminalHeight {
  /// When nothing says otherwise.
  package static let fallback = 24

  /// The height for this process.
  package static func current() -> Int {
    resolve(lines: ProcessInfo.processInfo.environment["LINES"], terminalRows: ttyRows())
  }

  /// The height given `LINES` and the terminal's reported row count.
  package static func resolve(lines: String?, terminalRows: Int?) -> Int {
    if let lines, let value = Int(lines.trimmingCharacters(in: .whitespaces)), value > 0 {
      return max(5, value)
    }
    if let terminalRows, terminalRows > 0 { return max(5, terminalRows) }
    return fallback
  }

  /// Standard output's row count from `TIOCGWINSZ`, or nil when it is not a terminal.
  static func ttyRows() -> Int? {
    var size = winsize()
    #if canImport(Darwin)
      let result = ioctl(STDOUT_FILENO, TIOCGWINSZ, &size)
    #else
      let result = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size)
    #endif
    guard result == 0, size.ws_row > 0 else { return nil }
    return Int(size.ws_row)
  }
}
