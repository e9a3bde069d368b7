/// Every command, one per line, with what it does.
public struct HelpScreen: Sendable, Hashable {
  /// One command and its meaning.
  public struct Entry: Sendable, Hashable {
    /// What to type, e.g. `g N`.
    public var command: String
    /// What it does, in a few words.
    public var meaning: String

    /// An entry.
    public init(_ command: String, _ meaning: String) {
      self.command = command
      self.meaning = meaning
    }
  }

  /// The commands, in the order shown.
  public var entries: [Entry]

  /// A help screen; the standard commands by default.
  public init(entries: [Entry] = HelpScreen.standardEntries) {
    self.entries = entries
  }

  /// The commands of the interactive browser.
  public static let standardEntries = [
    Entry("Enter, n", "next page"),
    Entry("p, b", "previous page"),
    Entry("g N", "go to page N"),
    Entry("N", "details of book N on screen"),
    Entry("links N", "every download format of book N with its URL"),
    Entry("f N", "add or remove favourites: f 3, f 1 3 5, f 2-4"),
    Entry("d [N]", "download book N (or the book shown) to the library"),
    Entry("read [N]", "read book N (or the book shown) in the pager; q comes back"),
    Entry("/ WORDS", "search titles and authors (/ alone clears the search)"),
    Entry("lang CODES", "only these languages, e.g. lang en,fr (lang alone: any)"),
    Entry("topic WORDS", "only books with this subject or bookshelf"),
    Entry("years FROM TO", "authors alive between these years (- for open, -750 for 750 BC)"),
    Entry("copyright X", "yes, no, unknown or any"),
    Entry("sort ORDER", "popular, ascending or descending (by number)"),
    Entry("reset", "clear search and filters"),
    Entry("r", "reload this page from the server"),
    Entry("F", "favourites (there: rm N, sort newest|title|author, r refresh)"),
    Entry("export [FILE]", "save favourites as JSON"),
    Entry("import FILE", "add favourites from a JSON file"),
    Entry("offline on|off", "simulate having no network"),
    Entry("s", "status: server, source, cache and recent requests"),
    Entry("b", "back to the list (from details, links, favourites)"),
    Entry("h, ?", "this help"),
    Entry("q, Ctrl-D", "quit"),
  ]
}

extension HelpScreen: LineRendering {
  /// One command per line, meanings aligned and wrapped.
  public func lines(width: Int, style: Style) -> [String] {
    let commands = entries.map { Sanitizer.sanitize($0.command) }
    let commandWidth = min(commands.map(DisplayWidth.cells).max() ?? 0, max(8, width / 3))
    var lines = [style.bold("Commands")]
    for (command, entry) in zip(commands, entries) {
      let head = "  " + DisplayWidth.pad(command, toCells: commandWidth) + "  "
      let indent = String(repeating: " ", count: commandWidth + 4)
      if DisplayWidth.cells(head) > commandWidth + 4 {
        lines.append(DisplayWidth.truncate("  " + command, toCells: width))
        lines += TextWrapper.wrap(
          Sanitizer.sanitize(entry.meaning), toCells: width, firstPrefix: indent, prefix: indent)
      } else {
        lines += TextWrapper.wrap(
          Sanitizer.sanitize(entry.meaning), toCells: width, firstPrefix: head, prefix: indent)
      }
    }
    return lines
  }
}
