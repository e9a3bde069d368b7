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

  /// The commands of the interactive browser, from the session's command table.
  public static var standardEntries: [Entry] { CommandTable.helpEntries }
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
