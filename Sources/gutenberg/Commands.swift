import ArgumentParser
import Catalog
import Terminal

struct Browse: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "browse",
    abstract: "Browse interactively (the default): n next, p previous, / search, ? help.")

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @OptionGroup var filters: QueryOptions

  func validate() throws {
    _ = try filters.languageCodes(options: global.appOptions)
  }

  func run() async throws {
    let query = try filters.query(options: global.appOptions)
    try await global.run {
      await BrowseRunner(context: $0).run(query: query, input: StandardInput())
    }
  }
}

struct List: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "Print a page of books (tab-separated when piped).")

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @OptionGroup var filters: QueryOptions
  @Flag(help: "Stream every page, not just one.") var all = false
  @Flag(help: "Print JSON.") var json = false

  func validate() throws {
    try Self.validate(global: global.values, filters: filters.values)
  }

  func run() async throws {
    try await Self.run(global: global.values, filters: filters.values, all: all, json: json)
  }

  /// The checks of ``validate()``, on values parsed either way.
  static func validate(global: GlobalValues, filters: QueryValues) throws {
    _ = try filters.languageCodes(options: global.appOptions)
  }

  /// What ``run()`` does, on values parsed either way.
  static func run(global: GlobalValues, filters: QueryValues, all: Bool, json: Bool) async throws {
    let query = try filters.query(options: global.appOptions)
    let format: ListFormat = json ? .json : .automatic
    try await global.run(readsOnly: true) {
      await ListRunner(context: $0).run(query: query, all: all, format: format)
    }
  }
}

struct Show: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show one book with every detail and download link.",
    discussion: """
      Where the book came from, when the server could not be used (the cache, a saved \
      favourite or the embedded catalogue), is a note on standard error, as for `list`.
      """)

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Argument(help: "The Project Gutenberg number of the book.") var id: Int
  @Flag(help: "Print the book's JSON as the server gives it.") var json = false

  func validate() throws {
    try Self.validate(id: id)
  }

  func run() async throws {
    try await Self.run(global: global.values, id: id, json: json)
  }

  /// The checks of ``validate()``, on values parsed either way.
  static func validate(id: Int) throws {
    guard id > 0 else { throw ValidationError("a book id is a positive number") }
  }

  /// What ``run()`` does, on values parsed either way. A book's details come from the server
  /// (or a fallback) and are never stored as a page, so the page cache is only read.
  static func run(global: GlobalValues, id: Int, json: Bool) async throws {
    let format: ListFormat = json ? .json : .automatic
    try await global.run(readsOnly: true, readsNoPages: true) {
      await ShowRunner(context: $0).run(id: id, format: format)
    }
  }
}

struct Status: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show the server, the source, favourites, cache and recent requests.")

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Flag(help: "Print JSON.") var json = false

  func run() async throws {
    try await Self.run(global: global.values, json: json)
  }

  /// What ``run()`` does, on values parsed either way. The probe asks the server for a page
  /// it does not keep, so the page cache is only read.
  static func run(global: GlobalValues, json: Bool) async throws {
    let format: ListFormat = json ? .json : .automatic
    try await global.run(readsOnly: true, readsNoPages: true) {
      await StatusRunner(context: $0).run(format: format)
    }
  }
}
