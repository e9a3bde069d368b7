import Gutendex

/// Turns a prompt line into a ``PromptCommand``, forgiving about spacing and case of keywords,
/// strict about numbers; a line it cannot understand gives one helpful sentence.
public struct PromptParser: Sendable {
  /// The screen the line is typed on: some keys mean something else there (`b`, Enter, `sort`).
  public enum Context: Sendable, Hashable {
    case browse, details, links, favorites, status, help
  }

  /// Why a line was not understood: one sentence for the user.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the line.
    public var message: String
    /// The message, for printing.
    public var description: String { message }
  }

  /// Rows and pages above this are refused before they reach anything else.
  public static let maxNumber = 1_000_000

  /// A parser.
  public init() {}

  /// The command a prompt line stands for on the screen `context`, or why it stands for none.
  public func parse(_ line: String, context: Context = .browse) throws(Failure) -> PromptCommand {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return context == .browse ? .next : .back }
    if trimmed.hasPrefix("/") {
      let words = Self.words(String(trimmed.dropFirst()))
      return .search(words.isEmpty ? nil : words.joined(separator: " "))
    }
    let parts = Self.words(trimmed)
    let head = parts[0]
    let args = Array(parts.dropFirst())
    // Single-letter keys are case-sensitive (`f` toggles, `F` opens favourites); words are not.
    let word = head.count > 1 ? head.lowercased() : head
    switch word {
    case "n", "next":
      try noArguments(args, head)
      return .next
    case "p", "prev", "previous":
      try noArguments(args, head)
      return .previous
    case "b", "back":
      try noArguments(args, head)
      return context == .browse ? .previous : .back
    case "g", "go", "goto":
      guard args.count == 1 else { throw fail("usage: g N (go to page N)") }
      return .goTo(page: try number(args[0], what: "page"))
    case "f", "fav":
      // On a details or links screen a bare `f` means the book shown.
      if args.isEmpty, context == .details || context == .links {
        return .toggleFavorites(rows: [])
      }
      guard !args.isEmpty else { throw fail("usage: f N, f 1 3 5 or f 2-4 (toggle favourites)") }
      return .toggleFavorites(rows: try rows(args))
    case "F", "favorites", "favourites":
      try noArguments(args, head)
      return .favorites
    case "rm", "remove", "del":
      guard !args.isEmpty else { throw fail("usage: rm N, rm 1 3 or rm 2-4 (remove favourites)") }
      return .removeFavorites(rows: try rows(args))
    case "lang", "language", "languages":
      let codes = args.joined(separator: ",").split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }.filter { !$0.isEmpty }
      for code in codes where !code.allSatisfy({ $0.isASCII && $0.isLetter }) || code.count > 3 {
        throw fail("'\(code)' is not a language code (use codes such as en, fr, enm)")
      }
      return .languages(codes)
    case "topic":
      return .topic(args.isEmpty ? nil : args.joined(separator: " "))
    case "years", "year":
      guard args.count == 2 else {
        throw fail(
          "usage: years FROM TO (e.g. years 1800 1900; '-' leaves one open; BCE is negative)")
      }
      let from = try year(args[0])
      let to = try year(args[1])
      if let from, let to, from > to {
        throw fail("years: FROM (\(from)) is after TO (\(to))")
      }
      return .years(from: from, to: to)
    case "copyright":
      guard args.count == 1 else { throw fail("usage: copyright yes|no|unknown|any") }
      switch args[0].lowercased() {
      case "yes", "true": return .copyright([.copyrighted])
      case "no", "false": return .copyright([.publicDomain])
      case "unknown", "null": return .copyright([.unknown])
      case "any", "all": return .copyright([])
      default: throw fail("copyright takes yes, no, unknown or any, not '\(args[0])'")
      }
    case "sort":
      guard args.count == 1 else {
        throw fail(
          context == .favorites
            ? "usage: sort newest|title|author" : "usage: sort popular|ascending|descending")
      }
      let value = args[0].lowercased()
      if context == .favorites {
        guard ["newest", "title", "author"].contains(value) else {
          throw fail("favourites sort by newest, title or author, not '\(args[0])'")
        }
        return .favoritesOrder(value)
      }
      guard let sort = BookSort(rawValue: value) else {
        throw fail("sort takes popular, ascending or descending, not '\(args[0])'")
      }
      return .sort(sort)
    case "reset", "clear":
      try noArguments(args, head)
      return .reset
    case "r", "refresh", "reload":
      try noArguments(args, head)
      return .refresh
    case "links", "l":
      guard args.count <= 1 else { throw fail("usage: links N (download links of row N)") }
      guard let first = args.first else { return .links(row: nil) }
      return .links(row: try number(first, what: "row"))
    case "d", "download", "get":
      guard args.count <= 1 else { throw fail("usage: d N (download book N)") }
      guard let first = args.first else { return .download(row: nil) }
      return .download(row: try number(first, what: "row"))
    case "read", "R":
      guard args.count <= 1 else { throw fail("usage: read N (read book N)") }
      guard let first = args.first else { return .read(row: nil) }
      return .read(row: try number(first, what: "row"))
    case "offline":
      guard args.count == 1, ["on", "off"].contains(args[0].lowercased()) else {
        throw fail("usage: offline on|off (simulate having no network)")
      }
      return .offline(args[0].lowercased() == "on")
    case "export":
      guard args.count <= 1 else { throw fail("usage: export [FILE] (no spaces in FILE)") }
      return .export(path: args.first)
    case "import":
      guard args.count == 1 else { throw fail("usage: import FILE") }
      return .importFile(path: args[0])
    case "s", "status":
      try noArguments(args, head)
      return .status
    case "h", "?", "help":
      return .help
    case "q", "quit", "exit":
      return .quit
    default:
      if args.isEmpty, head.allSatisfy(\.isNumber) {
        return .details(row: try number(head, what: "row"))
      }
      throw fail("unknown command '\(Self.shorten(head))' — type ? for help")
    }
  }

  static func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
  }

  static func shorten(_ text: String) -> String {
    text.count > 20 ? String(text.prefix(20)) + "…" : text
  }

  private func fail(_ message: String) -> Failure {
    Failure(message: message)
  }

  private func noArguments(_ args: [String], _ head: String) throws(Failure) {
    if !args.isEmpty { throw fail("'\(Self.shorten(head))' takes no arguments") }
  }

  private func number(_ text: String, what: String) throws(Failure) -> Int {
    guard text.allSatisfy({ $0.isASCII && $0.isNumber }), !text.isEmpty else {
      throw fail("'\(Self.shorten(text))' is not a \(what) number")
    }
    guard let value = Int(text), value <= Self.maxNumber else {
      throw fail("\(what) \(Self.shorten(text)) is too large")
    }
    guard value >= 1 else { throw fail("\(what) numbers start at 1") }
    return value
  }

  private func rows(_ args: [String]) throws(Failure) -> [Int] {
    var result: [Int] = []
    for arg in args.flatMap({ $0.split(separator: ",").map(String.init) }) {
      let bounds = arg.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
      if bounds.count == 2 {
        let low = try number(bounds[0], what: "row")
        let high = try number(bounds[1], what: "row")
        guard low <= high else {
          throw fail("'\(arg)' is not a range (write the smaller row first)")
        }
        guard high - low < 1000 else { throw fail("range '\(arg)' is too long") }
        result += Array(low...high)
      } else {
        result.append(try number(arg, what: "row"))
      }
    }
    var seen = Set<Int>()
    return result.filter { seen.insert($0).inserted }
  }

  private func year(_ text: String) throws(Failure) -> Int? {
    if ["-", "?", "any", "*"].contains(text) { return nil }
    guard let value = Int(text), abs(value) <= 10_000 else {
      throw fail("'\(Self.shorten(text))' is not a year (use e.g. 1850, -750 for 750 BCE, or -)")
    }
    return value
  }
}
