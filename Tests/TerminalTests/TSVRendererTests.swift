import Foundation
import Gutendex
import Testing

@testable import Terminal

@Suite struct TSVRendererTests {
  @Test func writesOneLinePerBook() throws {
    let page = try Fixtures.page("e4-2025-page1")
    let lines = TSVRenderer.lines(page.results)
    #expect(lines.count == page.results.count)
    #expect(
      lines[0]
        == "84\tFrankenstein; Or, The Modern Prometheus\tShelley, Mary Wollstonecraft\ten\t195270")
    for line in lines {
      #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 5)
    }
    #expect(TSVRenderer.lines([], header: true) == ["id\ttitle\tauthors\tlanguages\tdownloads"])
  }

  @Test func neverCutsAndJoinsEveryAuthor() throws {
    let long = try Fixtures.book(60045, in: "en__page_87")
    let fields = TSVRenderer.line(long).components(separatedBy: "\t")
    #expect(fields[1] == Sanitizer.sanitize(long.title))
    #expect(fields[1].count == 958)
    let book = Book(
      id: 5, title: "T", authors: [Person(name: "A, B"), Person(name: "C\tD")],
      languages: ["en", "fr"], downloadCount: 1_234)
    #expect(TSVRenderer.line(book) == "5\tT\tA, B; C D\ten,fr\t1234")
  }

  @Test func sanitisesHostileFields() {
    let line = TSVRenderer.line(HostileData.book)
    #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 5)
    #expect(!line.contains("\n"))
    let withoutTabs = line.replacingOccurrences(of: "\t", with: " ")
    #expect(!RenderChecks.hasForbiddenScalar(withoutTabs))
  }
}
