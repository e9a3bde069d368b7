import Catalog
import Foundation

extension CatalogueLanguages {
  /// A language word that is neither a catalogue code nor a language's name.
  package struct UnknownLanguage: Error, Equatable {
    /// The word as typed.
    package let word: String
    /// The nearest codes, best first; empty when nothing is near.
    package let closest: [String]

    /// One line naming the word and the nearest codes with their names (or the commonest).
    package var message: String {
      func named(_ codes: [String]) -> String {
        codes.map { code in names[code].map { "\(code) (\($0.english))" } ?? code }
          .joined(separator: ", ")
      }
      guard closest.isEmpty else {
        return "unknown language '\(word)'; did you mean \(named(closest))?"
      }
      return "unknown language '\(word)'; use a code or a name such as "
        + "\(named(Array(codes.prefix(3))))"
    }
  }

  /// The words shell completion offers: the codes, then the one-word English names.
  package static var completionWords: [String] {
    codes + codes.compactMap { names[$0]?.english.lowercased() }.filter { !$0.contains(" ") }
  }

  /// The codes meant by `arguments`: each comma-separated item is a code, an English name or a
  /// language's own name (`fr`, `French`, `français`; case and accents do not matter); an item
  /// that is none of these is read as several words separated by spaces (`lang en fr`).
  package static func codes(for arguments: [String]) throws(UnknownLanguage) -> [String] {
    var result: [String] = []
    let items = arguments.flatMap { $0.split(separator: ",") }.map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    for item in items {
      if let code = code(for: item) {
        result.append(code)
        continue
      }
      for word in item.split(separator: " ").map(String.init) {
        guard let code = code(for: word) else {
          throw UnknownLanguage(word: item.contains(" ") ? word : item, closest: closest(to: word))
        }
        result.append(code)
      }
    }
    var seen = Set<String>()
    return result.filter { seen.insert($0).inserted }
  }

  /// The code one word or name stands for, nil when none.
  static func code(for item: String) -> String? {
    let key = comparable(item)
    return lookup[key]
  }

  /// Codes, English and native names, compared without case or accents, to their code.
  private static let lookup: [String: String] = {
    var table: [String: String] = [:]
    for code in codes {
      table[code] = code
      if let name = names[code] {
        // The first code keeps a shared name (there is none today, but the catalogue may grow).
        for spelling in [name.english, name.native] where table[comparable(spelling)] == nil {
          table[comparable(spelling)] = code
        }
      }
    }
    return table
  }()

  /// Up to three codes whose code or names are near `word` (at most 2 edits, or a third of
  /// its letters), the nearest first, then the most common.
  static func closest(to word: String) -> [String] {
    let typed = Array(comparable(word).unicodeScalars)
    let limit = max(2, typed.count / 3)
    let scored = codes.enumerated().compactMap { rank, code -> (String, Int, Int)? in
      let spellings = [code] + (names[code].map { [$0.english, $0.native] } ?? [])
      let distances = spellings.compactMap {
        WordDistance.between(typed, Array(comparable($0).unicodeScalars), limit: limit)
      }
      return distances.min().map { (code, $0, rank) }
    }
    return scored.sorted { ($0.1, $0.2) < ($1.1, $1.2) }.prefix(3).map(\.0)
  }

  /// Lower-cased, without accents or surrounding spaces.
  static func comparable(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespaces)
      .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}
