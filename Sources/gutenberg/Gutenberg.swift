import ArgumentParser
import Foundation
import Terminal

/// `gutenberg`: browse the Project Gutenberg catalogue from any terminal.
@main
struct Gutenberg: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "gutenberg",
    abstract: "Browse the Project Gutenberg catalogue (76,000+ free books) through Gutendex.",
    discussion: """
      With no subcommand, starts the interactive browser. Commands are read from standard input \
      when it is not a terminal, so `printf 'n\\nf 3\\nq\\n' | gutenberg` works.

      When the server cannot be reached, pages come from the local cache, then from the \
      embedded catalogue (of 2025-08); favourites are always kept on this machine.

      Environment: GUTENDEX_URL (server), GUTENBERG_DATA_DIR (data directory), \
      GUTENBERG_SOURCE (auto, server, local), GUTENBERG_MAX_AGE, GUTENBERG_SYNC_INTERVAL, \
      GUTENBERG_TIMEOUT (seconds), NO_COLOR.
      Exit codes: 0 ok, 64 usage error, 65 bad data, 69 server or network unavailable, \
      130 stopped by Ctrl-C, 1 other.
      """,
    version: "1.0.0",
    subcommands: [
      Browse.self, List.self, Show.self, Favorites.self, Cache.self, Status.self,
      Get.self, LibraryCommand.self, Read.self, Bookmarks.self, Notes.self, Sync.self, New.self,
      Doctor.self,
      ProgressCommand.self, Send.self,
    ],
    defaultSubcommand: Browse.self
  )

  /// The global options as given before the subcommand's name (or after it: the root parses
  /// them wherever they stand, and every subcommand's own copy reuses this one).
  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

  /// Runs the command; a usage error is one `error:` line and exit 64, like every other failure
  /// (ArgumentParser's default prints "Error:" plus a usage block over several lines).
  static func main() async {
    // `gutenberg --version` alone is answered before ArgumentParser, whose parse reflects the
    // options of every command (most of the 5 ms this took); the same line, the same exit 0.
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments == ["--version"] {
      print(configuration.version)
      return
    }
    // The common commands, read without ArgumentParser's reflection when the line is one the
    // quick reader is sure of (see ``QuickCommand``); any other line goes on below as before.
    if let command = QuickCommand(arguments) {
      await command.run()
    }
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      let text = message(for: error)
      // Help, --version and our own exit codes (already explained on stderr) exit as usual.
      guard exitCode(for: error) == .validationFailure, !text.isEmpty else {
        exit(withError: error)
      }
      let first = text.split(separator: "\n").first.map(String.init) ?? text
      if let line = mistypedCommand(first) {
        FileHandle.standardError.write(Data("error: \(line)\n".utf8))
        exit(withError: ExitCode.validationFailure)
      }
      FileHandle.standardError.write(Data("error: \(first) (see --help)\n".utf8))
      exit(withError: ExitCode.validationFailure)
    }
  }
}

extension Gutenberg {
  /// Ends the process with `code`, standard output flushed, as ArgumentParser's exit does.
  static func exitNow(_ code: Int32) -> Never {
    Foundation.exit(code)
  }

  /// The subcommands' names, as typed.
  static var commandNames: [String] {
    configuration.subcommands.map { $0._commandName }
  }

  /// `unknown command 'lsit'; did you mean 'list'?` when ArgumentParser refused a word that is
  /// a subcommand's name mistyped; nil for any other error.
  static func mistypedCommand(_ message: String) -> String? {
    let prefix = "Unexpected argument '"
    guard message.hasPrefix(prefix), message.hasSuffix("'") else { return nil }
    let word = String(message.dropFirst(prefix.count).dropLast())
    guard let name = ClosestWord.nearest(to: word, among: commandNames) else { return nil }
    return "unknown command '\(Sanitizer.sanitize(word))'; did you mean '\(name)'?"
  }
}
