/// How the screen on display was drawn, as the drawer reports it: the rows of the list it
/// showed, and for a screen taller than the window how many lines of its body it showed at once
/// out of how many. `n`, `p` and Enter move by what was seen.
package struct DrawnLayout: Sendable, Hashable {
  /// Rows of the list shown (nil on another screen).
  package var listRows: Int?
  /// Lines of the body shown at once.
  package var bodyRows: Int
  /// Lines of the whole body.
  package var bodyLines: Int

  /// A layout.
  package init(listRows: Int?, bodyRows: Int, bodyLines: Int) {
    self.listRows = listRows
    self.bodyRows = bodyRows
    self.bodyLines = bodyLines
  }
}
