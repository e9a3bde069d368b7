import Catalog
import Foundation

/// What the session prints for a new state of the screen on display, given what it drew last.
@MainActor
enum ScreenDrawing {
  /// The lines for `state`; `previous` is the state last drawn on this screen (nil: draw all).
  static func lines(
    from previous: ScreenState?, to state: ScreenState, in session: InteractiveSession
  )
    -> [String]
  {
    let width = session.output.width
    let style = session.output.style
    switch state {
    case .browse(let browse):
      let lines = ScreenMapping.browse(browse, now: session.now()).lines(width: width, style: style)
      return withStatusLine(lines, height: session.output.height)
    case .details(let details):
      // Only the favourite flag changed: the command's notice says so, the screen stands.
      if case .details(var before)? = previous {
        before.isFavorite = details.isFavorite
        if before == details { return [] }
      }
      return session.detailLines(details, downloads: session.shownDownloads)
    case .favorites(let favorites):
      let lines = ScreenMapping.favorites(favorites, timeZone: session.timeZone)
        .lines(width: width, style: style)
      return withStatusLine(lines, height: session.output.height)
    case .status(let status):
      return ScreenMapping.status(
        status, page: session.browser.current.load.provenance, now: session.now(),
        timeZone: session.timeZone
      ).lines(width: width, style: style)
    case .links(let book):
      return session.linksLines(book)
    case .help:
      return session.helpLines()
    }
  }

  /// `lines`, and their heading (where the list is: filters, page N of M, source; the lines
  /// before the first row, at most 3) again at the end when the window is too short to show it
  /// with the prompt.
  static func withStatusLine(_ lines: [String], height: Int?) -> [String] {
    guard let height, lines.count + 1 > height else { return lines }
    let heading = lines.prefix { !isRow($0) }.prefix(3)
    return heading.isEmpty ? lines : lines + heading
  }

  /// A row of a list: its number, right-aligned (`  3 * Title`).
  private static func isRow(_ line: String) -> Bool {
    line.drop { $0 == " " }.first?.isNumber == true && line.first == " "
  }
}
