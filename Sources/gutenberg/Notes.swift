import ArgumentParser
import Terminal

struct Notes: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "notes",
    abstract: "List the highlights, bookmarks and notes made in the reader, or export them.",
    discussion: """
      In the reader, /word then hl [note] highlights the match, hl /FROM/ /TO/ [note] the \
      passage from FROM to TO, and b [note] bookmarks the page. Each is listed with its quote, \
      chapter and the command that opens the book there (gutenberg read ID --at OFFSET), also \
      when the download is gone. Piped: id, bookmark, kind, byte offset, end offset, chapter, \
      note, quote, command. --markdown writes a Markdown document per book (title, authors, \
      each quote as a block quote with its note and chapter); --json the same as data.
      """)

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Argument(help: "Only this book's (its Project Gutenberg number).") var id: Int?
  @Flag(help: "Print JSON.") var json = false
  @Flag(help: "Print Markdown: a document per book.") var markdown = false

  func validate() throws {
    if let id, id <= 0 { throw ValidationError("a book id is a positive number") }
    if json, markdown { throw ValidationError("--json and --markdown: choose one") }
  }

  func run() async throws {
    let format: NotesRunner.Format = json ? .json : markdown ? .markdown : .automatic
    try await global.values.run(readsOnly: true, readsNoPages: true, usesNoPageCache: true) {
      await NotesRunner(context: $0).run(id: id, format: format)
    }
  }
}
