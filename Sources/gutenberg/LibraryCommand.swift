import ArgumentParser
import Terminal

struct LibraryCommand: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "library", abstract: "List downloaded books, or remove them.",
    subcommands: [ListLibrary.self, RemoveFromLibrary.self], defaultSubcommand: ListLibrary.self)

  // Only so that `gutenberg library --help` lists them too; the subcommands use their own.
  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

  struct ListLibrary: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List downloads (tab-separated when piped).")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
      let format: GutenbergApp.ListFormat = json ? .json : .automatic
      try await global.run { await $0.libraryList(format: format) }
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
      try await global.run { await $0.libraryRemove(ids: ids) }
    }
  }
}
