import ArgumentParser
import Catalog
import Terminal

struct Favorites: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "favorites", abstract: "List, add, remove, export, import or refresh favourites.",
    subcommands: [
      ListFavorites.self, Add.self, Remove.self, Export.self, Import.self, Refresh.self,
    ],
    defaultSubcommand: ListFavorites.self, aliases: ["favourites", "fav"])

  // Only so that `gutenberg favorites --help` lists them too; the subcommands use their own.
  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

  struct ListFavorites: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List favourites (tab-separated when piped).")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Option(help: "Order: newest, title or author.") var order: FavoriteOrder = .newest
    @Flag(help: "Print the export document (JSON).") var json = false

    func run() async throws {
      try await Self.run(global: global.values, order: order, json: json)
    }

    /// What ``run()`` does, on values parsed either way. A listing shows no server page, so
    /// the page cache is only read.
    static func run(global: GlobalValues, order: FavoriteOrder, json: Bool) async throws {
      let format: ListFormat = json ? .json : .automatic
      try await global.run(readsOnly: true, readsNoPages: true, usesNoPageCache: true) {
        await FavoritesRunner(context: $0).list(order: order, format: format)
      }
    }
  }

  struct Add: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add books by id.")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "Project Gutenberg numbers.") var ids: [Int]

    func validate() throws {
      try Self.validate(ids: ids)
    }

    /// The checks of ``validate()``, on ids read either way.
    static func validate(ids: [Int]) throws {
      if ids.isEmpty { throw ValidationError("give at least one book id") }
      if let bad = ids.first(where: { $0 <= 0 }) {
        throw ValidationError("'\(bad)' is not a book id")
      }
    }

    func run() async throws {
      try await Self.run(global: global.values, ids: ids)
    }

    /// What ``run()`` does, on values parsed either way.
    static func run(global: GlobalValues, ids: [Int]) async throws {
      try await global.run { await FavoritesRunner(context: $0).add(ids: ids) }
    }
  }

  struct Remove: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove books by id.", aliases: ["rm"])
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "Project Gutenberg numbers.") var ids: [Int]

    func validate() throws {
      try Self.validate(ids: ids)
    }

    /// The checks of ``validate()``, on ids read either way.
    static func validate(ids: [Int]) throws {
      if ids.isEmpty { throw ValidationError("give at least one book id") }
    }

    func run() async throws {
      try await Self.run(global: global.values, ids: ids)
    }

    /// What ``run()`` does, on values parsed either way.
    static func run(global: GlobalValues, ids: [Int]) async throws {
      try await global.run { await FavoritesRunner(context: $0).remove(ids: ids) }
    }
  }

  struct Export: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write favourites as JSON to standard output or a file (atomically).")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Option(name: .shortAndLong, help: "The file to write.") var output: String?

    func run() async throws {
      let path = output
      try await global.run { await FavoritesRunner(context: $0).export(to: path) }
    }
  }

  struct Import: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Merge favourites from an export, a Gutendex page or an array of books.")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "The JSON file, or - for standard input.") var file: String

    func run() async throws {
      let file = file
      try await global.run { await FavoritesRunner(context: $0).importFile(file) }
    }
  }

  struct Refresh: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "refresh",
      abstract: "Fetch fresh details of every favourite from the server.")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

    func run() async throws {
      try await global.run { await FavoritesRunner(context: $0).refresh() }
    }
  }
}

struct Cache: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "cache",
    abstract: "Inspect or clear the page cache.", subcommands: [Info.self, Clear.self],
    defaultSubcommand: Info.self)

  // Only so that `gutenberg cache --help` lists them too; the subcommands use their own.
  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

  struct Info: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "info", abstract: "Show cached pages, size and age.")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
      let format: ListFormat = json ? .json : .automatic
      try await global.run { await CacheRunner(context: $0).info(format: format) }
    }
  }

  struct Clear: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "clear", abstract: "Delete every cached page.")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

    func run() async throws {
      try await global.run { await CacheRunner(context: $0).clear() }
    }
  }
}

extension FavoriteOrder: ExpressibleByArgument {}
