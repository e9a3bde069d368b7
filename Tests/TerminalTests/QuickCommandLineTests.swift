import ArgumentParser
import Catalog
import Testing

@testable import gutenberg

/// The quick reader of the common commands (``QuickCommand``) against ArgumentParser, line by
/// line: every line it takes, ArgumentParser parses into the same command with the same values;
/// every line ArgumentParser refuses (or reads as another command), it leaves alone, so the
/// error, the help and the exit code come from ArgumentParser as before.
@Suite struct QuickCommandLineTests {
  /// What ArgumentParser made of a line, in the quick reader's terms (nil for a command the
  /// quick reader does not run).
  static func quick(_ command: any ParsableCommand) -> QuickCommand? {
    switch command {
    case let list as List:
      .list(list.global.values, list.filters.values, all: list.all, json: list.json)
    case let show as Show: .show(show.global.values, id: show.id, json: show.json)
    case let status as Status: .status(status.global.values, json: status.json)
    case let favorites as Favorites.ListFavorites:
      .favoritesList(favorites.global.values, order: favorites.order, json: favorites.json)
    case let add as Favorites.Add: .favoritesAdd(add.global.values, ids: add.ids)
    case let remove as Favorites.Remove: .favoritesRemove(remove.global.values, ids: remove.ids)
    case let library as LibraryCommand.ListLibrary:
      .library(library.global.values, json: library.json)
    case let search as LibraryCommand.SearchLibrary:
      .librarySearch(search.global.values, words: search.words, json: search.json)
    case let bookmarks as Bookmarks:
      .bookmarks(bookmarks.global.values, id: bookmarks.id, json: bookmarks.json)
    default: nil
    }
  }

  /// Lines the quick reader must take (the commands the bench and scripts run).
  static let common: [[String]] = [
    ["list"],
    ["list", "--source", "embedded", "--data-dir", "/tmp/x"],
    ["list", "--search", "dickens", "--language", "en"],
    ["--source", "embedded", "list", "--search", "shakespere"],
    ["list", "-s", "faust", "-l", "français,German", "-l", "de", "--all", "--json"],
    ["list", "--search=great  expectations", "--topic", "fiction", "--sort", "descending"],
    ["list", "--author-year-start", "-750", "--author-year-end", "1900", "--page", "3"],
    ["list", "--copyright", "no", "--copyright", "unknown", "--ids", "84, 1342"],
    ["list", "--mime-type", "audio/", "--offline", "--verbose", "--color", "never"],
    ["--offline", "--server", "http://127.0.0.1:9", "list", "--timeout", "2.5"],
    ["--max-age", "7d", "list"], ["list", "--max-age=12h"],
    ["show", "84"], ["show", "84", "--json"], ["show", "--json", "84"], ["show", "+84"],
    ["--data-dir", "/tmp/x", "show", "84", "--source", "local"],
    ["status"], ["status", "--json", "--source", "server"],
    ["favorites"], ["favorites", "list"], ["favourites", "--json"], ["fav", "--order", "title"],
    ["favorites", "list", "--order", "author", "--json", "--offline"],
    ["favorites", "add", "84"], ["fav", "add", "84", "1342", "+11", "--source", "local"],
    ["--data-dir", "/tmp/x", "favourites", "add", "--offline", "84", "84"],
    ["favorites", "remove", "84"], ["fav", "rm", "84", "84", "0", "+11", "--offline"],
    ["library"], ["library", "--json"], ["library", "list"], ["library", "list", "--json"],
    ["library", "search", "petersburgh"], ["library", "search", "a", "--json", "b"],
    ["library", "search", "list"], ["library", "search", "--data-dir", "/tmp/x", "être"],
    ["bookmarks"], ["bookmarks", "84"], ["bookmarks", "--json", "84"],
  ]

  /// Lines it must leave to ArgumentParser: help, errors, other commands, odd spellings.
  static let others: [[String]] = [
    [], ["browse"], ["--version", "list"], ["list", "--version"], ["list", "--help"],
    ["list", "-h"], ["help", "list"], ["lsit"], ["list", "x"], ["list", "--unknown"],
    ["list", "--search"], ["list", "--search", "--offline"], ["list", "--search", "-x"],
    ["list", "--search", "a", "--search", "b"], ["list", "--json", "--json"],
    ["list", "--json=true"], ["list", "--page", "0"], ["list", "--page", "-1"],
    ["list", "--page", "abc"], ["list", "--page", "--offline", "3"], ["list", "--sort", "Popular"],
    ["list", "--copyright", "maybe"], ["list", "--ids", "x"], ["list", "--ids", "84,-3"],
    ["list", "--language", "englsh"], ["list", "--language", "zz9"], ["list", "--timeout", "0"],
    ["list", "--timeout", "nan"], ["list", "--timeout", "-5"], ["list", "--max-age", "x"],
    ["list", "--max-age", "-5"], ["list", "--color", "blue"], ["list", "--source", "Local"],
    ["list", "--search", ""], ["list", "--search", "  "], ["list", "--", "x"],
    ["list", "--author-year-start", "1900", "--author-year-end", "1800"], ["list", "-sx"],
    ["list", "-x"], ["--search", "x", "list"], ["list", "--generate-completion-script", "bash"],
    ["show"], ["show", "0"], ["show", "x"], ["show", "84", "85"], ["show", "-1"], ["show", "-"],
    ["status", "x"], ["favorites", "--order", "bogus"], ["favorites", "add"],
    ["favorites", "add", "0"], ["favorites", "add", "-3"], ["favorites", "add", "x"],
    ["favorites", "add", "84", "--json"], ["favorites", "add", "84", "--order", "title"],
    ["favorites", "add", "--", "84"], ["favorites", "add", "84", "--help"],
    ["favorites", "list", "x"], ["fav", "rm"], ["fav", "remove", "x"],
    ["favorites", "remove", "-3"], ["favorites", "rm", "84", "--json"], ["library", "x"],
    ["library", "remove", "84"],
    ["library", "search"], ["library", "search", " "], ["library", "search", "-x"],
    ["bookmarks", "0"], ["bookmarks", "x"], ["bookmarks", "84", "85"], ["get", "84"],
    ["read", "84"], ["sync"], ["new"], ["doctor"], ["cache"], ["--offline", "--offline", "list"],
    ["list", "--server"], ["list", "--color"],
  ]

  @Test func takesTheCommonLinesAsArgumentParserReadsThem() throws {
    for arguments in Self.common {
      let quick = try #require(QuickCommand(arguments), "not taken: \(arguments)")
      let parsed = try Gutenberg.parseAsRoot(arguments)
      #expect(Self.quick(parsed) == quick, "\(arguments): \(parsed) read otherwise")
    }
  }

  @Test func leavesEveryOtherLineToArgumentParser() {
    for arguments in Self.others {
      #expect(QuickCommand(arguments) == nil, "taken: \(arguments)")
    }
  }

  /// Every line of both lists, and each with the global options moved or repeated: whatever
  /// the quick reader takes, ArgumentParser reads alike, and a line ArgumentParser refuses the
  /// quick reader never takes.
  @Test func neverDisagreesWithArgumentParser() {
    var lines = Self.common + Self.others
    for line in Self.common + Self.others where !line.isEmpty {
      lines.append(["--offline", "--color", "always"] + line + ["--verbose"])
      lines.append(["--timeout", "3"] + line + ["--timeout", "4"])
    }
    var taken = 0
    for arguments in lines {
      let parsed = try? Gutenberg.parseAsRoot(arguments)
      guard let quick = QuickCommand(arguments) else { continue }
      taken += 1
      #expect(
        parsed.flatMap(Self.quick) == quick, "\(arguments): ArgumentParser read \(parsed as Any)")
    }
    #expect(taken >= Self.common.count * 3 / 2, "only \(taken) lines taken")
  }
}
