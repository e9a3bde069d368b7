/// The line after an export: `Exported 12 favourites to /path/file.json`.
package struct ExportConfirmation: Sendable, Hashable {
  /// How many favourites were written.
  package var count: Int
  /// Where the file was written.
  package var path: String

  /// A confirmation for `count` favourites written to `path`.
  package init(count: Int, path: String) {
    self.count = count
    self.path = path
  }

  /// The single line.
  package var text: String {
    "Exported \(TextFormat.plural(count, "favourite")) to \(Sanitizer.sanitize(path))"
  }
}

extension ExportConfirmation: LineRendering {
  /// The line, wrapped only when narrower than the path needs.
  package func lines(width: Int, style: Style) -> [String] {
    TextWrapper.wrap(text, toCells: width, prefix: "  ")
  }
}
