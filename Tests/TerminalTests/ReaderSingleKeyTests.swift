import Catalog
import Foundation
import TestSupport
import Testing

@testable import Terminal

/// The reader's single keys, as a terminal gives them (`ScriptedKeys` stands for the
/// keyboard): counts (`50%`, `3j`), half pages, backward search and `N`, the `:` command line
/// and a key of no command beginning one, `:set width`.
@MainActor
@Suite(.serialized)
struct ReaderSingleKeyTests {
  /// The pager after `steps` on the Frankenstein sample in an 80×24 window, and the keys.
  func read(_ steps: [ScriptedKeys.Step], height: Int = 24) async throws -> (
    ReaderSession, ScriptedKeys, String
  ) {
    let capture = try CaptureApp(width: 80, height: height)
    try await capture.attachBookActions()
    let app = try #require(capture.app)
    let screen = capture.screen
    let keys = ScriptedKeys(steps, screen: { screen.out })
    let pager = Pager(
      text: BookText(data: try FixtureFiles.data("pg84-sample.txt")), title: "F", width: 80,
      height: height - 2)
    let session = ReaderSession(
      pager: pager, id: 84, service: app.service, output: screen.output(),
      input: OneShotOutputTests.Lines([]), keys: keys)
    #expect(await session.run() == .ok)
    // The screen when the keys ran out: the last prompt still on it.
    return (session, keys, ScriptedKeys.asShown(keys.last.withLock { $0 }))
  }

  @Test func countsHalfPagesAndTheEnds() async throws {
    let (half, _, _) = try await read(ScriptedKeys.keys("d"))
    var expected = half.pager
    expected.go(line: 1)
    expected.scroll(by: 11)
    #expect(half.pager.top == expected.top)
    let (percent, _, _) = try await read(ScriptedKeys.keys("50%"))
    #expect((49...50).contains(percent.pager.percent), "\(percent.pager.percent)")
    let (rows, _, _) = try await read(ScriptedKeys.keys("3jk"))
    expected.go(line: 1)
    expected.scroll(by: 2)
    #expect(rows.pager.top == expected.top)
    let (end, _, shown) = try await read(ScriptedKeys.keys("Gu"))
    #expect(shown.contains("· 100%"))
    #expect(!end.pager.atEnd)
    // `Chapter 1` is line 175 of the file, and of the body (the lines `g` counts) 152.
    let chapter = try #require(
      half.pager.text.body.first { half.pager.text.line($0) == "Chapter 1" })
    let number = chapter - half.pager.text.body.lowerBound + 1
    #expect(number == 152)
    let (line, _, _) = try await read(ScriptedKeys.keys("\(number)g"))
    #expect(line.pager.page().rows.first?.text == "Chapter 1")
  }

  @Test func backwardSearchAndNGoTheOtherWay() async throws {
    let (session, keys, shown) = try await read(
      [.key(.character("G")), .key(.character("?")), .line("Walton"), .key(.character("n"))]
        + [.key(.character("N"))])
    #expect(keys.prompts.withLock { $0 } == ["?"])
    let text = session.pager.text
    let all = text.bytes.string(text.bodyBytes)
    let count = all.components(separatedBy: "Walton").count - 1
    #expect(count > 3)
    // G, then back to the last match before the last page, one more back (n keeps the
    // direction), then forward again (N): the first of the two.
    var end = session.pager
    end.goToEnd()
    let last = try #require(text.findLast("Walton", in: text.bodyBytes.lowerBound..<end.top))
    let before = try #require(
      text.findLast("Walton", in: text.bodyBytes.lowerBound..<last.lowerBound))
    #expect(session.pager.match?.lowerBound == last.lowerBound, "\(before) then \(last)")
    #expect(before.lowerBound < last.lowerBound)
    #expect(shown.contains("»Walton«"))
  }

  @Test func aKeyOfNoCommandBeginsOneAndSetWidthWraps() async throws {
    let (session, keys, shown) = try await read([
      .key(.character("t")), .line("oc"), .key(.character(":")), .line("set width 40"),
    ])
    #expect(keys.prompts.withLock { $0 } == [":t", ":"])
    #expect(shown.contains("Contents (toc N goes to entry N)"))
    #expect(session.pager.textWidth == 40)
    let rows = session.pager.page().rows
    #expect(rows.allSatisfy { DisplayWidth.cells($0.text) <= 40 })
    #expect(shown.contains("(text width 40)"))
    #expect(shown.hasSuffix(":"), "the prompt is last: \(shown.suffix(80))")
  }

  @Test func colonHlHighlightsTheMatchWithItsNoteAndChapter() async throws {
    let (session, _, shown) = try await read([
      .key(.character("/")), .line("petersburgh"), .key(.character(":")),
      .line("hl a cold city"),
    ])
    #expect(shown.contains("highlighted b1 in Letter 1: “Petersburgh”"), "\(shown.suffix(300))")
    let marks = try await session.service.marks.bookmarks(id: 84)
    #expect(marks.count == 1)
    let mark = try #require(marks.first)
    #expect(mark.quote == "Petersburgh" && mark.note == "a cold city" && mark.chapter == "Letter 1")
    let match = try #require(session.pager.match)
    #expect(mark.byteOffset == match.lowerBound && mark.endOffset == match.upperBound)
  }

  @Test func qInAListReturnsToThePageAndTheKeysAreListed() async throws {
    // A window too short for the contents: they are shown a window at a time.
    let (_, _, shown) = try await read(
      [.key(.character(":")), .line("toc"), .key(.character("q")), .key(.character("h"))],
      height: 6)
    let parts = shown.components(separatedBy: "Contents (toc N goes to entry N)")
    #expect(parts.count == 2)
    #expect(parts[1].contains("lines 1–"), "\(shown)")
    #expect(parts[1].contains("F · line 1 of 157"), "the page again after q")
    #expect(shown.contains(Pager.singleKeys))
  }
}
