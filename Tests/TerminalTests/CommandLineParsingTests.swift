import ArgumentParser
import Catalog
import Gutendex
import Terminal
import Testing

@testable import gutenberg

/// The `gutenberg` command line: every subcommand and option parses into the right values,
/// and bad input is a usage error (exit 64) with a clear message.
@Suite struct CommandLineParsingTests {
  @Test func noArgumentsStartsTheBrowser() throws {
    let command = try Gutenberg.parseAsRoot([])
    #expect(command is Browse)
  }

  @Test func listOptionsBecomeOneBookQuery() throws {
    let command = try #require(
      try Gutenberg.parseAsRoot([
        "list", "--search", "great  expectations", "--language", "en,FR", "-l", "de",
        "--topic", "fiction", "--author-year-start", "-750", "--author-year-end", "1900",
        "--copyright", "no", "--copyright", "unknown", "--ids", "84, 1342", "--mime-type",
        "audio/", "--sort", "descending", "--page", "3", "--json", "--all",
      ]) as? List)
    let query = try command.filters.query(options: command.global.appOptions)
    #expect(query.search == "great expectations")
    #expect(query.languages == ["en", "fr", "de"])
    #expect(query.topic == "fiction")
    #expect(query.authorYearStart == -750)
    #expect(query.authorYearEnd == 1900)
    #expect(query.copyright == [.publicDomain, .unknown])
    #expect(query.ids == [84, 1342])
    #expect(query.mimeType == "audio/")
    #expect(query.sort == .descending)
    #expect(query.page == 3)
    #expect(command.json)
    #expect(command.all)
  }

  @Test func languageNamesBecomeCodes() throws {
    let command = try #require(
      try Gutenberg.parseAsRoot(["list", "--language", "French,german", "-l", "Français, cy"])
        as? List)
    let query = try command.filters.query(options: command.global.appOptions)
    #expect(query.languages == ["fr", "de", "cy"])
  }

  @Test func globalOptionsReachTheApp() throws {
    let command = try #require(
      try Gutenberg.parseAsRoot([
        "list", "--server", "http://127.0.0.1:9", "--data-dir", "/tmp/x", "--offline",
        "--source", "embedded", "--color", "never", "--timeout", "2.5", "--verbose",
      ]) as? List)
    let options = command.global.appOptions
    #expect(options.server == "http://127.0.0.1:9")
    #expect(options.dataDirectory == "/tmp/x")
    #expect(options.offline)
    #expect(options.source == .embedded)
    #expect(options.color == .never)
    #expect(options.timeout == 2.5)
    #expect(options.verbose)
  }

  @Test func favoritesSubcommands() throws {
    #expect(try Gutenberg.parseAsRoot(["favorites"]) is Favorites.ListFavorites)
    #expect(try Gutenberg.parseAsRoot(["favourites", "list"]) is Favorites.ListFavorites)
    let add = try #require(
      try Gutenberg.parseAsRoot(["favorites", "add", "84", "1342"]) as? Favorites.Add)
    #expect(add.ids == [84, 1342])
    let remove = try #require(try Gutenberg.parseAsRoot(["fav", "rm", "84"]) as? Favorites.Remove)
    #expect(remove.ids == [84])
    let export = try #require(
      try Gutenberg.parseAsRoot(["favorites", "export", "-o", "out.json"]) as? Favorites.Export)
    #expect(export.output == "out.json")
    let stdoutExport = try #require(
      try Gutenberg.parseAsRoot(["favorites", "export"]) as? Favorites.Export)
    #expect(stdoutExport.output == nil)
    let importing = try #require(
      try Gutenberg.parseAsRoot(["favorites", "import", "-"]) as? Favorites.Import)
    #expect(importing.file == "-")
    #expect(try Gutenberg.parseAsRoot(["favorites", "refresh"]) is Favorites.Refresh)
    let ordered = try #require(
      try Gutenberg.parseAsRoot(["favorites", "list", "--order", "title"])
        as? Favorites.ListFavorites)
    #expect(ordered.order == .title)
  }

  @Test func cacheStatusAndShow() throws {
    #expect(try Gutenberg.parseAsRoot(["cache"]) is Cache.Info)
    #expect(try Gutenberg.parseAsRoot(["cache", "clear"]) is Cache.Clear)
    #expect(try Gutenberg.parseAsRoot(["status", "--json"]) is Status)
    let show = try #require(try Gutenberg.parseAsRoot(["show", "84", "--json"]) as? Show)
    #expect(show.id == 84)
    #expect(show.json)
  }

  @Test(arguments: [
    ["list", "--page", "0"],
    ["list", "--search", "   "],
    ["list", "--language", "e1"],
    ["list", "--language", "english,xx1"],
    ["list", "--author-year-start", "1900", "--author-year-end", "1800"],
    ["list", "--ids", "84,abc"],
    ["list", "--sort", "random"],
    ["list", "--copyright", "maybe"],
    ["list", "--timeout", "0"],
    ["show", "abc"],
    ["show", "0"],
    ["favorites", "add"],
    ["favorites", "add", "-3"],
    ["list", "--no-such-option"],
    ["frobnicate"],
  ])
  func badInputIsAUsageError(_ arguments: [String]) {
    #expect(throws: (any Error).self) { try Gutenberg.parseAsRoot(arguments) }
    #expect(Gutenberg.exitCode(for: CapturedError(arguments)).rawValue == 64)
  }

  /// Runs the parser again to get the error it throws, for the exit-code check.
  struct CapturedError: Error {
    var arguments: [String]
    init(_ arguments: [String]) { self.arguments = arguments }
  }
}

extension Gutenberg {
  /// The exit code ArgumentParser gives the error these arguments produce.
  static func exitCode(for captured: CommandLineParsingTests.CapturedError) -> ExitCode {
    do {
      _ = try parseAsRoot(captured.arguments)
      return .success
    } catch {
      return exitCode(for: error)
    }
  }
}
