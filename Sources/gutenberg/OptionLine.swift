import ArgumentParser

/// A command line read against a table of options, for ``QuickCommand``: strict, so that what
/// it accepts ArgumentParser reads alike, and anything else makes it give up (false or nil).
struct OptionLine {
  /// How an option takes its value.
  enum Kind {
    /// No value (`--json`).
    case flag
    /// The next word, which may not look like an option (ArgumentParser's `.next`).
    case value
    /// The next word whatever it is (`.unconditional`): here only a word or a negative number.
    case unconditional
    /// A value each time it is given (an array option).
    case repeating
  }

  /// One option of the table: its long name, its short letter if any, and its kind.
  struct Spec {
    var long: String
    var short: Character?
    var kind: Kind

    init(_ long: String, short: Character? = nil, _ kind: Kind = .value) {
      self.long = long
      self.short = short
      self.kind = kind
    }
  }

  private let tokens: [String]
  private var index = 0
  /// The values given, by long name, in order.
  private var values: [String: [String]] = [:]
  /// The flags given.
  private var flags: Set<String> = []
  /// The words that are not options nor their values, after the command's name.
  private(set) var words: [String] = []

  /// A reader of `arguments` (the command line without the program's name).
  init?(_ arguments: [String]) {
    // `--` and empty lines are left to ArgumentParser.
    guard !arguments.isEmpty, !arguments.contains("--") else { return nil }
    tokens = arguments
  }

  /// Reads the options before the command's name, which may only be `specs`; false at a word
  /// it does not take.
  mutating func readGlobals(_ specs: [Spec]) -> Bool {
    while index < tokens.count, tokens[index].hasPrefix("-") {
      guard readOption(specs) else { return false }
    }
    return true
  }

  /// The next word when it is not an option (a command's name), consumed.
  mutating func nextWord() -> String? {
    guard let word = peekWord() else { return nil }
    index += 1
    return word
  }

  /// The next word when it is not an option, not consumed.
  func peekWord() -> String? {
    guard index < tokens.count, !tokens[index].hasPrefix("-") else { return nil }
    return tokens[index]
  }

  /// Reads the rest: options of `specs` and `count` words (any number when nil); false at
  /// anything else.
  mutating func read(_ specs: [Spec], words count: Int?) -> Bool {
    while index < tokens.count {
      if tokens[index].hasPrefix("-") {
        guard readOption(specs) else { return false }
      } else {
        words.append(tokens[index])
        index += 1
      }
    }
    return count.map { words.count == $0 } ?? true
  }

  /// Reads the option at `index` (and its value); false when it is not one of `specs`, is
  /// given twice, or its value is missing or could be an option.
  private mutating func readOption(_ specs: [Spec]) -> Bool {
    let token = tokens[index]
    index += 1
    let spec: Spec?
    var attached: String?
    if token.hasPrefix("--") {
      let body = token.dropFirst(2)
      let name: Substring
      if let equals = body.firstIndex(of: "=") {
        name = body[..<equals]
        attached = String(body[body.index(after: equals)...])
      } else {
        name = body
      }
      spec = specs.first { $0.long == name }
    } else if token.count == 2, let letter = token.last {
      spec = specs.first { $0.short == letter }
    } else {
      spec = nil
    }
    guard let spec else { return false }
    if spec.kind == .flag {
      guard attached == nil, flags.insert(spec.long).inserted else { return false }
      return true
    }
    if spec.kind != .repeating, values[spec.long] != nil { return false }
    let value: String
    if let attached {
      value = attached
    } else {
      guard index < tokens.count else { return false }
      value = tokens[index]
      index += 1
    }
    guard Self.takes(value, unconditionally: spec.kind == .unconditional) else { return false }
    values[spec.long, default: []].append(value)
    return true
  }

  /// Whether `value` is one this reader passes on as given: any word that does not start
  /// with `-`, or (for an option read unconditionally) a negative whole number.
  private static func takes(_ value: String, unconditionally: Bool) -> Bool {
    guard value.hasPrefix("-") else { return true }
    let digits = value.utf8.dropFirst()
    return unconditionally && !digits.isEmpty
      && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// Whether the flag `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// The value of the option `name`, nil when it was not given.
  func text(_ name: String) -> String? { values[name]?.first }

  /// Every value of the repeating option `name`, in order.
  func all(_ name: String) -> [String] { values[name] ?? [] }

  /// The option `name` converted as ArgumentParser converts it: `.some(nil)` when it was not
  /// given, nil when it does not convert.
  func optional<Value: ExpressibleByArgument>(_ name: String, as type: Value.Type) -> Value?? {
    guard let text = text(name) else { return .some(nil) }
    return Value(argument: text).map { .some($0) }
  }

  /// The option `name` converted as ArgumentParser converts it, `fallback` when it was not
  /// given, nil when it does not convert.
  func value<Value: ExpressibleByArgument>(_ name: String, default fallback: Value) -> Value? {
    guard let text = text(name) else { return fallback }
    return Value(argument: text)
  }
}
