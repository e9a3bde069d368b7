/// What Tab completes at the browser's prompt: command names first, then each command's own
/// words (languages, sort orders, on/off), and the row numbers of the page on screen.
package struct Completion: Sendable, Equatable {
  /// The names of the commands.
  var commands: [String]
  /// The words each command takes, by command name.
  var arguments: [String: [String]]
  /// The rows on screen (1…N), for the commands that take a row.
  var rows: Int

  /// The words that complete the last word of `line` (the text before the cursor).
  func candidates(completing line: String) -> [String] {
    let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    let word = words.last ?? ""
    let choices: [String]
    if words.count <= 1 {
      choices = commands
    } else {
      let command = words[0]
      if let own = arguments[command] ?? arguments[command.lowercased()] {
        choices = own
      } else if Self.rowCommands.contains(command) {
        choices = rows > 0 ? (1...rows).map(String.init) : []
      } else {
        choices = []
      }
    }
    let lowered = word.lowercased()
    var seen = Set<String>()
    return choices.filter { $0.lowercased().hasPrefix(lowered) && seen.insert($0).inserted }
  }

  /// Commands whose argument is a row of the list on screen.
  static let rowCommands: Set<String> = [
    "f", "fav", "d", "download", "get", "read", "R", "links", "l", "rm", "remove", "del",
  ]

  /// The browser's completion with `rows` rows on screen.
  static func browser(rows: Int) -> Completion {
    let names = CommandTable.all.flatMap(\.names).filter { $0.count > 1 && $0 != "/" }
    var languages = CatalogueLanguages.names.values.map { $0.english.lowercased() }
    languages += CatalogueLanguages.codes
    let sortOrders = ["popular", "ascending", "descending", "newest", "title", "author"]
    var arguments: [String: [String]] = [
      "offline": ["on", "off"], "copyright": ["yes", "no", "unknown", "any"],
      "sort": sortOrders,
    ]
    for name in ["lang", "language", "languages"] { arguments[name] = languages.sorted() }
    return Completion(commands: names.sorted(), arguments: arguments, rows: rows)
  }
}
