import ArgumentParser
import Terminal

struct LibraryCommand: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "library",
    abstract: "List downloaded books, search their texts, update or remove them.",
    subcommands: [
      ListLibrary.self, SearchLibrary.self, UpdateLibrary.self, RemoveFromLibrary.self,
    ],
    defaultSubcommand: ListLibrary.self)

  // Only so that `gutenberg library --help` lists them too; the subcommands use their own.
  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

  struct ListLibrary: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List downloads (tab-separated when piped).")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
      try await Self.run(global: global.values, json: json)
    }

    /// What ``run()`` does, on values parsed either way.
    static func run(global: GlobalValues, json: Bool) async throws {
      let format: ListFormat = json ? .json : .automatic
      // Lists only: no write lock, nothing written (another process may hold the lock).
      try await global.run(readsOnly: true, readsNoPages: true, usesNoPageCache: true) {
        await LibraryRunner(context: $0).list(format: format)
      }
    }
  }

  struct SearchLibrary: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "search",
      abstract: "Find words in every downloaded plain text (tab-separated when piped).",
      discussion: """
        The words are found as written, one after the other on a line, ignoring case and \
        accents (etre finds Être) and the number of spaces between them. Each match shows the \
        book, the chapter (from the reader's table of contents), the line cut around the match \
        with the match marked, and the command that opens the reader there (read ID --at \
        OFFSET). The Project Gutenberg header and licence are not searched, and a file that \
        is not text is skipped with a note. Piped: id, title, chapter, byte offset, line, \
        command. Exit 0 with a match, 1 with none, 64 with no words.
        """)
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "The words to find.") var words: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
      try Self.validate(words: words)
    }

    func run() async throws {
      try await Self.run(global: global.values, words: words, json: json)
    }

    /// The checks of ``validate()``, on values parsed either way.
    static func validate(words: [String]) throws {
      if words.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
        throw ValidationError("give words to search for")
      }
    }

    /// What ``run()`` does, on values parsed either way.
    static func run(global: GlobalValues, words: [String], json: Bool) async throws {
      let format: ListFormat = json ? .json : .automatic
      try await global.run(readsOnly: true, readsNoPages: true, usesNoPageCache: true) {
        await LibrarySearchRunner(context: $0).run(words: words, format: format)
      }
    }
  }

  struct UpdateLibrary: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "update",
      abstract: "Fetch again the downloaded books whose files changed at Project Gutenberg.",
      discussion: """
        Each file (or only those of the books named) is checked with one conditional \
        request (If-None-Match with its ETag, else If-Modified-Since), one request at a time \
        and at most two a second (GUTENBERG_PG_PAUSE), at Project Gutenberg's mirror \
        aleph.pglaf.org unless --mirror or GUTENBERG_MIRROR(S) names others. An unchanged \
        file costs one 304 and is not touched; a changed one is downloaded beside it and \
        renamed over it once complete, so a cut connection or Ctrl-C leaves the old file \
        whole. Bookmarks are kept (a highlight whose words are found again in the new text \
        moves to them). A 429 or 503 with Retry-After is waited for, up to 2 minutes. Prints \
        one summary line (--json: the same per book). A book that fails is one error line; \
        the others are still checked, and the exit status is then 1.

        Example: `gutenberg library update --dry-run` says what would be fetched again and \
        writes nothing; `gutenberg library update 84 1342` checks only those two books.
        """)
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "Project Gutenberg numbers (default: every downloaded book).") var ids: [Int] =
      []
    @Option(
      name: .customLong("mirror"),
      help: "A Project Gutenberg mirror to ask (repeat for more; default: aleph.pglaf.org).")
    var mirrors: [String] = []
    @Flag(help: "Ask, but write nothing: report what would be updated.") var dryRun = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
      let (ids, mirrors, dryRun) = (ids, mirrors, dryRun)
      let format: ListFormat = json ? .json : .automatic
      // A dry run opens the stores to read only: it writes nothing, as `library` does not.
      try await global.values.run(readsOnly: dryRun, usesNoPageCache: dryRun) {
        await LibraryUpdateRunner(context: $0).run(
          ids: ids, mirrors: mirrors, dryRun: dryRun, format: format)
      }
    }
  }

  struct RemoveFromLibrary: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Delete books' files and forget them.", aliases: ["rm"])
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "Project Gutenberg numbers.") var ids: [Int]

    func validate() throws {
      if ids.isEmpty { throw ValidationError("give at least one book id") }
    }

    func run() async throws {
      let ids = ids
      try await global.run { await LibraryRunner(context: $0).remove(ids: ids) }
    }
  }
}
