/// A screen's lines in their three parts: the heading kept on top when the screen is taller
/// than the window, the body shown a window at a time, and the keys at the bottom.
package struct ScreenLines: Sendable, Hashable {
  /// What the screen is (a title, where the list is); kept in view.
  package var heading: [String]
  /// The rest, scrolled when it does not fit.
  package var body: [String]
  /// The keys.
  package var footer: [String]
  /// For a list, how many lines of the body are its rows (one each); nil for other screens.
  package var rowCount: Int?

  /// `lines` split after the first `heading` lines and before the last `footer` ones.
  package init(_ lines: [String], heading: Int, footer: Int, rowCount: Int? = nil) {
    let head = min(max(0, heading), lines.count)
    let foot = min(max(0, footer), lines.count - head)
    self.heading = Array(lines.prefix(head))
    self.body = Array(lines.dropFirst(head).dropLast(foot))
    self.footer = Array(lines.suffix(foot))
    self.rowCount = rowCount
  }

  /// Every line, in order.
  package var lines: [String] { heading + body + footer }
}
