/// The aligned columns shared by every listing of books:
/// `  1 * Title…  Author, First (1812–1870)  en  12,345`.
enum BookTable {
  /// One line per row; `marks` is the one-character mark column (favourite, missing), and
  /// `extra` columns follow the downloads (dates, say).
  static func lines(
    rows: [BookRow], marks: [String], extra: [ColumnLayout.Column] = [], width: Int, style: Style
  ) -> [String] {
    let numberWidth = max(3, rows.map { String($0.number).count }.max() ?? 0)
    var columns: [ColumnLayout.Column] = [
      ColumnLayout.Column(
        cells: rows.map {
          DisplayWidth.pad(String($0.number), toCells: numberWidth, alignment: .right)
        },
        alignment: .right, style: style.bold),
      ColumnLayout.Column(cells: marks, gap: 1, style: style.yellow),
      ColumnLayout.Column(
        cells: rows.map(\.displayTitle), isFlexible: true, share: 3, minimum: 12, gap: 1),
      ColumnLayout.Column(
        cells: rows.map(\.authorText), shortCells: rows.map(\.shortAuthorText), isFlexible: true,
        share: 1, minimum: 10, dropPriority: 10,
        style: style.dim),
      ColumnLayout.Column(cells: rows.map(\.languageText), dropPriority: 20),
      ColumnLayout.Column(
        cells: rows.map { TextFormat.grouped($0.downloadCount) }, alignment: .right,
        dropPriority: 30),
    ]
    // The mark column must keep its width even when no row is marked, so columns line up
    // from one page to the next.
    columns[1].cells = marks.map { $0.isEmpty ? " " : $0 }
    columns += extra
    return ColumnLayout(columns: columns).lines(width: width)
  }
}
