import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// Random and malformed prompt lines: real commands, garbage bytes, invalid UTF-8, control
/// characters, huge numbers, long lines. Never a line that quits (it would end the run) or
/// asks for help (kept out so the count of answers stays simple), and no `offline on`: every
/// later query would then scan the 76,696 embedded books, which in a debug build makes the
/// run minutes long without testing the prompt any better (the embedded catalogue has its own
/// tests).
struct PromptLines {
  var random: SeededGenerator
  let directory: String

  mutating func line() -> Data {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<45: return Data(command().utf8)
    case 45..<60: return garbage(length: Int.random(in: 0..<80, using: &random))
    case 60..<68: return Data(mixture().utf8)
    case 68..<76: return Data(hugeNumber().utf8)
    case 76..<82:
      return Data(String(repeating: " ", count: Int.random(in: 0..<40, using: &random)).utf8)
    case 82..<83: return longLine()
    default: return invalidUTF8()
    }
  }

  mutating func number() -> Int {
    [Int.random(in: 1...12, using: &random), Int.random(in: 1...40, using: &random)][
      Int.random(in: 0..<2, using: &random)]
  }

  mutating func command() -> String {
    let n = number()
    let options: [String] = [
      "", "n", "p", "b", "g \(n)", "\(n)", "f \(n)", "f \(n)-\(n + 3)", "f 1 3 5", "F", "rm \(n)",
      "sort newest", "sort title", "sort author", "sort popular", "sort ascending",
      "sort descending", "sort sideways", "/ dickens", "/ the", "/", "lang en,fr", "lang fr",
      "lang zz9", "lang", "topic fiction", "topic", "years 1800 1900", "years - 1850",
      "years 1900 1800", "copyright yes", "copyright no", "copyright any", "copyright maybe",
      "reset", "r", "links \(n)", "links", "offline off", "s",
      "export \(directory)/fuzz-export.json", "import \(directory)/fuzz-export.json",
      "import \(directory)/missing.json", "F", "b",
    ]
    return options[Int.random(in: 0..<options.count, using: &random)]
  }

  mutating func garbage(length: Int) -> Data {
    Data(
      (0..<length).map { _ -> UInt8 in
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return UInt8.random(in: 0x01...0x1F, using: &random)  // control characters
        case 1: return UInt8.random(in: 0x80...0xFF, using: &random)  // stray high bytes
        case 2: return 0x20
        case 3: return 0x1B
        default: return UInt8.random(in: 0x21...0x7E, using: &random)
        }
      }.filter { $0 != 0x0A })
  }

  mutating func mixture() -> String {
    let pieces = [
      "f", "g", "-", "--", ",", "1-", "-3", "0", "é", "中文", "\u{202E}", "🙂", "\t", "  ", "sort",
      "/", "lang", "\u{1B}[2J", "\u{9B}31m", "\u{7F}", "99", "x", "years", "rm", "links",
    ]
    return (0..<Int.random(in: 1...6, using: &random)).map { _ in
      pieces[Int.random(in: 0..<pieces.count, using: &random)]
    }.joined(separator: Bool.random(using: &random) ? " " : "")
  }

  mutating func hugeNumber() -> String {
    let digits = String(
      (0..<Int.random(in: 7...40, using: &random)).map { _ in
        Character(String(Int.random(in: 0...9, using: &random)))
      })
    let forms = [
      digits, "g \(digits)", "f \(digits)", "f 1-\(digits)", "links \(digits)", "rm \(digits)",
      "years \(digits) \(digits)", "g -\(digits)", "f \(Int.max)", "g \(Int.max)0", "1e9",
      "g 0x10", "f 0",
    ]
    return forms[Int.random(in: 0..<forms.count, using: &random)]
  }

  mutating func longLine() -> Data {
    let count = Int.random(in: 1_000...150_000, using: &random)
    let unit = ["a", "f 1 ", "/ dickens ", "中", "é "][Int.random(in: 0..<5, using: &random)]
    return Data(String(repeating: unit, count: count / unit.utf8.count).utf8)
  }

  mutating func invalidUTF8() -> Data {
    var bytes = [UInt8]("f ".utf8)
    bytes += [
      0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x90, 0x28, 0xBC, 0xFF, 0xFE, 0xC0, 0xAF,
    ]
    .shuffled(using: &random).prefix(Int.random(in: 1...8, using: &random))
    if Bool.random(using: &random) { bytes += Array(" 3".utf8) }
    return Data(bytes)
  }

  /// Whether the line, read as the binary reads it, would quit or ask for help.
  static func isExcluded(_ line: Data) -> Bool {
    let text = String(decoding: line, as: UTF8.self)
    let first = text.split(whereSeparator: \.isWhitespace).first.map { $0.lowercased() } ?? ""
    return ["q", "quit", "exit", "h", "?", "help"].contains(first) || text.contains("zzmarker")
  }
}

/// 10,000 random and malformed lines against the loopback engine: no crash, exit 0 at the end,
/// and every line answered with at least one line of output.
@Suite(.serialized, .ownThread)
struct PromptFuzzTests {
  /// An unknown command: one error line, and nothing else changes, so it separates answers.
  static let marker = "zzmarker"
  static let markerAnswer = "error: unknown command 'zzmarker' — type ? for help"

  @Test(arguments: [UInt64(20_261_121)])
  func tenThousandRandomLinesAreEachAnswered(seed: UInt64) async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    var lines = PromptLines(random: SeededGenerator(seed: seed), directory: app.root.path)
    var input = Data((Self.marker + "\n").utf8)
    var generated: [Data] = []
    var count = 0
    var longest = 0
    while count < 10_000 {
      let line = lines.line()
      guard !PromptLines.isExcluded(line) else { continue }
      input += line + Data("\n\(Self.marker)\n".utf8)
      longest = max(longest, line.count)
      generated.append(line)
      count += 1
    }
    input += Data("q\n".utf8)

    let run = try await app.run(
      ["--server", server.url.absoluteString, "--timeout", "2"], inputData: input,
      timeout: .seconds(600))
    await server.stop()

    #expect(run.status == 0, "seed \(seed): \(run)")
    #expect(!run.exit.timedOut)
    #expect(longest > 100_000, "the input has long lines")
    let output = run.out.split(separator: "\n", omittingEmptySubsequences: false)
    let markers = output.indices.filter { output[$0] == Self.markerAnswer }
    #expect(markers.count == count + 1, "seed \(seed): \(markers.count) markers answered")
    // Between two marker answers lies the answer to one random line: never nothing.
    let silent = zip(markers, markers.dropFirst()).enumerated().filter {
      $0.element.1 - $0.element.0 < 2
    }.map(\.offset)
    let first = silent.first.map { String(decoding: generated[$0].prefix(200), as: UTF8.self) }
    #expect(
      silent.isEmpty, "seed \(seed): \(silent.count) lines got no answer, first: \(first ?? "")")
    #expect(!run.err.contains("Fatal error"), "\(run)")
    // The garbage had ESC and C1 bytes; echoed in error lines, they must come out defused.
    #expect(!run.stdout.contains(0x1B), "seed \(seed): ESC in the output")
  }
}
