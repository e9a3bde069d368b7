import Catalog
import Gutendex

/// One command of the interactive browser: the words that name it, how it reads its
/// arguments, its lines on the help screen, and what the progress line says while it runs.
struct CommandSpec: Sendable {
  typealias Parse =
    @Sendable (_ args: [String], _ head: String, _ screen: Screen) throws(PromptParser.Failure) ->
    PromptCommand
  /// A parser that also needs the user's catalogue: its language codes, read only when asked.
  typealias CatalogueParse =
    @Sendable (_ args: [String], _ catalogueLanguages: @Sendable () -> [String])
    throws(PromptParser.Failure) -> PromptCommand

  /// The words that name it; single letters are case-sensitive, words are not.
  var names: [String]
  /// Its lines on the help screen (none for keys explained by another entry).
  var help: [HelpScreen.Entry]
  /// The progress line while it runs on `screen`; nil for the generic "working…".
  var progress: @Sendable (Screen) -> String?
  /// Reads the arguments into the command.
  var parse: Parse
  /// Reads the arguments with the catalogue at hand, for the commands that need it (`lang`);
  /// ``parse`` is then the same without a catalogue.
  var catalogueParse: CatalogueParse?

  init(
    _ names: [String], help: [HelpScreen.Entry] = [],
    progress: @escaping @Sendable (Screen) -> String? = { _ in nil }, parse: @escaping Parse
  ) {
    self.names = names
    self.help = help
    self.progress = progress
    self.parse = parse
  }

  init(
    _ names: [String], help: [HelpScreen.Entry] = [],
    progress: @escaping @Sendable (Screen) -> String? = { _ in nil },
    catalogueParse: @escaping CatalogueParse
  ) {
    self.names = names
    self.help = help
    self.progress = progress
    self.catalogueParse = catalogueParse
    parse = { args, _, _ throws(PromptParser.Failure) in try catalogueParse(args, { [] }) }
  }
}

/// Every command of the interactive browser, in the order the help screen lists them: the
/// parser, `?` help and the progress line are all derived from this one table.
enum CommandTable {
  typealias Entry = HelpScreen.Entry
  private static let loading: @Sendable (Screen) -> String? = { _ in "loading…" }

  /// A bare row number (`3`): the details of that row.
  static let row = CommandSpec([], help: [Entry("N", "details of book N on screen")]) {
    _, head, _ throws(PromptParser.Failure) in
    .details(row: try PromptParser.number(head, what: "row"))
  }

  /// A line starting with `/`: a search (the rest of the line, or none to clear it).
  static let search = CommandSpec(
    ["/"], help: [Entry("/ WORDS", "search titles and authors (/ alone clears the search)")],
    progress: loading
  ) { args, _, _ throws(PromptParser.Failure) in
    .search(args.isEmpty ? nil : args.joined(separator: " "))
  }

  /// An empty line: the next screenful on the list; elsewhere the rest of a screen taller than
  /// the window, then back to the list.
  static let enter = CommandSpec(
    [""], progress: { $0 == .browse ? "loading…" : nil },
    parse: { _, _, _ throws(PromptParser.Failure) in .more })

  /// The commands in help order.
  static let all: [CommandSpec] = [
    CommandSpec(
      ["n", "next"], help: [Entry("Enter, n", "the next books (on a long screen: the rest of it)")],
      progress: loading
    ) {
      args, head, _ throws(PromptParser.Failure) in
      try PromptParser.noArguments(args, head)
      return .next
    },
    CommandSpec(
      ["p", "prev", "previous"],
      help: [Entry("p, b", "the books before (on a long screen: back up)")], progress: loading
    ) { args, head, _ throws(PromptParser.Failure) in
      try PromptParser.noArguments(args, head)
      return .previous
    },
    CommandSpec(
      ["g", "go", "goto"], help: [Entry("g N", "go to page N (of 32 books)")], progress: loading
    ) {
      args, _, _ throws(PromptParser.Failure) in
      guard args.count == 1 else { throw PromptParser.fail("usage: g N (go to page N)") }
      return .goTo(page: try PromptParser.number(args[0], what: "page"))
    },
    row,
    CommandSpec(
      ["links", "l"], help: [Entry("links N", "every download format of book N with its URL")]
    ) { args, _, _ throws(PromptParser.Failure) in
      guard args.count <= 1 else {
        throw PromptParser.fail("usage: links N (download links of row N)")
      }
      guard let first = args.first else { return .links(row: nil) }
      return .links(row: try PromptParser.number(first, what: "row"))
    },
    CommandSpec(
      ["f", "fav"], help: [Entry("f N", "add or remove favourites: f 3, f 1 3 5, f 2-4")]
    ) { args, _, screen throws(PromptParser.Failure) in
      // On a details or links screen a bare `f` means the book shown.
      if args.isEmpty, screen.showsOneBook { return .toggleFavorites(rows: []) }
      guard !args.isEmpty else {
        throw PromptParser.fail("usage: f N, f 1 3 5 or f 2-4 (toggle favourites)")
      }
      return .toggleFavorites(rows: try PromptParser.rows(args))
    },
    CommandSpec(
      ["d", "download", "get"],
      help: [
        Entry(
          "d [N]",
          "download book N (or the book shown) into the library: books/ in the data directory")
      ]
    ) { args, _, _ throws(PromptParser.Failure) in
      guard args.count <= 1 else { throw PromptParser.fail("usage: d N (download book N)") }
      guard let first = args.first else { return .download(row: nil) }
      return .download(row: try PromptParser.number(first, what: "row"))
    },
    CommandSpec(
      ["read", "R"],
      help: [Entry("read [N]", "read book N (or the book shown) in the pager; q comes back")]
    ) { args, _, _ throws(PromptParser.Failure) in
      guard args.count <= 1 else { throw PromptParser.fail("usage: read N (read book N)") }
      guard let first = args.first else { return .read(row: nil) }
      return .read(row: try PromptParser.number(first, what: "row"))
    },
    CommandSpec(
      ["send"],
      help: [
        Entry(
          "send [N] DIR",
          "put book N (or the one shown) on an e-reader: its folder, or mail:ADDRESS")
      ]
    ) { args, _, _ throws(PromptParser.Failure) in
      var words = args[...]
      var row: Int?
      if let first = words.first, first.allSatisfy(\.isNumber) {
        row = try PromptParser.number(first, what: "row")
        words = words.dropFirst()
      }
      let destination = words.isEmpty ? nil : words.joined(separator: " ")
      return .send(row: row, to: destination)
    },
    CommandSpec(
      ["grep"],
      help: [
        Entry("grep WORDS", "find WORDS in every downloaded text, with the command to read there")
      ]
    ) { args, _, _ throws(PromptParser.Failure) in
      guard !args.isEmpty else {
        throw PromptParser.fail("usage: grep WORDS (find words in the library's texts)")
      }
      return .grep(args.joined(separator: " "))
    },
    search,
    CommandSpec(
      [SuggestionLine.key],
      help: [
        Entry(
          SuggestionLine.key,
          "search what the 'did you mean' line under a list that found few books proposes")
      ],
      progress: loading
    ) { args, head, _ throws(PromptParser.Failure) in
      try PromptParser.noArguments(args, head)
      return .takeSuggestion
    },
    CommandSpec(
      ["lang", "language", "languages"],
      help: [
        Entry("lang LANGUAGES", "only these languages, e.g. lang en,fr or lang french (alone: any)")
      ],
      progress: loading
    ) { args, catalogueLanguages throws(PromptParser.Failure) in
      do throws(CatalogueLanguages.UnknownLanguage) {
        return .languages(
          try CatalogueLanguages.codes(
            for: [args.joined(separator: " ")], catalogue: catalogueLanguages))
      } catch {
        throw PromptParser.fail(error.message)
      }
    },
    CommandSpec(
      ["topic"], help: [Entry("topic WORDS", "only books with this subject or bookshelf")],
      progress: loading
    ) { args, _, _ throws(PromptParser.Failure) in
      .topic(args.isEmpty ? nil : args.joined(separator: " "))
    },
    CommandSpec(
      ["years", "year"],
      help: [
        Entry("years FROM TO", "authors alive between these years (- for open, -750 for 750 BC)")
      ],
      progress: loading
    ) { args, _, _ throws(PromptParser.Failure) in
      guard args.count == 2 else {
        throw PromptParser.fail(
          "usage: years FROM TO (e.g. years 1800 1900; '-' leaves one open; BCE is negative)")
      }
      let from = try PromptParser.year(args[0])
      let to = try PromptParser.year(args[1])
      if let from, let to, from > to {
        throw PromptParser.fail("years: FROM (\(from)) is after TO (\(to))")
      }
      return .years(from: from, to: to)
    },
    CommandSpec(
      ["copyright"], help: [Entry("copyright X", "yes, no, unknown or any")], progress: loading
    ) { args, _, _ throws(PromptParser.Failure) in
      guard args.count == 1 else { throw PromptParser.fail("usage: copyright yes|no|unknown|any") }
      switch args[0].lowercased() {
      case "yes", "true": return .copyright([.copyrighted])
      case "no", "false": return .copyright([.publicDomain])
      case "unknown", "null": return .copyright([.unknown])
      case "any", "all": return .copyright([])
      default:
        throw PromptParser.fail("copyright takes yes, no, unknown or any, not '\(args[0])'")
      }
    },
    CommandSpec(
      ["sort"], help: [Entry("sort ORDER", "popular, ascending or descending (by number)")],
      progress: { $0 == .favorites ? nil : "loading…" },
      parse: { args, _, screen throws(PromptParser.Failure) in
        let favorites = screen == .favorites
        guard args.count == 1 else {
          throw PromptParser.fail(
            favorites
              ? "usage: sort newest|title|author" : "usage: sort popular|ascending|descending")
        }
        let value = args[0].lowercased()
        if favorites {
          guard let order = FavoriteOrder(rawValue: value) else {
            throw PromptParser.fail("favourites sort by newest, title or author, not '\(args[0])'")
          }
          return .favoritesOrder(order)
        }
        guard let sort = BookSort(rawValue: value) else {
          throw PromptParser.fail("sort takes popular, ascending or descending, not '\(args[0])'")
        }
        return .sort(sort)
      }),
    CommandSpec(
      ["reset", "clear"], help: [Entry("reset", "clear search and filters")], progress: loading
    ) { args, head, _ throws(PromptParser.Failure) in
      try PromptParser.noArguments(args, head)
      return .reset
    },
    CommandSpec(
      ["r", "refresh", "reload"], help: [Entry("r", "reload this page from the server")],
      progress: { $0 == .favorites ? "refreshing favourites…" : "refreshing…" },
      parse: { args, head, _ throws(PromptParser.Failure) in
        try PromptParser.noArguments(args, head)
        return .refresh
      }),
    CommandSpec(
      ["F", "favorites", "favourites"],
      help: [Entry("F", "favourites (there: rm N, sort newest|title|author, r refresh)")]
    ) { args, head, _ throws(PromptParser.Failure) in
      try PromptParser.noArguments(args, head)
      return .favorites
    },
    CommandSpec(["rm", "remove", "del"]) { args, _, _ throws(PromptParser.Failure) in
      guard !args.isEmpty else {
        throw PromptParser.fail("usage: rm N, rm 1 3 or rm 2-4 (remove favourites)")
      }
      return .removeFavorites(rows: try PromptParser.rows(args))
    },
    CommandSpec(["export"], help: [Entry("export [FILE]", "save favourites as JSON")]) {
      args, _, _ throws(PromptParser.Failure) in
      guard args.count <= 1 else {
        throw PromptParser.fail("usage: export [FILE] (no spaces in FILE)")
      }
      return .export(path: args.first)
    },
    CommandSpec(["import"], help: [Entry("import FILE", "add favourites from a JSON file")]) {
      args, _, _ throws(PromptParser.Failure) in
      guard args.count == 1 else { throw PromptParser.fail("usage: import FILE") }
      return .importFile(path: args[0])
    },
    CommandSpec(["offline"], help: [Entry("offline on|off", "simulate having no network")]) {
      args, _, _ throws(PromptParser.Failure) in
      guard args.count == 1, ["on", "off"].contains(args[0].lowercased()) else {
        throw PromptParser.fail("usage: offline on|off (simulate having no network)")
      }
      return .offline(args[0].lowercased() == "on")
    },
    CommandSpec(
      ["s", "status"], help: [Entry("s", "status: server, source, cache and recent requests")],
      progress: { _ in "checking the server…" },
      parse: { args, head, _ throws(PromptParser.Failure) in
        try PromptParser.noArguments(args, head)
        return .status
      }),
    CommandSpec(
      ["sync"],
      help: [Entry("sync", "bring the local catalogue up to date (Project Gutenberg, a server)")],
      progress: { _ in "syncing…" },
      parse: { args, head, _ throws(PromptParser.Failure) in
        try PromptParser.noArguments(args, head)
        return .sync
      }),
    CommandSpec(
      ["new"],
      help: [
        Entry(
          "new [SINCE]",
          "books new to you (or since last-sync, 2026-11-20, 7d), yours first; new all: all")
      ]
    ) { args, _, _ throws(PromptParser.Failure) in
      let all = args.last?.lowercased() == "all"
      let rest = all ? Array(args.dropLast()) : args
      guard rest.count <= 1 else {
        throw PromptParser.fail(
          "usage: new [SINCE] [all] (SINCE: last-sync, a day like 2026-11-20, or 7d)")
      }
      guard let text = rest.first else { return .new(.unseen, all: all) }
      switch SinceText.parse(text) {
      case .success(let since): return .new(since, all: all)
      case .failure(let failure): throw PromptParser.fail("new: \(failure.message)")
      }
    },
    CommandSpec(
      ["b", "back"], help: [Entry("b", "back to the list (from details, links, favourites)")],
      progress: { $0 == .browse ? "loading…" : nil },
      parse: { args, head, screen throws(PromptParser.Failure) in
        try PromptParser.noArguments(args, head)
        return screen == .browse ? .previous : .back
      }),
    CommandSpec(["h", "?", "help"], help: [Entry("h, ?", "this help")]) { _, _, _ in .help },
    CommandSpec(["q", "quit", "exit"], help: [Entry("q, Ctrl-D", "quit")]) { _, _, _ in .quit },
    enter,
  ]

  /// The command named `word` (as typed: single letters exact, words in any case).
  static func spec(named word: String) -> CommandSpec? {
    byName[word]
  }

  private static let byName: [String: CommandSpec] = {
    var names: [String: CommandSpec] = [:]
    for spec in all {
      for name in spec.names { names[name] = spec }
    }
    return names
  }()

  /// The help screen's entries, in table order.
  static var helpEntries: [HelpScreen.Entry] { all.flatMap(\.help) }
}
