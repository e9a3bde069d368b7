import Catalog
import Foundation

/// The downloaded books: id, format, size, date and path; a file deleted by hand is marked
/// `missing` rather than shown as present.
package struct LibraryScreen: Sendable, Hashable {
  /// One download.
  package struct Row: Sendable, Hashable {
    /// The library row.
    package var entry: LibraryEntry
    /// Whether the file is still there.
    package var isPresent: Bool

    /// A row.
    package init(entry: LibraryEntry, isPresent: Bool) {
      self.entry = entry
      self.isPresent = isPresent
    }
  }

  /// The downloads, newest first.
  package var rows: [Row]
  /// For dates.
  package var timeZone: TimeZone

  /// A library screen.
  package init(rows: [Row], timeZone: TimeZone = .current) {
    self.rows = rows
    self.timeZone = timeZone
  }

  /// One tab-separated line per download: id, format, state, size, fetched (ISO 8601), path,
  /// title.
  package var tsvLines: [String] {
    rows.map { row in
      [
        String(row.entry.id), TSVRenderer.field(row.entry.format),
        row.isPresent ? "present" : "missing", String(row.entry.size),
        row.entry.fetchedAt.formatted(.iso8601), TSVRenderer.field(row.entry.path),
        Sanitizer.title(row.entry.title),
      ].joined(separator: "\t")
    }
  }
}

extension LibraryScreen: LineRendering {
  /// A header, one line per download (title, then details indented), and a count.
  package func lines(width: Int, style: Style) -> [String] {
    guard !rows.isEmpty else {
      return ["Library: no books downloaded yet (gutenberg get ID)"]
    }
    var lines = [style.bold("Library · \(TextFormat.plural(rows.count, "download"))")]
    for row in rows {
      let entry = row.entry
      let head = "\(entry.id)  " + Sanitizer.title(entry.title)
      lines.append(DisplayWidth.truncate(head, toCells: width))
      let state = row.isPresent ? TextFormat.bytes(Int(entry.size)) : "missing"
      let details =
        "\(Sanitizer.sanitize(entry.format)) · \(state) · "
        + TextFormat.date(entry.fetchedAt, timeZone: timeZone)
      let detailLines = TextWrapper.wrap(
        details, toCells: width, firstPrefix: "    ", prefix: "    ")
      lines += row.isPresent ? detailLines : detailLines.map(style.yellow)
      // The path on lines of its own, broken only when it is wider than the screen.
      lines += TextWrapper.wrap(
        Sanitizer.sanitize(entry.path), toCells: width, firstPrefix: "    ", prefix: "    ")
    }
    let missing = rows.filter { !$0.isPresent }.count
    if missing > 0 {
      lines += TextWrapper.wrap(
        "\(TextFormat.plural(missing, "file")) missing: `gutenberg library remove ID` forgets "
          + "them, `gutenberg get ID` fetches them again", toCells: width
      ).map(style.dim)
    }
    return lines
  }
}
