import Catalog
import Foundation

/// The `gutenberg get` line that resumes a download that stopped: every option that decides
/// where the bytes come from and go (`--format`, `-o`, `--data-dir`, `--server`, every
/// `--mirror` when they are not the environment's), quoted for a shell, never a password.
struct ResumeCommand {
  let configuration: AppConfiguration

  /// The line for book `id`.
  func line(id: Int, format: BookFormat?, target: DownloadTarget, mirrors: [DownloadMirror])
    -> String
  {
    let options = configuration.options
    var words = ["gutenberg", "get", "\(id)"]
    if let format { words += ["--format", format.description] }
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardized.path
    switch target {
    case .directory(let directory):
      let path = directory.standardized.path
      if path != here { words += ["-o", path.hasSuffix("/") ? path : path + "/"] }
    case .file(let file):
      words += ["-o", file.path]
    }
    // The options that decide where the book's record and the library are: without them the
    // line would look in another data directory, or ask the default server (issue 27).
    if options.dataDirectory != nil {
      words += ["--data-dir", configuration.location.dataDirectory.standardized.path]
    }
    if let server = options.server {
      words += ["--server", URL(string: server)?.withoutUserInfo.absoluteString ?? server]
    }
    if mirrors != configuration.mirrors {
      // Never a password on a line meant to be copied: ~/.netrc gives it again.
      for mirror in mirrors { words += ["--mirror", mirror.base.withoutUserInfo.absoluteString] }
    }
    return words.map(Self.shellQuoted).joined(separator: " ")
  }

  /// `word` as a shell reads it back: as is when it is plain, else in single quotes.
  static func shellQuoted(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
      $0.isASCII
        && (CharacterSet.alphanumerics.contains($0) || "@%+=:,./_-".unicodeScalars.contains($0))
    }
    if plain, !word.isEmpty { return word }
    return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
