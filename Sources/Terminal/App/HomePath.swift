import Foundation

/// `~` at the start of a path the program is given where no shell expanded it: typed at the
/// browser's prompt (`export ~/books.json`), after an `=` (`--data-dir=~/gutenberg`), or in an
/// environment variable.
enum HomePath {
  /// `path` with a leading `~` or `~/` replaced by `$HOME` (else the user's home directory);
  /// any other path (`~user/...` included) as it is.
  static func expand(
    _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    let home =
      environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? FileManager.default.homeDirectoryForCurrentUser.path
    let rest = path.dropFirst(path == "~" ? 1 : 2)
    guard !rest.isEmpty else { return home }
    return home.hasSuffix("/") ? home + rest : home + "/" + rest
  }
}
