/// The window the browser draws into: its width in cells and, on a terminal, its height in
/// rows. A pipe, a file or a test's output has a width and no height: its screens are never cut
/// to a window.
package struct WindowSize: Sendable, Hashable {
  /// Cells per line.
  package var width: Int
  /// Rows of the window; nil when there is no window (lines are appended to a pipe).
  package var height: Int?

  /// A window of `width` cells and `height` rows (nil: no height).
  package init(width: Int, height: Int? = nil) {
    self.width = max(1, width)
    self.height = height.map { max(1, $0) }
  }
}
