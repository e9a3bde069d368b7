extension TableOfContents: LineRendering {
  /// The numbered entries under a title, or a line saying there are none.
  package func lines(width: Int, style: Style) -> [String] {
    guard !entries.isEmpty else {
      return [style.dim("(no table of contents: no CONTENTS table or chapter headings found)")]
    }
    let digits = String(entries.count).count
    var lines = [style.bold("Contents") + style.dim(" (toc N goes to entry N)")]
    for (number, entry) in entries.enumerated() {
      let label =
        String(repeating: " ", count: digits - String(number + 1).count) + "\(number + 1). "
      lines.append(
        label + DisplayWidth.truncate(entry.title, toCells: max(8, width - label.count)))
    }
    return lines
  }
}
