/// A screen that turns itself into plain lines for a terminal of a given width.
package protocol LineRendering: Sendable {
  /// The screen as lines of at most `width` cells (a URL too long for any line excepted, so it
  /// stays copyable), styled with `style`, without trailing spaces or line breaks.
  func lines(width: Int, style: Style) -> [String]
}

extension LineRendering {
  /// The screen as one string, each line ended by a line break.
  package func text(width: Int, style: Style = .plain) -> String {
    lines(width: width, style: style).map { $0 + "\n" }.joined()
  }
}
