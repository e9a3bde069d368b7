import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The width to lay screens out in: `COLUMNS` when it is a positive integer, else the terminal's
/// own size, else 80; never below ``minimum``.
package enum TerminalWidth {
  /// Narrower than this, columns cannot be laid out; a narrower terminal wraps our lines.
  package static let minimum = 40
  /// When nothing says otherwise (a pipe, a file).
  package static let fallback = 80

  /// The width for this process, from the environment and standard output's terminal.
  package static func current() -> Int {
    resolve(columns: ProcessInfo.processInfo.environment["COLUMNS"], terminalColumns: ttyColumns())
  }

  /// The width given the `COLUMNS` variable and the terminal's reported column count.
  package static func resolve(columns: String?, terminalColumns: Int?) -> Int {
    if let columns, let value = Int(columns.trimmingCharacters(in: .whitespaces)), value > 0 {
      return max(minimum, value)
    }
    if let terminalColumns, terminalColumns > 0 { return max(minimum, terminalColumns) }
    return fallback
  }

  /// Standard output's column count from `TIOCGWINSZ`, or nil when it is not a terminal.
  package static func ttyColumns() -> Int? {
    var size = winsize()
    #if canImport(Darwin)
      let result = ioctl(STDOUT_FILENO, TIOCGWINSZ, &size)
    #else
      let result = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size)
    #endif
    guard result == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}
