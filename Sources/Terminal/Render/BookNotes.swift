import Catalog
import Foundation

/// One book's bookmarks and highlights as `gutenberg notes` shows them: with the book's title
/// and authors, each note numbered as the reader numbers it (b1, b2, ...) and with its
/// chapter; rendered as lines, TSV, Markdown or JSON. Every text in it is untrusted (typed,
/// imported, or read from the file) and is sanitised, or escaped for Markdown, here.
struct BookNotes {
  /// One note: its number within the book, the bookmark, and its chapter's heading.
  struct Note {
    var number: Int
    var bookmark: Bookmark
    var chapter: String?
  }

  var id: Int
  /// The title, empty when neither the favourites, the library nor the catalogue know it.
  var title: String
  /// The authors' names.
  var authors: [String]
  var notes: [Note]

  /// `gutenberg read 84 --at 1234`: the command that opens the book at `note`.
  func command(_ note: Note) -> String {
    "gutenberg read \(id) --at \(note.bookmark.byteOffset)"
  }

  /// The title as shown: sanitised, or `book 84` when unknown.
  var shownTitle: String {
    let title = Sanitizer.sanitize(title)
    return title.isEmpty ? "book \(id)" : title
  }

  // MARK: - Lines

  /// The lines on a terminal: the book, then each note (`b2  CHAPTER I  “words…” — note`)
  /// and the command that opens it, fitted to `width`.
  func lines(width: Int, style: Style) -> [String] {
    let by = authors.map(Sanitizer.sanitize).filter { !$0.isEmpty }.joined(separator: "; ")
    var lines = [
      DisplayWidth.truncate(
        "\(id)  \(shownTitle)" + (by.isEmpty ? "" : " — \(by)"), toCells: max(20, width))
    ]
    for note in notes {
      let chapter = note.chapter.map { DisplayWidth.truncate(Sanitizer.sanitize($0), toCells: 24) }
      let place =
        (note.bookmark.isHighlight ? "highlight" : "bookmark") + (chapter.map { ", \($0)" } ?? "")
      lines.append(
        "  " + BookmarkText.line(note.number, note.bookmark, place: place, width: width - 2))
      lines.append(style.dim("      " + command(note)))
    }
    return lines
  }

  /// One TSV line per note: id, bookmark, kind, byte offset, end offset (empty for a
  /// bookmark), chapter, note, quote, command.
  func tsvLines() -> [String] {
    notes.map { note in
      [
        String(id), "b\(note.number)", note.bookmark.isHighlight ? "highlight" : "bookmark",
        String(note.bookmark.byteOffset), note.bookmark.endOffset.map(String.init) ?? "",
        TSVRenderer.field(note.chapter ?? ""), TSVRenderer.field(note.bookmark.note),
        TSVRenderer.field(note.bookmark.quote), command(note),
      ].joined(separator: "\t")
    }
  }

  // MARK: - JSON

  /// The book and its notes as data: what ``markdown()`` writes, with the offsets and dates.
  var json: [String: Any] {
    [
      "id": id, "title": Sanitizer.sanitize(title),
      "authors": authors.map(Sanitizer.sanitize),
      "notes": notes.map { note -> [String: Any] in
        var object: [String: Any] = [
          "bookmark": "b\(note.number)",
          "kind": note.bookmark.isHighlight ? "highlight" : "bookmark",
          "byte_offset": note.bookmark.byteOffset, "quote": Sanitizer.sanitize(note.bookmark.quote),
          "note": Sanitizer.sanitize(note.bookmark.note), "key": note.bookmark.key,
          "created_at": JSONText.iso8601(note.bookmark.createdAt),
          "updated_at": JSONText.iso8601(note.bookmark.updatedAt), "read": command(note),
        ]
        if let end = note.bookmark.endOffset { object["end_offset"] = end }
        if let chapter = note.chapter { object["chapter"] = Sanitizer.sanitize(chapter) }
        return object
      },
    ]
  }

  // MARK: - Markdown

  /// The book's Markdown document: its title as a heading, its authors, then each note's
  /// quote as a block quote, its note as a paragraph and a line with its chapter and the
  /// command that opens it.
  func markdown() -> String {
    var out = "# \(Self.escaped(shownTitle))\n\n"
    let by = authors.map(Sanitizer.sanitize).filter { !$0.isEmpty }
    if !by.isEmpty { out += "by \(Self.escaped(by.joined(separator: "; ")))\n\n" }
    for note in notes {
      let quote = Sanitizer.sanitize(note.bookmark.quote)
      out += "> \(quote.isEmpty ? "…" : Self.escaped(quote))\n\n"
      let text = Sanitizer.sanitize(note.bookmark.note)
      if !text.isEmpty { out += "\(Self.escaped(text))\n\n" }
      var place: [String] = []
      if let chapter = note.chapter.map(Sanitizer.sanitize), !chapter.isEmpty {
        place.append("*\(Self.escaped(chapter))*")
      }
      place.append("`\(command(note))`")
      out += "— " + place.joined(separator: " · ") + "\n\n"
    }
    return out
  }

  /// Characters that are Markdown wherever they stand (emphasis, code, links, HTML, tables,
  /// entities), escaped with a backslash, as CommonMark allows for any ASCII punctuation.
  static let markup: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&"]
  /// Characters that are Markdown at a line's start (a heading, a list, a rule, a setext line).
  static let markupAtStart: Set<Character> = ["#", "-", "+", "=", ">"]

  /// `text` (one sanitised line) as literal Markdown: markup escaped, and a start that would
  /// open a heading, a list or a quote (`# `, `- `, `1. `) escaped too.
  static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      if markup.contains(character) || (out.isEmpty && markupAtStart.contains(character)) {
        out.append("\\")
      }
      out.append(character)
    }
    // `1. ` or `1) ` would start a numbered list.
    let digits = out.prefix { $0.isASCII && $0.isNumber }
    if !digits.isEmpty, let next = out.dropFirst(digits.count).first, next == "." || next == ")" {
      out.insert("\\", at: out.index(out.startIndex, offsetBy: digits.count))
    }
    return out
  }
}
