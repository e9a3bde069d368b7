import ArgumentParser
import Terminal

struct Read: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "read",
    abstract: "Read a book's plain text in a pager (downloads it first when needed).",
    discussion: """
      On a terminal, keys as in more and less, without Enter: Space or f next screen, b back, \
      j/k a row, d/u half a screen, g/G first/last page, 50% or 120g to jump, /word and ?word \
      to search, n/N next/previous match, m to mark the page (then a note), ' to go to a mark, \
      r to redraw, h the keys, q to quit, and : for a command: toc, toc N, marks, g 50%, \
      set width N, b -N. Piped (or TERM=dumb), those commands one a line: Enter or n next \
      page, p previous, g 50% or g LINE, /word then n, toc, b [note], bookmarks, g bN, q. \
      Prose is joined again and wrapped to the window (or --width); verse, tables, headings \
      and indented lines are kept as written. Long lines are paged by rows, never cut. A file \
      that is not text is refused (exit 65). The Project Gutenberg header and licence are folded away \
      unless --raw. Where you stop is kept and `read` starts there next time; when the file \
      changed (re-issued, or another edition), the words kept with the place find it again, \
      and when they are not in it the reader says so and starts at the beginning. When standard \
      output is not a terminal, the text is printed (gutenberg read 84 | less).
      """)

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Argument(help: "The Project Gutenberg number of the book.") var id: Int
  @Flag(help: "Show the Project Gutenberg header and licence too.") var raw = false
  @Flag(help: "Page even when standard output is not a terminal (commands from standard input).")
  var pager = false
  @Option(help: "Fetch Project Gutenberg files from this mirror URL (see `gutenberg get --help`).")
  var mirror: String?
  @Option(
    name: .customLong("at"),
    help: ArgumentHelp(
      "Open on the page holding this byte offset of the file (as `library search` prints it).",
      valueName: "byte-offset"))
  var offset: Int?
  @Option(
    help: ArgumentHelp(
      "Wrap the prose to this many columns when the window is wider (also :set width N).",
      valueName: "columns"))
  var width: Int?

  func validate() throws {
    guard id > 0 else { throw ValidationError("a book id is a positive number") }
    if let offset, offset < 0 { throw ValidationError("--at is a byte offset, 0 or more") }
    if let width, !(20...1000).contains(width) {
      throw ValidationError("--width is a number of columns from 20 to 1000")
    }
  }

  func run() async throws {
    let (id, raw, pager, mirror, offset, width) = (id, raw, pager, mirror, offset, width)
    try await global.run {
      await ReadRunner(context: $0).run(
        id: id, raw: raw, pager: pager, mirror: mirror, at: offset, textWidth: width,
        input: StandardInput())
    }
  }
}
