import Testing

@testable import Terminal

@Suite struct ColorPolicyTests {
  static let terms: [String?] = [nil, "xterm-256color", "dumb"]
  static let noColors: [String?] = [nil, "", "1"]

  /// The rule as https://no-color.org and the brief state it, case by case.
  static func expected(_ mode: ColorPolicy.Mode, tty: Bool, term: String?, noColor: String?)
    -> Bool
  {
    switch mode {
    case .always: return true
    case .never: return false
    case .auto:
      let noColorSet = noColor.map { !$0.isEmpty } ?? false
      return tty && term != "dumb" && !noColorSet
    }
  }

  @Test(arguments: ColorPolicy.Mode.allCases, [true, false])
  func followsTheMatrix(mode: ColorPolicy.Mode, tty: Bool) {
    for term in Self.terms {
      for noColor in Self.noColors {
        var environment: [String: String] = [:]
        environment["TERM"] = term
        environment["NO_COLOR"] = noColor
        let policy = ColorPolicy(mode: mode, isTerminal: tty, environment: environment)
        #expect(
          policy.isEnabled == Self.expected(mode, tty: tty, term: term, noColor: noColor),
          "mode \(mode) tty \(tty) TERM \(term ?? "unset") NO_COLOR \(noColor ?? "unset")")
        #expect(policy.style.isEnabled == policy.isEnabled)
      }
    }
  }

  @Test func spotChecks() {
    let tty = ["TERM": "xterm"]
    #expect(ColorPolicy(mode: .auto, isTerminal: true, environment: tty).isEnabled)
    #expect(!ColorPolicy(mode: .auto, isTerminal: false, environment: tty).isEnabled)
    #expect(!ColorPolicy(mode: .auto, isTerminal: true, environment: ["TERM": "dumb"]).isEnabled)
    #expect(
      !ColorPolicy(mode: .auto, isTerminal: true, environment: ["NO_COLOR": "0"]).isEnabled)
    #expect(ColorPolicy(mode: .auto, isTerminal: true, environment: ["NO_COLOR": ""]).isEnabled)
    #expect(ColorPolicy(mode: .always, isTerminal: false, environment: ["TERM": "dumb"]).isEnabled)
    #expect(!ColorPolicy(mode: .never, isTerminal: true, environment: tty).isEnabled)
  }

  @Test func styleWritesCodesOnlyWhenEnabled() {
    let on = Style(isEnabled: true)
    #expect(on.bold("x") == "\u{1B}[1mx\u{1B}[0m")
    #expect(on.red("error:") == "\u{1B}[31merror:\u{1B}[0m")
    #expect(on.yellow("*") == "\u{1B}[33m*\u{1B}[0m")
    #expect(on.dim(" ") == " ")
    for apply in [
      Style.plain.bold, Style.plain.dim, Style.plain.reverse, Style.plain.red,
      Style.plain.green, Style.plain.yellow, Style.plain.cyan,
    ] {
      #expect(apply("text") == "text")
    }
  }
}
