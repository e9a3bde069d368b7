import ArgumentParser
import Terminal
import Testing

@testable import gutenberg

/// The global options: accepted before and after the subcommand's name, by every command, and
/// listed once in every `--help`.
@Suite struct GlobalOptionsParsingTests {
  /// Every global option with a value that is not its default.
  static let globals = [
    "--server", "http://127.0.0.1:9", "--data-dir", "/tmp/x", "--offline", "--source", "embedded",
    "--color", "never", "--timeout", "2.5", "--verbose",
  ]

  /// Each command path with the arguments it needs, and the type it parses into.
  static let commands: [([String], any GlobalOptionsCommand.Type)] = [
    ([], Browse.self),
    (["browse"], Browse.self),
    (["list", "--search", "dickens"], List.self),
    (["show", "84"], Show.self),
    (["status"], Status.self),
    (["favorites"], Favorites.ListFavorites.self),
    (["favorites", "list", "--order", "title"], Favorites.ListFavorites.self),
    (["favorites", "add", "84", "1342"], Favorites.Add.self),
    (["fav", "rm", "84"], Favorites.Remove.self),
    (["favorites", "export", "-o", "out.json"], Favorites.Export.self),
    (["favorites", "import", "in.json"], Favorites.Import.self),
    (["favorites", "refresh"], Favorites.Refresh.self),
    (["cache"], Cache.Info.self),
    (["cache", "clear"], Cache.Clear.self),
  ]

  static func expectAllGlobals(_ options: AppOptions, _ arguments: [String]) {
    #expect(options.server == "http://127.0.0.1:9", "\(arguments)")
    #expect(options.dataDirectory == "/tmp/x", "\(arguments)")
    #expect(options.offline, "\(arguments)")
    #expect(options.source == .embedded, "\(arguments)")
    #expect(options.color == .never, "\(arguments)")
    #expect(options.timeout == 2.5, "\(arguments)")
    #expect(options.verbose, "\(arguments)")
  }

  @Test func beforeTheSubcommand() throws {
    for (path, type) in Self.commands {
      let arguments = Self.globals + path
      let command = try Gutenberg.parseAsRoot(arguments)
      #expect(Swift.type(of: command) == type, "\(arguments)")
      let adopted = try #require(command as? any GlobalOptionsCommand, "\(arguments)")
      Self.expectAllGlobals(adopted.global.appOptions, arguments)
    }
  }

  @Test func afterTheSubcommand() throws {
    for (path, type) in Self.commands {
      let arguments = path + Self.globals
      let command = try Gutenberg.parseAsRoot(arguments)
      #expect(Swift.type(of: command) == type, "\(arguments)")
      let adopted = try #require(command as? any GlobalOptionsCommand, "\(arguments)")
      Self.expectAllGlobals(adopted.global.appOptions, arguments)
    }
  }

  /// Some before the subcommand, some between a group and its subcommand, some at the end.
  @Test func splitAroundTheSubcommands() throws {
    let command = try #require(
      try Gutenberg.parseAsRoot([
        "--server", "http://127.0.0.1:9", "--offline", "favorites", "--source", "embedded",
        "add", "84", "--color", "never", "--data-dir", "/tmp/x", "--timeout", "2.5", "--verbose",
      ]) as? Favorites.Add)
    #expect(command.ids == [84])
    Self.expectAllGlobals(command.global.appOptions, ["split"])
  }

  /// The subcommand's own options are not taken for global ones, wherever these stand.
  @Test func subcommandOptionsStayTheSubcommands() throws {
    let command = try #require(
      try Gutenberg.parseAsRoot([
        "--source", "embedded", "list", "-l", "fr", "--author-year-start", "-750", "--offline",
        "--page", "2",
      ]) as? List)
    let query = try command.filters.query(options: command.global.appOptions)
    #expect(query.languages == ["fr"])
    #expect(query.authorYearStart == -750)
    #expect(query.page == 2)
    #expect(command.global.offline)
    #expect(command.global.source == .embedded)
  }

  @Test func withoutGlobalsTheDefaultsHold() throws {
    let command = try #require(try Gutenberg.parseAsRoot(["status"]) as? Status)
    let options = command.global.appOptions
    #expect(options.server == nil)
    #expect(options.dataDirectory == nil)
    #expect(!options.offline)
    #expect(options.source == nil)
    #expect(options.color == .auto)
    #expect(options.timeout == nil)
    #expect(!options.verbose)
  }

  @Test(arguments: [
    ["--timeout", "0", "list"],
    ["--source", "cloud", "list"],
    ["--color", "purple"],
    ["--server"],
  ])
  func badGlobalBeforeTheSubcommandIsAUsageError(_ arguments: [String]) {
    #expect(throws: (any Error).self) { try Gutenberg.parseAsRoot(arguments) }
    #expect(
      Gutenberg.exitCode(for: CommandLineParsingTests.CapturedError(arguments)).rawValue == 64)
  }

  /// Every command in the tree, the root and the groups included.
  static func allCommands() -> [(path: [String], type: any ParsableCommand.Type)] {
    var result: [(path: [String], type: any ParsableCommand.Type)] = []
    func walk(_ type: any ParsableCommand.Type, _ path: [String]) {
      result.append((path, type))
      for sub in type.configuration.subcommands {
        walk(sub, path + [sub._commandName])
      }
    }
    walk(Gutenberg.self, [])
    return result
  }

  /// A new subcommand that forgets the global options fails here.
  @Test func everyCommandAdoptsTheGlobalOptions() {
    let commands = Self.allCommands()
    #expect(commands.count >= 14)
    for (path, type) in commands {
      #expect(type is any GlobalOptionsCommand.Type, "gutenberg \(path.joined(separator: " "))")
    }
  }

  @Test func everyHelpListsTheGlobalOptionsOnce() {
    for (path, type) in Self.allCommands() {
      let help = Gutenberg.helpMessage(for: type, columns: 100)
      let name = "gutenberg \(path.joined(separator: " ")) --help"
      #expect(help.occurrences(of: "GLOBAL OPTIONS:") == 1, "\(name):\n\(help)")
      for option in [
        "--server <server>", "--data-dir <data-dir>", "--offline", "--source <source>",
        "--color <color>", "--timeout <timeout>", "--verbose",
      ] {
        // Once in the option list; the usage line may name it again.
        let listed = help.split(separator: "\n").filter {
          $0.trimmingCharacters(in: .whitespaces).hasPrefix(option)
        }
        #expect(listed.count == 1, "\(name): \(option)\n\(help)")
      }
    }
  }
}

extension String {
  fileprivate func occurrences(of needle: String) -> Int {
    components(separatedBy: needle).count - 1
  }
}
