import Foundation

/// How a match is printed: on a terminal, under its book's line; in a pipe, one tab-separated
/// line; with `--json`, one object.
extension LibraryMatch {
  /// The book's line, printed above its first match: id and title, cut to the width.
  package func bookLine(width: Int, style: Style) -> String {
    style.bold(
      DisplayWidth.truncate("\(entry.id)  " + Sanitizer.title(entry.title), toCells: width))
  }

  /// The match on a terminal: the chapter and the command that opens the reader there, then
  /// the line with the match marked, both indented under the book's line.
  package func lines(width: Int, style: Style) -> [String] {
    let place = chapter.map { Sanitizer.sanitize($0) + " · " } ?? ""
    let head = DisplayWidth.truncate("  " + place + command, toCells: width)
    return [style.dim(head), "    " + line(style: style)]
  }

  /// Tab-separated: id, title, chapter, byte offset, the line, the command.
  package var tsvLine: String {
    [
      String(entry.id), Sanitizer.title(entry.title), chapter.map(Sanitizer.sanitize) ?? "",
      String(offset), plainLine, command,
    ].joined(separator: "\t")
  }

  /// The match as a JSON object (sorted keys, on one line).
  package var json: String {
    let object: [String: Any] = [
      "id": entry.id, "title": entry.title, "path": entry.path, "format": entry.format,
      "chapter": chapter ?? NSNull(), "offset": offset, "before": before, "match": match,
      "after": after, "command": command,
    ]
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    return JSONText.raw(data)
  }
}
