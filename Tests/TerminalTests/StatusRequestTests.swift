import Catalog
import Foundation
import Gutendex
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

  /// Each row says the method it sent, after where the answer came from; an answer found
  /// without a request (the page cache, the local catalogue) says `-`.
  @Test func eachRowSaysItsMethod() {
    var screen = SampleScreens.status()
    screen.requests = [
      .init(
        method: "PUT", startedAt: SampleScreens.now, target: "/syncs/progress",
        outcome: .status(200), durationMilliseconds: 156, origin: .network),
      .init(
        method: "POST", startedAt: SampleScreens.now, target: "/users/create",
        outcome: .status(201), durationMilliseconds: 90, origin: .network),
      .init(
        method: "GET", startedAt: SampleScreens.now, target: "/books/?page=2",
        outcome: .status(200), durationMilliseconds: 412, origin: .network),
      .init(
        startedAt: SampleScreens.now, target: "cache: page=2", outcome: .served,
        durationMilliseconds: 2, origin: .cache),
    ]
    let lines = screen.lines(width: 100, style: .plain)
    let rows = lines.drop { $0 != "Recent requests:" }.dropFirst().prefix(4)
    #expect(
      Array(rows) == [
        "  06:30:00  HTTP 200  156 ms  network  PUT   /syncs/progress",
        "  06:30:00  HTTP 201   90 ms  network  POST  /users/create",
        "  06:30:00  HTTP 200  412 ms  network  GET   /books/?page=2",
        "  06:30:00  ok          2 ms  cache    -     cache: page=2",
      ], "\(lines.joined(separator: "\n"))")
  }

  /// The method comes from the request log's entry (the client's event), through the mapping
  /// every status screen is drawn by.
  @Test func theMethodComesFromTheRequestLog() throws {
    var state = StatusCapture.state()
    let url = try #require(URL(string: "https://sync.example.org/syncs/progress"))
    let log = RequestLog()
    log.record(
      RequestEvent(
        method: "PUT", url: url, status: 200, error: nil, duration: .milliseconds(7), attempt: 1),
      at: SampleScreens.now)
    state.requests = log.recent()
    let screen = ScreenMapping.status(
      state, page: .network, now: SampleScreens.now, timeZone: SampleScreens.utc)
    #expect(screen.requests.map(\.method) == ["PUT"])
    let lines = screen.lines(width: 100, style: .plain)
    #expect(
      lines.contains { $0.hasSuffix("network  PUT  https://sync.example.org/syncs/progress") })
  }

  @Test func atWidth120TheRowKeepsItsTarget() {
    let lines = Self.screen().lines(width: 120, style: .plain)
    let row = lines.first { $0.contains("  error") }
    #expect(row?.hasSuffix("cache: languages=fr&page=2&sort=ascending") == true, "\(lines)")
  }
}
