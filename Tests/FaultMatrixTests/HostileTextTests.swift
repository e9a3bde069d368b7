import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Titles and names carrying OSC/CSI escapes, C1 controls and bidi overrides are printed
/// harmlessly on every human-facing output: screens, TSV, details and favourites; and in JSON,
/// kept whole but escaped, so a terminal showing it acts on nothing.
@Suite(.serialized, .ownThread)
struct HostileTextTests {
  /// Every screen that shows a title or a name, plus favourites saved from hostile data.
  static let session = "1\nlinks 1\nb\nf 5-7\nF\n1\nb\n/ evil\ns\n?\nq\n"

  /// Why `bytes` would be unsafe on a terminal, or nil. With `colour`, only SGR sequences
  /// (`ESC [ digits;… m`) are allowed, otherwise no ESC at all.
  static func hazard(in bytes: Data, colour: Bool) -> String? {
    let array = [UInt8](bytes)
    var index = 0
    while index < array.count {
      let byte = array[index]
      if byte == 0x1B {
        guard colour else { return "ESC at byte \(index)" }
        var end = index + 1
        guard end < array.count, array[end] == UInt8(ascii: "[") else {
          return "ESC not followed by [ at byte \(index)"
        }
        end += 1
        while end < array.count,
          array[end] == UInt8(ascii: ";") || (0x30...0x39).contains(array[end])
        {
          end += 1
        }
        guard end < array.count, array[end] == UInt8(ascii: "m") else {
          return "non-SGR escape at byte \(index)"
        }
        index = end + 1
        continue
      }
      if byte < 0x20, byte != 0x0A, byte != 0x09 {
        return "control byte \(byte) at \(index)"
      }
      if byte == 0x7F { return "DEL at \(index)" }
      // U+0080–U+009F (C1) encode as C2 80–C2 9F.
      if byte == 0xC2, index + 1 < array.count, (0x80...0x9F).contains(array[index + 1]) {
        return "C1 control at byte \(index)"
      }
      index += 1
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let bidi: Set<Unicode.Scalar> = [
      "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
      "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}",
    ]
    if let scalar = text.unicodeScalars.first(where: bidi.contains) {
      return "bidi control U+\(String(scalar.value, radix: 16, uppercase: true))"
    }
    return nil
  }

  @Test func theHazardCheckCatchesTheHostileText() {
    let raw = Data((HostileText.title("Moby Dick") + HostileText.name("Melville")).utf8)
    #expect(Self.hazard(in: raw, colour: false) != nil)
    #expect(Self.hazard(in: raw, colour: true) != nil)
    #expect(Self.hazard(in: Data("\u{1B}[1;33mok\u{1B}[0m".utf8), colour: true) == nil)
    #expect(Self.hazard(in: Data("\u{1B}[1;33mok\u{1B}[0m".utf8), colour: false) != nil)
    #expect(Self.hazard(in: Data("x\u{2067}y".utf8), colour: true) != nil)
  }

  @Test(arguments: [false, true])
  func hostileTitlesArePrintedHarmlessly(colour: Bool) async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(hostileText: true))
      let colourArguments = colour ? ["--color", "always"] : []

      let runs = [
        try await row.run(colourArguments, input: Self.session),
        try await row.run(["list"] + colourArguments),
        try await row.run(["list", "--all", "--language", "fr"] + colourArguments),
        try await row.run(["show", "84"] + colourArguments),
        try await row.run(["favorites", "list"] + colourArguments),
        try await row.run(["favorites", "add", "1342"] + colourArguments),
      ]

      for run in runs {
        #expect(run.status == 0, "\(run)")
        #expect(Self.hazard(in: run.stdout, colour: colour) == nil, "\(run)")
        #expect(Self.hazard(in: run.stderr, colour: colour) == nil, "\(run)")
      }
      let browse = runs[0]
      // The titles are still there, only defused.
      #expect(browse.unwrapped.contains("Moby Dick"), "\(browse)")
      #expect(browse.unwrapped.contains("Favourites: 3 added, 0 removed."), "\(browse)")
      #expect(browse.unwrapped.contains("Favourites · 5 books"), "\(browse)")
      #expect(runs[5].errLines.first?.hasPrefix("added: 1342 ") == true, "\(runs[5])")
      #expect(runs[3].unwrapped.contains("Frankenstein"), "\(runs[3])")
      if colour {
        #expect(browse.stdout.contains(0x1B), "colour was asked for")
      } else {
        #expect(!browse.stdout.contains(0x1B))
      }
      row.inject(.none)
      // Three hostile favourites were added at the prompt and 1342 by the last run.
      let favourites = try await row.app.favoriteIDs()
      #expect(Set(favourites).isSuperset(of: [84, 11, 1342]), "\(favourites)")
      #expect(favourites.count == 6, "\(favourites)")
    }
  }

  @Test func hostileTitlesInJSONAreEscapedAndKeptWhole() async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(hostileText: true))
      #expect(try await row.run(["favorites", "add", "84"]).status == 0)
      let runs = [
        try await row.run(["list", "--json"]),
        try await row.run(["list", "--all", "--language", "fr", "--json"]),
        try await row.run(["show", "84", "--json"]),
        try await row.run(["favorites", "list", "--json"]),
      ]
      for (index, run) in runs.enumerated() {
        #expect(run.status == 0, "\(run)")
        #expect(Self.hazard(in: run.stdout, colour: false) == nil, "\(run)")
        #expect(Self.hazard(in: run.stderr, colour: false) == nil, "\(run)")
        // The titles as the server gave them, every hostile character in them (the scenario's
        // favourites saved before include a book that was not hostile).
        let titles = try Self.titles(in: run.stdout)
        let hostile = titles.filter { $0.hasSuffix(HostileText.titleSuffix) }
        #expect(index == 3 ? hostile.count == 1 : hostile.count == titles.count, "\(titles)")
        #expect(!hostile.isEmpty, "\(run)")
      }
    }
  }

  /// Every `title` anywhere in the JSON document `data`.
  static func titles(in data: Data) throws -> [String] {
    func walk(_ value: Any) -> [String] {
      if let object = value as? [String: Any] {
        return (object["title"] as? String).map { [$0] }
          ?? object.values.flatMap(walk)
      }
      if let array = value as? [Any] { return array.flatMap(walk) }
      return []
    }
    return walk(try JSONSerialization.jsonObject(with: data))
  }
}
