import ArgumentParser
import Terminal

/// `gutenberg`: browse the Project Gutenberg catalogue from any terminal.
@main
struct Gutenberg: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gutenberg",
    abstract: "Browse the Project Gutenberg catalogue (76,000+ free books) through Gutendex.",
    discussion: """
      With no subcommand, starts the interactive browser. Commands are read from standard input \
      when it is not a terminal, so `printf 'n\\nf 3\\nq\\n' | gutenberg` works.

      When the server cannot be reached, pages come from the local cache, then from the \
      embedded catalogue (of 2025-08); favourites are always kept on this machine.

      Environment: GUTENDEX_URL (server), GUTENBERG_DATA_DIR (data directory), \
      GUTENBERG_SOURCE=embedded, GUTENBERG_TIMEOUT (seconds), NO_COLOR.
      Exit codes: 0 ok, 64 usage error, 65 bad data, 69 server or network unavailable, 1 other.
      """,
    version: "1.0.0",
    subcommands: [
      Browse.self, List.self, Show.self, Favorites.self, Cache.self, Status.self,
    ],
    defaultSubcommand: Browse.self
  )
}
