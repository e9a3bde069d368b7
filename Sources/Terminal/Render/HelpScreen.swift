/// Every command, one per line, with what it does.
package struct HelpScreen: Sendable, Hashable {
  /// One command and its meaning.
  package struct Entry: Sendable, Hashable {
    /// What to type, e.g. `g N`.
    package var command: String
    /// What it does, in a few words.
    package var meaning: String

    /// An entry.
    package init(_ command: String, _ meaning: String) {
      self.command = command
      self.meaning = meaning
    }
  }

  /// The commands, in the order shown.
  package var entries: [Entry]

  /// A help screen; the standard commands by default.
  package init(entries: [Entry] = HelpScreen.standardEntries) {
    self.entries = entries
  }

  /// The commands of the interactive browser, from the session's command table.
  package static var standardEntries: [Entry] { CommandTable.helpEntries }
}

extension HelpScreen: LineRendering {
  /// The title, then the commands.
  package func parts(width: Int, style: Style) -> ScreenLines {
    ScreenLines(lines(width: width, style: style), heading: 1, footer: 0)
  }

  /// One command per line, meanings aligned and wrapped.
  package func lines(width: Int, style: Style) -> [String] {
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
