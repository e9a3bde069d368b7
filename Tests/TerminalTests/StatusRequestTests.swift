import Foundation
import Testing

@testable import Terminal

/// The status screen's recent requests: a failure's reason is shown whole, wrapped under the
/// row, at any width, instead of cut to a few letters.
@Suite struct StatusRequestTests {
  static let reason =
    "cannot read /home/reader/.cache/gutenberg/pages.sqlite: disk I/O error (the disk is full "
    + "or failing; the page cache is disposable: `gutenberg cache clear` starts it again)"

  static func screen() -> StatusScreen {
    var screen = SampleScreens.status()
    screen.requests.insert(
      .init(
        startedAt: SampleScreens.now, target: "cache: languages=fr&page=2&sort=ascending",
        outcome: .failure(reason), durationMilliseconds: 3, origin: .cache), at: 0)
    return screen
  }

  @Test(arguments: [40, 80, 120, 200])
  func aFailureIsShownWholeWithinTheWidth(width: Int) {
    let lines = Self.screen().lines(width: width, style: .plain)
    for line in lines {
      #expect(DisplayWidth.cells(line) <= width, "\(line)")
    }
    guard let start = lines.firstIndex(where: { $0.contains("  error") }) else {
      Issue.record("no failed request in \(lines)")
      return
    }
    // A word longer than the line is broken, so compare without the spaces.
    let shown = lines[(start + 1)...].prefix { $0.hasPrefix(" ") && !$0.contains(" ms ") }
      .joined().filter { $0 != " " }
    #expect(shown == Self.reason.filter { $0 != " " }, "\(lines.joined(separator: "\n"))")
  }

  @Test func atWidth120TheRowKeepsItsTarget() {
    let lines = Self.screen().lines(width: 120, style: .plain)
    let row = lines.first { $0.contains("  error") }
    #expect(row?.hasSuffix("cache: languages=fr&page=2&sort=ascending") == true, "\(lines)")
  }
}
