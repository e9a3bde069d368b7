import Catalog
import Foundation
import Gutendex
import GutendexEngine
import Testing

@testable import Terminal

/// "Did you mean" in the browser: a search that finds few books gets one line under the list
/// proposing what the embedded catalogue finds instead; `'` runs it; the page itself is the
/// server's answer.
@MainActor
@Suite(.serialized)
struct BrowserSuggestionTests {
  @Test func aSearchThatFindsLittleIsOfferedOneLineAndTheKeyRunsIt() async throws {
    let app = try CaptureApp(mode: .localOnly)
    _ = await app.start()
    let searched = await app.type("/ les miserables")
    let lines = searched.split(separator: "\n").map(String.init)
    // The list is what the search found; the proposal is the one line after it.
    #expect(lines.first?.hasPrefix("search \"les miserables\"") == true, "\(searched)")
    #expect(
      lines.last == "did you mean: les misérables (11 books)? type ' to search it", "\(searched)")
    #expect(lines.filter { $0.hasPrefix("did you mean") }.count == 1, "\(searched)")
    #expect(app.session.browser.current.query.search == "les miserables")

    let taken = await app.type("'")
    #expect(
      taken.hasPrefix("search \"les misérables\" · sort popular · page 1 of 1 · 11 books"),
      "\(taken)")
    #expect(app.session.browser.current.query.search == "les misérables")
    #expect(!taken.contains("did you mean"), "\(taken)")
  }

  @Test func aTopicProposalKeepsTheOtherFilters() async throws {
    let app = try CaptureApp(query: BookQuery(languages: ["en"]), mode: .localOnly)
    _ = await app.start()
    let searched = await app.type("topic sience fiction")
    let offer = try #require(
      searched.split(separator: "\n").last.map(String.init), "\(searched)")
    #expect(offer.hasPrefix("did you mean: topic science fiction ("), "\(searched)")
    _ = await app.type("'")
    let query = app.session.browser.current.query
    #expect(query.topic == "science fiction")
    #expect(query.languages == ["en"])
    #expect((app.session.browser.current.totalCount ?? 0) > 3)
  }

  @Test func noLineWhenTheSearchFindsEnoughAndTheKeyThenSaysSo() async throws {
    let app = try CaptureApp(mode: .localOnly)
    _ = await app.start()
    let searched = await app.type("/ dickens")
    #expect(!searched.contains("did you mean"), "\(searched)")
    let taken = await app.type("'")
    #expect(
      taken
        == "error: nothing proposed: ' runs the search a 'did you mean' line offers\n",
      "\(taken)")
    #expect(app.session.browser.current.query.search == "dickens")
  }

  @Test func anOfferIsForgottenWhenTheQueryChanges() async throws {
    let app = try CaptureApp(mode: .localOnly)
    _ = await app.start()
    _ = await app.type("/ les miserables")
    _ = await app.type("reset")
    let taken = await app.type("'")
    #expect(taken.hasPrefix("error: nothing proposed"), "\(taken)")
    #expect(app.session.browser.current.query.search == nil)
  }

  @Test(arguments: [20, 40, 60, 100])
  func theLineFitsTheWidth(width: Int) {
    let line = SuggestionLine(
      SearchSuggestion(
        field: .search, value: String(repeating: "misérables ", count: 30), count: 11)
    ).lines(width: width, style: .plain)
    #expect(line.count == 1)
    #expect(DisplayWidth.cells(line[0]) <= width, "\(line)")
    #expect(width < 60 || line[0].hasSuffix(" (11 books)? type ' to search it"), "\(line)")
  }

  @Test func theProposalIsSanitized() {
    let line = SuggestionLine(
      SearchSuggestion(field: .search, value: "evil\u{1B}[2Jword", count: 4)
    )
    .lines(width: 100, style: .plain)
    #expect(!line[0].unicodeScalars.contains { $0.value < 0x20 }, "\(line)")
  }
}
