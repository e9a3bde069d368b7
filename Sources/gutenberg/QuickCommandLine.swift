import ArgumentParser
import Catalog
import Gutendex
import Terminal

/// The commands most runs are (`list`, `show`, `status`, `favorites list`, `library`,
/// `library search`, `bookmarks`), and `favorites add` and `remove`, read from the command line
/// without ArgumentParser.
///
/// ArgumentParser finds a command's options by reflecting over its properties, and each
/// property wrapper's type is looked up through the Swift runtime, which scans every protocol
/// conformance of the binary the first time: a fifth of a cold `list`'s time (BENCHMARKS.md,
/// "A cold start that is mostly the query"). This reader knows those commands' options from a
/// table and takes only a command line it is sure of: every word an option it knows, written
/// `--name value`, `--name=value` or `-s value`, given once unless it repeats (`--language`,
/// `--copyright`); a value that starts with `-` only where ArgumentParser reads one
/// unconditionally, and then only a negative number; values converted by the types' own
/// `ExpressibleByArgument`; and every check the command's `validate()` makes passed. Anything
/// else (help, `--`, an unknown or misspelt word, a repeated option, a value that does not
/// convert, a failed check, a subcommand not in the table) is `nil`, and ArgumentParser parses
/// the line as it always did, with its messages and exit codes. The commands run through the
/// same functions on the same values either way (``GlobalValues``, ``QueryValues``), and a test
/// checks that both parsers read every line of a corpus alike.
///
/// `favorites add` and `remove` are here for their length, not its frequency: ArgumentParser takes a command
/// line's positional words one at a time out of an array and a set (10,000 ids: 2 s of CPU,
/// half of the command's).
enum QuickCommand: Equatable {
  case list(GlobalValues, QueryValues, all: Bool, json: Bool)
  case show(GlobalValues, id: Int, json: Bool)
  case status(GlobalValues, json: Bool)
  case favoritesList(GlobalValues, order: FavoriteOrder, json: Bool)
  case favoritesAdd(GlobalValues, ids: [Int])
  case favoritesRemove(GlobalValues, ids: [Int])
  case library(GlobalValues, json: Bool)
  case librarySearch(GlobalValues, words: [String], json: Bool)
  case bookmarks(GlobalValues, id: Int?, json: Bool)

  /// The command `arguments` (without the program's name) ask for, when this reader is sure
  /// of it and its checks pass; nil to leave the line to ArgumentParser.
  init?(_ arguments: [String]) {
    guard var line = OptionLine(arguments), let command = Self.command(from: &line) else {
      return nil
    }
    do {
      try command.validate()
    } catch {
      return nil
    }
    self = command
  }

  /// Runs the command as its ArgumentParser twin's `run()` does and ends the process with its
  /// status, as `Gutenberg.main()` would (a clean exit, or the status with nothing printed).
  func run() async -> Never {
    do {
      switch self {
      case .list(let global, let filters, let all, let json):
        try await List.run(global: global, filters: filters, all: all, json: json)
      case .show(let global, let id, let json):
        try await Show.run(global: global, id: id, json: json)
      case .status(let global, let json):
        try await Status.run(global: global, json: json)
      case .favoritesList(let global, let order, let json):
        try await Favorites.ListFavorites.run(global: global, order: order, json: json)
      case .favoritesAdd(let global, let ids):
        try await Favorites.Add.run(global: global, ids: ids)
      case .favoritesRemove(let global, let ids):
        try await Favorites.Remove.run(global: global, ids: ids)
      case .library(let global, let json):
        try await LibraryCommand.ListLibrary.run(global: global, json: json)
      case .librarySearch(let global, let words, let json):
        try await LibraryCommand.SearchLibrary.run(global: global, words: words, json: json)
      case .bookmarks(let global, let id, let json):
        try await Bookmarks.run(global: global, id: id, json: json)
      }
    } catch let code as ExitCode {
      // What ArgumentParser's `exit(withError:)` does with an exit code, without first
      // rendering a usage text it then throws away.
      Gutenberg.exitNow(code.rawValue)
    } catch {
      Gutenberg.exit(withError: error)
    }
    Gutenberg.exitNow(0)
  }

  /// Every check ArgumentParser makes after parsing this command (the global options', the
  /// filters' and the command's own `validate()`).
  private func validate() throws {
    switch self {
    case .list(let global, let filters, _, _):
      try global.validate()
      try filters.validate()
      try List.validate(global: global, filters: filters)
    case .show(let global, let id, _):
      try global.validate()
      try Show.validate(id: id)
    case .bookmarks(let global, let id, _):
      try global.validate()
      try Bookmarks.validate(id: id)
    case .librarySearch(let global, let words, _):
      try global.validate()
      try LibraryCommand.SearchLibrary.validate(words: words)
    case .favoritesAdd(let global, let ids):
      try global.validate()
      try Favorites.Add.validate(ids: ids)
    case .favoritesRemove(let global, let ids):
      try global.validate()
      try Favorites.Remove.validate(ids: ids)
    case .status(let global, _), .favoritesList(let global, _, _), .library(let global, _):
      try global.validate()
    }
  }

  /// The options every command takes, wherever they stand.
  private static let globalOptions: [OptionLine.Spec] = [
    .init("server"), .init("data-dir"), .init("offline", .flag), .init("source"),
    .init("max-age", .unconditional), .init("color"), .init("timeout", .unconditional),
    .init("verbose", .flag),
  ]

  /// The filters of `list`.
  private static let queryOptions: [OptionLine.Spec] = [
    .init("search", short: "s"), .init("language", short: "l", .repeating), .init("topic"),
    .init("author-year-start", .unconditional), .init("author-year-end", .unconditional),
    .init("copyright", .repeating), .init("ids"), .init("mime-type"), .init("sort"),
    .init("page", .unconditional),
  ]

  /// `--json`, which every one of these commands takes.
  private static let json = OptionLine.Spec("json", .flag)

  /// The command in `line`, its options read into values; nil when a word or value is not
  /// one this reader takes.
  private static func command(from line: inout OptionLine) -> QuickCommand? {
    guard line.readGlobals(globalOptions), let word = line.nextWord() else { return nil }
    switch word {
    case "list":
      guard line.read(globalOptions + queryOptions + [json, .init("all", .flag)], words: 0),
        let global = globalValues(line), let filters = queryValues(line)
      else { return nil }
      return .list(global, filters, all: line.has("all"), json: line.has("json"))
    case "show":
      guard line.read(globalOptions + [json], words: 1), let global = globalValues(line),
        let id = Int(argument: line.words[0])
      else { return nil }
      return .show(global, id: id, json: line.has("json"))
    case "status":
      guard line.read(globalOptions + [json], words: 0), let global = globalValues(line) else {
        return nil
      }
      return .status(global, json: line.has("json"))
    case "favorites", "favourites", "fav":
      if let verb = line.peekWord(), ["add", "remove", "rm"].contains(verb) {
        _ = line.nextWord()
        guard line.read(globalOptions, words: nil), let global = globalValues(line) else {
          return nil
        }
        var ids: [Int] = []
        ids.reserveCapacity(line.words.count)
        for word in line.words {
          guard let id = Int(argument: word) else { return nil }
          ids.append(id)
        }
        return verb == "add" ? .favoritesAdd(global, ids: ids) : .favoritesRemove(global, ids: ids)
      }
      // `favorites` alone is `favorites list`, its default subcommand, options and all.
      if line.peekWord() == "list" { _ = line.nextWord() }
      guard line.read(globalOptions + [json, .init("order")], words: 0),
        let global = globalValues(line),
        let order = line.value("order", default: FavoriteOrder.newest)
      else { return nil }
      return .favoritesList(global, order: order, json: line.has("json"))
    case "library":
      if line.peekWord() == "search" {
        _ = line.nextWord()
        guard line.read(globalOptions + [json], words: nil), let global = globalValues(line)
        else { return nil }
        return .librarySearch(global, words: line.words, json: line.has("json"))
      }
      // `library` alone is `library list`, its default subcommand.
      if line.peekWord() == "list" { _ = line.nextWord() }
      guard line.read(globalOptions + [json], words: 0), let global = globalValues(line) else {
        return nil
      }
      return .library(global, json: line.has("json"))
    case "bookmarks":
      guard line.read(globalOptions + [json], words: nil), line.words.count <= 1,
        let global = globalValues(line)
      else { return nil }
      guard let word = line.words.first else {
        return .bookmarks(global, id: nil, json: line.has("json"))
      }
      guard let id = Int(argument: word) else { return nil }
      return .bookmarks(global, id: id, json: line.has("json"))
    default:
      return nil
    }
  }

  /// The global options' values; nil when one does not convert.
  private static func globalValues(_ line: OptionLine) -> GlobalValues? {
    var values = GlobalValues()
    values.server = line.text("server")
    values.dataDirectory = line.text("data-dir")
    values.offline = line.has("offline")
    values.verbose = line.has("verbose")
    values.maxAge = line.text("max-age")
    guard let source = line.optional("source", as: AppOptions.Source.self),
      let color = line.value("color", default: ColorPolicy.Mode.auto),
      let timeout = line.optional("timeout", as: Double.self)
    else { return nil }
    values.source = source
    values.color = color
    values.timeout = timeout
    return values
  }

  /// The filters' values; nil when one does not convert.
  private static func queryValues(_ line: OptionLine) -> QueryValues? {
    var values = QueryValues()
    values.search = line.text("search")
    values.languages = line.all("language")
    values.topic = line.text("topic")
    values.ids = line.text("ids")
    values.mimeType = line.text("mime-type")
    var copyright: [CopyrightChoice] = []
    for text in line.all("copyright") {
      guard let choice = CopyrightChoice(argument: text) else { return nil }
      copyright.append(choice)
    }
    values.copyright = copyright
    guard let start = line.optional("author-year-start", as: Int.self),
      let end = line.optional("author-year-end", as: Int.self),
      let sort = line.value("sort", default: BookSort.popular),
      let page = line.value("page", default: 1)
    else { return nil }
    values.authorYearStart = start
    values.authorYearEnd = end
    values.sort = sort
    values.page = page
    return values
  }
}
