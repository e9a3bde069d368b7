import Foundation

/// A book's table of contents, for `toc`: the entries of its own CONTENTS table that are found
/// again as headings further on, or else the lines that look like headings (CHAPTER, BOOK,
/// PART, STAVE... with a number, or a Roman numeral alone), each standing after a blank line.
package struct TableOfContents: Sendable {
  /// One heading.
  package struct Entry: Sendable, Equatable {
    /// A heading `title` whose line starts at `offset`.
    package init(title: String, offset: Int) {
      self.title = title
      self.offset = offset
    }

    /// The heading as the book prints it (sanitised).
    package let title: String
    /// Where its line starts.
    package let offset: Int
  }

  /// The headings in text order.
  package let entries: [Entry]

  /// The heading of the chapter holding `offset`: the last entry at or before it; nil before
  /// the first (or in a book without any).
  package func chapter(at offset: Int) -> String? {
    entries.last { $0.offset <= offset }?.title
  }

  /// Lines longer than this are never headings.
  static let headingLength = 100
  /// At most this many entries are kept.
  static let maximumEntries = 5000

  /// The contents of `text` within `visible`.
  package init(_ text: BookText, in visible: Range<Int>) {
    if let outline = text.outline {
      // An EPUB's headings, as its documents mark them.
      entries = Array(outline.filter { visible.contains($0.offset) }.prefix(Self.maximumEntries))
      return
    }
    let lines = Self.shortLines(text, in: visible)
    if let table = Self.contentsTable(lines) {
      let found = Self.entries(of: table, in: lines)
      if found.count >= 2 {
        entries = found
        return
      }
    }
    let skipped = Self.contentsTable(lines)?.lines ?? 0..<0
    entries = lines.indices.compactMap { number -> Entry? in
      let line = lines[number]
      guard !skipped.contains(number), line.afterBlank, Self.isHeading(line.text),
        Self.isBare(line.text) || Self.isSetOff(number, in: lines)
      else {
        return nil
      }
      return Entry(title: line.text, offset: line.offset)
    }.prefix(Self.maximumEntries).map { $0 }
  }

  /// Lines a heading's block may have: the heading and a title or two under it.
  static let headingBlockLines = 3

  /// True when line `number` starts a block of at most ``headingBlockLines`` short lines set
  /// off by blank lines (or the text's ends): a heading's shape, never a paragraph's first line.
  static func isSetOff(_ number: Int, in lines: [Line]) -> Bool {
    var end = number
    while end < lines.count, !lines[end].text.isEmpty {
      if lines[end].text.hasPrefix("\u{0}") { return false }
      end += 1
      if end - number > headingBlockLines { return false }
    }
    return true
  }

  /// True for a heading word and its number alone (`CHAPTER IV.`, `Letter 2`): a heading even
  /// when the text follows on the next line without a blank one.
  static func isBare(_ text: String) -> Bool {
    let words = text.split(separator: " ")
    return words.count == 2 && headingWords.contains(words[0].uppercased())
  }

  /// A line short enough to be a heading, trimmed and sanitised; blank lines are kept (empty).
  struct Line {
    let text: String
    let offset: Int
    let afterBlank: Bool
  }

  /// Every line of `visible` that is blank or short, in order; a long line only sets the
  /// "after a blank line" of the next to false.
  static func shortLines(_ text: BookText, in visible: Range<Int>) -> [Line] {
    var lines: [Line] = []
    var start = visible.lowerBound
    var previousBlank = true
    while start < visible.upperBound {
      let end = min(text.lineEnd(from: start), visible.upperBound)
      if end - start <= headingLength {
        let line = Sanitizer.sanitize(text.bytes.string(start..<end))
        lines.append(Line(text: line, offset: start, afterBlank: previousBlank))
        previousBlank = line.isEmpty
      } else {
        lines.append(Line(text: "\u{0}long", offset: start, afterBlank: previousBlank))
        previousBlank = false
      }
      start = text.nextLineStart(afterEnd: end)
    }
    return lines
  }

  /// The book's own CONTENTS table: the lines of `lines` after a `CONTENTS` line, until two
  /// blank lines in a row.
  static func contentsTable(_ lines: [Line]) -> (lines: Range<Int>, entries: [String])? {
    let names: Set<String> = ["CONTENTS", "CONTENTS.", "TABLE OF CONTENTS"]
    guard let title = lines.prefix(2000).firstIndex(where: { names.contains($0.text.uppercased()) })
    else { return nil }
    var entries: [String] = []
    var blanks = 0
    var number = title + 1
    while number < lines.count {
      let text = lines[number].text
      if text.isEmpty {
        blanks += 1
        if blanks >= 2, !entries.isEmpty { break }
      } else {
        blanks = 0
        if text.hasPrefix("\u{0}") { break }
        entries.append(text)
      }
      number += 1
    }
    return entries.isEmpty ? nil : (title..<number, entries)
  }

  /// The table's entries found again, in order, as lines after the table.
  static func entries(of table: (lines: Range<Int>, entries: [String]), in lines: [Line])
    -> [Entry]
  {
    let keys = table.entries.map(key)
    var found: [Entry] = []
    var next = 0
    for number in table.lines.upperBound..<lines.count where next < keys.count {
      let line = lines[number]
      // A heading is a line of its own: one a paragraph's text runs into is not.
      guard !line.text.isEmpty, !line.text.hasPrefix("\u{0}"), line.afterBlank else { continue }
      // Most lines are prose: one that starts with an ASCII letter or digit no candidate
      // starts with cannot be its heading, and is passed over without working out its key.
      if let first = line.text.utf8.first, let upper = asciiUpper(first),
        !keys[next..<min(next + 3, keys.count)].contains(where: { $0.utf8.first == upper })
      {
        continue
      }
      let lineKey = key(line.text)
      // An entry the text never repeats is passed over (a few at most).
      for candidate in next..<min(next + 3, keys.count)
      where matches(lineKey, keys[candidate])
        && isTitle(extraWords(of: line.text, beyond: keys[candidate]))
      {
        found.append(Entry(title: table.entries[candidate], offset: line.offset))
        next = candidate + 1
        break
      }
    }
    return found
  }

  /// The words of `text` past those of the table's entry `key`: what a heading adds to its
  /// entry (`The Storm` after `CHAPTER I.`), or a sentence that merely begins with the entry.
  static func extraWords(of text: String, beyond key: String) -> ArraySlice<String> {
    let words = text.split(separator: " ").map(String.init)
    let count = key.split(separator: " ").count
    return words.count > count ? words[count...] : []
  }

  /// An ASCII letter in upper case, or a digit; nil for anything else (whose key may start
  /// otherwise).
  static func asciiUpper(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x61...0x7A: byte - 0x20
    case 0x41...0x5A, 0x30...0x39: byte
    default: nil
    }
  }

  /// Upper case, single spaces, without a trailing page number or dots.
  static func key(_ text: String) -> String {
    var words = text.uppercased().split(separator: " ")
    while let last = words.last, words.count > 1,
      last.allSatisfy({ $0.isNumber || $0 == "." })
    {
      words.removeLast()
    }
    return words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ".:"))
  }

  /// True when a line (key) is the heading a table entry (key) names.
  static func matches(_ line: String, _ entry: String) -> Bool {
    guard line.count >= 2 else { return false }
    return line == entry || entry.hasPrefix(line + " ") || line.hasPrefix(entry + " ")
      || line.hasPrefix(entry + ".")
  }

  /// Words that start a heading when a number follows.
  static let headingWords: Set<String> = [
    "CHAPTER", "BOOK", "PART", "STAVE", "VOLUME", "LETTER", "ACT", "CANTO",
  ]
  /// Headings by themselves.
  static let standaloneHeadings: Set<String> = [
    "PREFACE", "INTRODUCTION", "PROLOGUE", "EPILOGUE", "CONCLUSION", "FOOTNOTES",
  ]
  static let numberWords: Set<String> = [
    "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN",
    "TWELVE", "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN",
    "TWENTY", "FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH",
    "NINTH", "TENTH", "ELEVENTH", "TWELFTH", "LAST", "THE",
  ]

  /// True for `CHAPTER 1`, `Chapter XII. The Storm`, `STAVE ONE`, `PREFACE`, `IV.`...
  static func isHeading(_ text: String) -> Bool {
    guard !text.isEmpty, !text.hasPrefix("\u{0}") else { return false }
    let words = text.split(separator: " ").map {
      String($0).trimmingCharacters(in: CharacterSet(charactersIn: ".:,;—-"))
    }
    guard let first = words.first, !first.isEmpty else { return false }
    let upper = first.uppercased()
    // `Chapter` or `CHAPTER`, not `chapter` in the middle of a sentence.
    let capitalised = first.first?.isUppercase == true
    if capitalised, headingWords.contains(upper), words.count >= 2 {
      return isNumeral(words[1]) && isTitle(words.dropFirst(2))
    }
    if words.count == 1, first == upper, standaloneHeadings.contains(upper) { return true }
    return words.count == 1 && isRoman(first) && text.count <= 8
  }

  /// True when the words after a heading's number read as its title, not as a sentence: at
  /// most a dozen, and each of four letters or more capitalised (`The Last of the Spirits`,
  /// `THE STORM`), where a sentence has small words (`five was the one she liked best`).
  static func isTitle(_ words: ArraySlice<String>) -> Bool {
    guard words.count <= 12 else { return false }
    return words.allSatisfy { word in
      let letters = word.filter(\.isLetter)
      return letters.count < 4 || letters.first?.isUppercase == true
    }
  }

  /// Digits, a Roman numeral or a number word.
  static func isNumeral(_ word: String) -> Bool {
    !word.isEmpty
      && (word.allSatisfy(\.isASCIIDigit) || isRoman(word.uppercased())
        || numberWords.contains(word.uppercased()))
  }

  /// An upper-case Roman numeral (I to about CCC).
  static func isRoman(_ word: String) -> Bool {
    !word.isEmpty && word.count <= 8 && word.allSatisfy { "IVXLC".contains($0) }
  }
}

extension Character {
  /// 0 to 9.
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
