import ArgumentParser
import Terminal

struct Bookmarks: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "bookmarks",
    abstract: "List the bookmarks and notes made in the reader (tab-separated when piped).",
    discussion: """
      In the reader, b [note] bookmarks the page's first words, bookmarks lists them and g bN \
      goes to one. Each keeps its byte offset and the words there, so it is found again in a \
      re-issued file or another edition. Piped: id, bookmark, byte offset, created, note, quote.
      """)

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Argument(help: "Only this book's (its Project Gutenberg number).") var id: Int?
  @Flag(help: "Print JSON.") var json = false

  func validate() throws {
    try Self.validate(id: id)
  }

  func run() async throws {
    try await Self.run(global: global.values, id: id, json: json)
  }

  /// The checks of ``validate()``, on values parsed either way.
  static func validate(id: Int?) throws {
    if let id, id <= 0 { throw ValidationError("a book id is a positive number") }
  }

  /// What ``run()`` does, on values parsed either way.
  static func run(global: GlobalValues, id: Int?, json: Bool) async throws {
    let format: ListFormat = json ? .json : .automatic
    try await global.run(readsOnly: true, readsNoPages: true, usesNoPageCache: true) {
      await BookmarksRunner(context: $0).run(id: id, format: format)
    }
  }
}
