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
  ///
  /// A word the fixed table of names does not know is resolved by this rule, which takes codes
  /// as they are and names strictly:
  /// 1. a code some book of the user's own catalogue has (`catalogue`: the local store, the
  ///    synced books' languages included) is that code. `catalogue` is called at most once,
  ///    and only for such a word, so naming a known language never opens the catalogue;
  /// 2. else a well-formed code, 2 or 3 ASCII letters, is taken as typed (lowercased): the
  ///    server answers any code (one no book has finds nothing), a code missing here may be on
  ///    the server or arrive with the next sync, and short codes are too near each other for
  ///    "did you mean" to tell a typo from another language (every 2-letter word is within 2
  ///    edits of `en`). Except an ISO 639-2 code of a language Gutendex codes in 2 letters
  ///    (`eng`, `ger`, `deu`, `fre`), which is that language's code (`en`, `de`, `fr`), and
  ///    other 3 letters that begin a known language's name, which are refused, proposing the
  ///    languages they begin;
  /// 3. else (a longer word, or one with other characters: meant as a name) it is refused,
  ///    proposing the nearest codes and names (`englsh` → en).
  package static func codes(
    for arguments: [String], catalogue: () -> [String] = { [] }
  ) throws(UnknownLanguage) -> [String] {
    var held: [String: String]?
    func resolve(_ word: String) -> String? {
      if let code = code(for: word) { return code }
      if held == nil {
        held = Dictionary(catalogue().map { (comparable($0), $0) }) { first, _ in first }
      }
      if let code = held?[comparable(word)] { return code }
      if let code = isoAlpha3[comparable(word)] { return code }
      guard let code = wellFormedCode(word), abbreviated(code).isEmpty else { return nil }
      return code
    }
    var result: [String] = []
    let items = arguments.flatMap { $0.split(separator: ",") }.map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    for item in items {
      if let code = resolve(item) {
        result.append(code)
        continue
      }
      for word in item.split(separator: " ").map(String.init) {
        guard let code = resolve(word) else {
          throw UnknownLanguage(word: item.contains(" ") ? word : item, closest: nearest(to: word))
        }
        result.append(code)
      }
    }
    var seen = Set<String>()
    return result.filter { seen.insert($0).inserted }
  }

  /// `word` lowercased when it has the shape of a language code (2 or 3 ASCII letters).
  static func wellFormedCode(_ word: String) -> String? {
    let code = word.trimmingCharacters(in: .whitespaces).lowercased()
    guard (2...3).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      return nil
    }
    return code
  }

  /// Up to three codes, most books first, whose English or own name begins with the 3-letter
  /// `code` (`ger` → de); empty for other lengths.
  static func abbreviated(_ code: String) -> [String] {
    guard code.count == 3 else { return [] }
    let found = codes.filter { known in
      names[known].map { [$0.english, $0.native] }?.contains {
        comparable($0).hasPrefix(code)
      } ?? false
    }
    return Array(found.prefix(3))
  }

  /// What a refusal of `word` proposes: the languages a 3-letter abbreviation begins, else the
  /// nearest codes and names.
  static func nearest(to word: String) -> [String] {
    let begun = wellFormedCode(word).map(abbreviated) ?? []
    return begun.isEmpty ? closest(to: word) : begun
  }

  /// The code one word or name stands for, nil when none.
  static func code(for item: String) -> String? {
    // A code as typed (`en`, `FR`) is found without folding: the table's every code maps to
    // itself, and the folding of ASCII letters is their lower case. Building the table folds
    // every name, a tenth of a cold `list --language en`.
    if item.utf8.count <= 3, item.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) {
      let lowered = item.lowercased()
      if codeSet.contains(lowered) { return lowered }
    }
    let key = comparable(item)
    return lookup[key]
  }

  /// The codes, to find a code as typed.
  private static let codeSet = Set(codes)

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
