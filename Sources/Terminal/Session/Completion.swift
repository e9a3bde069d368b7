/// What Tab completes at the browser's prompt: command names first, then each command's own
/// words (languages, sort orders, on/off), and the row numbers of the page on screen.
package struct Completion: Sendable, Equatable {
  /// The names of the commands.
  var commands: [String]
  /// The words each command takes, by command name.
  var arguments: [String: [String]]
  /// The rows on screen (1…N), for the commands that take a row.
  var rows: Int

  /// The words that complete the last word of `line` (the text before the cursor). Language
  /// words match without case or accents, in any script (`deu` → deutsch, `рус` → русский);
  /// a three-letter ISO 639-2 code that several names begin (`eng`: english, englisc) is the
  /// language's own code (`en`).
  func candidates(completing line: String) -> [String] {
    let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    let word = words.last ?? ""
    let choices: [String]
    var isLanguage = false
    if words.count <= 1 {
      choices = commands
    } else {
      let command = words[0]
      if let own = arguments[command] ?? arguments[command.lowercased()] {
        choices = own
        isLanguage = Self.languageCommands.contains(command.lowercased())
      } else if Self.rowCommands.contains(command) {
        choices = rows > 0 ? (1...rows).map(String.init) : []
      } else {
        choices = []
      }
    }
    let typed = isLanguage ? CatalogueLanguages.comparable(word) : word.lowercased()
    var seen = Set<String>()
    let found = choices.filter { choice in
      let key = isLanguage ? CatalogueLanguages.comparable(choice) : choice.lowercased()
      return key.hasPrefix(typed) && seen.insert(choice).inserted
    }
    if isLanguage, found.count != 1, let code = CatalogueLanguages.isoAlpha3[typed] {
      return [code]
    }
    return found
  }

  /// Commands whose argument is a row of the list on screen.
  static let rowCommands: Set<String> = [
    "f", "fav", "d", "download", "get", "read", "R", "links", "l", "rm", "remove", "del",
  ]

  /// Commands whose arguments are languages.
  static let languageCommands: Set<String> = ["lang", "language", "languages"]

  /// The browser's completion with `rows` rows on screen.
  static func browser(rows: Int) -> Completion {
    let names = CommandTable.all.flatMap(\.names).filter { $0.count > 1 && $0 != "/" }
    // Codes, then the one-word names in English and in the language itself.
    var languages = CatalogueLanguages.codes
    for code in CatalogueLanguages.codes {
      guard let name = CatalogueLanguages.names[code] else { continue }
      for spelling in [name.english, name.native] where !spelling.contains(" ") {
        languages.append(spelling.lowercased())
      }
    }
    let sortOrders = ["popular", "ascending", "descending", "newest", "title", "author"]
    var arguments: [String: [String]] = [
      "offline": ["on", "off"], "copyright": ["yes", "no", "unknown", "any"],
      "sort": sortOrders,
    ]
    var seen = Set<String>()
    let unique = languages.sorted().filter { seen.insert($0).inserted }
    for name in languageCommands { arguments[name] = unique }
    return Completion(commands: names.sorted(), arguments: arguments, rows: rows)
  }
}
