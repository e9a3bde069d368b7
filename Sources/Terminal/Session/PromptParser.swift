import Foundation
import Gutendex

/// Turns a prompt line into a ``PromptCommand``, forgiving about spacing and case of keywords,
/// strict about numbers; a line it cannot understand gives one helpful sentence.
package struct PromptParser: Sendable {
  /// Why a line was not understood: one sentence for the user.
  package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the line.
    package var message: String
    /// The message, for printing.
    package var description: String { message }
  }

  /// Rows and pages above this are refused before they reach anything else.
  package static let maxNumber = 1_000_000

  /// Where `lang` finds the codes of the user's catalogue, asked only for a word that is not a
  /// known language's code or name.
  private let languages: @Sendable () -> [String]

  /// A parser whose `lang` knows the codes `catalogueLanguages` gives (none: the fixed table
  /// and the shape of a code only).
  package init(catalogueLanguages: @escaping @Sendable () -> [String] = { [] }) {
    languages = catalogueLanguages
  }

  /// The command a prompt line stands for on `screen`, or why it stands for none.
  package func parse(_ line: String, context screen: Screen = .browse) throws(Failure)
    -> PromptCommand
  {
    let (spec, head, args) = Self.match(line)
    guard let spec else {
      let names = CommandTable.all.flatMap(\.names).filter { $0.count > 2 }
      if let name = ClosestWord.nearest(to: head, among: names) {
        throw Self.fail("unknown command '\(Self.shorten(head))' — did you mean '\(name)'?")
      }
      throw Self.fail("unknown command '\(Self.shorten(head))' — type ? for help")
    }
    return try run(spec, args, head, screen).get()
  }

  /// The progress line for `line` while it runs on `screen`.
  package func progressText(for line: String, on screen: Screen) -> String {
    let (spec, head, args) = Self.match(line)
    guard let spec, (try? run(spec, args, head, screen).get()) != nil else { return "working…" }
    return spec.progress(screen) ?? "working…"
  }

  /// `spec`'s parser on the arguments, given this parser's catalogue when it asks for one
  /// (`lang`). Passed as an argument: a task-local bound here crashed release builds
  /// (`swift_task_localValuePush`, SIGSEGV on the browser's first line).
  private func run(_ spec: CommandSpec, _ args: [String], _ head: String, _ screen: Screen)
    -> Result<PromptCommand, Failure>
  {
    do throws(Failure) {
      if let catalogueParse = spec.catalogueParse {
        return .success(try catalogueParse(args, languages))
      }
      return .success(try spec.parse(args, head, screen))
    } catch {
      return .failure(error)
    }
  }

  /// The table entry a line names, with the word that named it and its arguments.
  static func match(_ line: String) -> (spec: CommandSpec?, head: String, args: [String]) {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return (CommandTable.enter, "", []) }
    if trimmed.hasPrefix("/") {
      return (CommandTable.search, "/", words(String(trimmed.dropFirst())))
    }
    let parts = words(trimmed)
    let head = parts[0]
    let args = Array(parts.dropFirst())
    // Single-letter keys are case-sensitive (`f` toggles, `F` opens favourites); words are not.
    if let spec = CommandTable.spec(named: head.count > 1 ? head.lowercased() : head) {
      return (spec, head, args)
    }
    if args.isEmpty, head.allSatisfy(\.isNumber) { return (CommandTable.row, head, args) }
    return (nil, head, args)
  }

  static func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
  }

  static func shorten(_ text: String) -> String {
    text.count > 20 ? String(text.prefix(20)) + "…" : text
  }

  static func fail(_ message: String) -> Failure {
    Failure(message: message)
  }

  static func noArguments(_ args: [String], _ head: String) throws(Failure) {
    if !args.isEmpty { throw Self.fail("'\(Self.shorten(head))' takes no arguments") }
  }

  static func number(_ text: String, what: String) throws(Failure) -> Int {
    guard text.allSatisfy({ $0.isASCII && $0.isNumber }), !text.isEmpty else {
      throw Self.fail("'\(Self.shorten(text))' is not a \(what) number")
    }
    guard let value = Int(text), value <= Self.maxNumber else {
      throw Self.fail("\(what) \(Self.shorten(text)) is too large")
    }
    guard value >= 1 else { throw Self.fail("\(what) numbers start at 1") }
    return value
  }

  static func rows(_ args: [String]) throws(Failure) -> [Int] {
    var result: [Int] = []
    for arg in args.flatMap({ $0.split(separator: ",").map(String.init) }) {
      let bounds = arg.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
      if bounds.count == 2 {
        let low = try Self.number(bounds[0], what: "row")
        let high = try Self.number(bounds[1], what: "row")
        guard low <= high else {
          throw Self.fail("'\(arg)' is not a range (write the smaller row first)")
        }
        guard high - low < 1000 else { throw Self.fail("range '\(arg)' is too long") }
        result += Array(low...high)
      } else {
        result.append(try Self.number(arg, what: "row"))
      }
    }
    var seen = Set<Int>()
    return result.filter { seen.insert($0).inserted }
  }

  static func year(_ text: String) throws(Failure) -> Int? {
    if ["-", "?", "any", "*"].contains(text) { return nil }
    guard let value = Int(text), abs(value) <= 10_000 else {
      throw Self.fail(
        "'\(Self.shorten(text))' is not a year (use e.g. 1850, -750 for 750 BCE, or -)")
    }
    return value
  }
}
