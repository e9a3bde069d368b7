/// What one `gutenberg` command of a documented line asks for: its subcommand path, whether it
/// may use the network, and the options that decide what it prints.
struct Invocation: Sendable, Equatable {
  /// The arguments after `gutenberg`.
  var arguments: [String]
  /// The subcommand path, e.g. `["favorites", "add"]`; empty for the browser.
  var path: [String]
  /// The words after the subcommand path that are not options (ids, files).
  var operands: [String]
  /// `--help`, `--version` or `--generate-completion-script`: prints and exits.
  var isMeta: Bool
  /// `--offline`, `--source embedded` or `GUTENBERG_SOURCE=embedded`: no request may be sent.
  var isLocal: Bool

  /// Global options that take a value; the others are flags.
  static let valueOptions: Set<String> = [
    "--server", "--data-dir", "--source", "--color", "--timeout", "--generate-completion-script",
    "--max-age",
  ]
  static let groups: Set<String> = ["favorites", "favourites", "fav", "cache"]
  /// Options of subcommands that take a value, so their value is not read as an operand.
  static let subcommandValueOptions: Set<String> = [
    "-s", "--search", "-l", "--language", "--topic", "--author-year-start", "--author-year-end",
    "--copyright", "--ids", "--mime-type", "--sort", "--page", "--order", "-o", "--output",
  ]

  /// The invocation in one command's words, nil when that command is not `gutenberg`.
  init?(words: [String]) {
    let program = words.drop { $0.contains("=") && !$0.hasPrefix("-") }
    guard program.first == "gutenberg" else { return nil }
    let environment = words.prefix { $0.contains("=") && !$0.hasPrefix("-") }
    arguments = Array(program.dropFirst())
    path = []
    operands = []
    isMeta = false
    isLocal =
      environment.contains("GUTENBERG_SOURCE=embedded")
      || environment.contains("GUTENBERG_SOURCE=local")
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      index += 1
      let name = String(word.prefix { $0 != "=" })
      if ["--help", "-h", "--version", "--generate-completion-script"].contains(name) {
        isMeta = true
      }
      if word == "--offline" { isLocal = true }
      if word == "--source=embedded" { isLocal = true }
      if word == "--source", index < arguments.count,
        ["embedded", "local"].contains(arguments[index])
      {
        isLocal = true
      }
      if word == "--source=local" { isLocal = true }
      if word.hasPrefix("-") {
        let takesValue =
          Self.valueOptions.contains(word) || Self.subcommandValueOptions.contains(word)
        if takesValue { index += 1 }
        continue
      }
      if path.isEmpty {
        path.append(word)
      } else if path.count == 1, Self.groups.contains(path[0]), operands.isEmpty,
        Self.isGroupSubcommand(word)
      {
        path.append(word)
      } else {
        operands.append(word)
      }
    }
    if path.first == "help" { isMeta = true }
  }

  static func isGroupSubcommand(_ word: String) -> Bool {
    ["list", "add", "remove", "rm", "export", "import", "refresh", "info", "clear"].contains(word)
  }

  /// The subcommand path with aliases and defaults resolved: `fav` is `favorites list`.
  var canonicalPath: [String] {
    guard let first = path.first else { return [] }
    switch first {
    case "favourites", "fav", "favorites":
      let sub = path.count > 1 ? path[1] : "list"
      return ["favorites", sub == "rm" ? "remove" : sub]
    case "cache":
      return ["cache", path.count > 1 ? path[1] : "info"]
    case "browse":
      return []
    default:
      return path
    }
  }

  /// True for the interactive browser, the only command with key hints and a prompt.
  var isBrowser: Bool { !isMeta && canonicalPath.isEmpty }

  /// The one-shot commands the browser's key hints must never appear in.
  var isOneShot: Bool {
    !isMeta && ["list", "show", "status", "favorites", "cache"].contains(canonicalPath.first ?? "")
  }

  /// Whether the command must ask the server: true or false for the commands this test knows,
  /// nil for one it does not (a new subcommand), which may or may not.
  var asksServer: Bool? {
    if isMeta || isLocal { return false }
    let path = canonicalPath
    if path.first == "sync" { return !arguments.contains("--log") }
    if path.isEmpty || ["list", "show", "status"].contains(path[0])
      || path == ["favorites", "add"] || path == ["favorites", "refresh"]
    {
      return true
    }
    return ["favorites", "cache", "new"].contains(path[0]) ? false : nil
  }

  /// Whether it may answer from a freshly synced local catalogue with no request (`--source
  /// auto`, the default): the lists, searches and details of the browser, `list` and `show`.
  var mayAnswerLocallyFirst: Bool {
    let path = canonicalPath
    let source = value(of: ["--source"]) ?? "auto"
    return source == "auto" && value(of: ["--max-age"]) != "0"
      && (path.isEmpty || ["list", "show"].contains(path[0]))
  }

  /// True when `--json` was given.
  var isJSON: Bool { arguments.contains("--json") }

  /// The value of an option, e.g. `-o FILE` or `--output=FILE`.
  func value(of names: [String]) -> String? {
    for (index, word) in arguments.enumerated() {
      for name in names {
        if word == name, index + 1 < arguments.count { return arguments[index + 1] }
        if word.hasPrefix(name + "=") { return String(word.dropFirst(name.count + 1)) }
      }
    }
    return nil
  }
}
