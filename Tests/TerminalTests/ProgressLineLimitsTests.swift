import Testing

@testable import Terminal

/// What a server announces reaches the progress line unchecked: no announced size, rate or
/// count may crash it (a `Content-Length` of `Int64.max` at a few bytes a second did).
@Suite struct ProgressLineLimitsTests {
  @Test(arguments: [
    (Int64(0), Int64.max, 3.0),
    (Int64(1_000), Int64.max, 0.001),
    (Int64.max, Int64(1), 1e300),
    (Int64(5), Int64(1), .infinity),
    (Int64.max / 2, Int64.max, .nan),
  ])
  func extremeFiguresGiveALineNotACrash(received: Int64, total: Int64, rate: Double) {
    let line = ProgressLine(
      name: "84-frankenstein.epub", received: received, total: total, bytesPerSecond: rate,
      elapsed: 2)
    let text = line.text(width: 100)
    #expect(text.contains("84-frankenstein.epub"))
    #expect(text.contains("%"))
  }

  @Test func anEstimateTooLongToMeanAnythingIsShownAsUnknown() {
    let line = ProgressLine(
      name: "x", received: 10, total: Int64.max, bytesPerSecond: 3, elapsed: 1)
    #expect(line.text(width: 100).hasSuffix("ETA --:--"))
    #expect(ProgressLine.clock(359_999) == "99:59:59")
    #expect(ProgressLine.clock(360_000) == "--:--")
    #expect(ProgressLine.clock(65) == "1:05")
  }
}
