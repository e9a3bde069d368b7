import Foundation
import Gutendex
import GutendexServer
import TestSupport
import TestTraits
import Testing

@testable import gutendex_server

/// The executable's flags and its temporary JSONL handler.
@Suite(.ownThread) struct GutendexServerCommandTests {
  static func booksFile() throws -> String {
    try FixtureFiles.url("catalogue-2025-08-first34.jsonl").path
  }

  @Test func flagsBecomeAFaultPlan() throws {
    let command = try GutendexServerCommand.parse([
      "--port", "8089", "--latency-ms", "250", "--status-script", "500,429:2", "--truncate",
      "--invalid-json", "--wrong-content-type", "--reset", "--stall", "--oversized-mb", "100",
      "--oversized-framing", "chunked", "--foreign-redirect", "--hostile",
    ])
    #expect(command.port == 8089)
    let plan = try command.faultPlan()
    let expected = FaultPlan(
      latency: .milliseconds(250),
      statusScript: [.serverError(500), .rateLimited(retryAfter: "2")], truncateBody: true,
      invalidJSON: true, wrongContentType: true, resetMidBody: true, stallAfterHeaders: true,
      oversizedBody: OversizedBody(bytes: 100 * 1_048_576, framing: .chunked),
      redirectToForeignHost: true, hostileText: true)
    #expect(plan == expected)
  }

  @Test func filesModeFlags() throws {
    let command = try GutendexServerCommand.parse([
      "--generate", "/big.bin=524288000", "--generate", "/empty=0", "--no-ranges",
      "--stall-mid-body",
    ])
    #expect(try command.generatedFiles().map(\.path) == ["/big.bin", "/empty"])
    #expect(try command.generatedFiles().map(\.size) == [524_288_000, 0])
    #expect(command.noRanges)
    #expect(try command.faultPlan() == FaultPlan(stallMidBody: true))
    #expect(throws: (any Error).self) {
      try GutendexServerCommand.parse(["--generate", "big.bin=12"])
    }
    #expect(throws: (any Error).self) {
      try GutendexServerCommand.parse(["--generate", "/big.bin=lots"])
    }
  }

  @Test func noFlagsMeansNoFaults() throws {
    let command = try GutendexServerCommand.parse([])
    #expect(try command.faultPlan() == .none)
    #expect(command.host == "127.0.0.1")
  }

  @Test(arguments: [
    ["--host", "0.0.0.0"], ["--host", "192.168.1.2"], ["--latency-ms", "-1"],
    ["--oversized-mb", "0"], ["--oversized-framing", "gzip"],
  ])
  func rejectsBadFlags(_ arguments: [String]) {
    #expect(throws: (any Error).self) { try GutendexServerCommand.parse(arguments) }
  }

  @Test func rejectsABadStatusScript() throws {
    let command = try GutendexServerCommand.parse(["--status-script", "500,teapot"])
    #expect(throws: (any Error).self) { try command.faultPlan() }
  }

  @Test func servesTheBooksFileWithTheEngine() async throws {
    let handler = try GutendexServerCommand.engine(books: Self.booksFile())
    try await withServer(handler: handler) { _, url in
      let page = try await makeClient(url).page(BookQuery(page: 2))
      #expect(page.count == 34)
      #expect(page.results.count == 2)
      #expect(page.next == nil)
      let filtered = try await makeClient(url).page(BookQuery(search: "Declaration Independence"))
      #expect(filtered.results.contains { $0.title.hasPrefix("The Declaration of Independence") })
      #expect(filtered.count < 34)
      let missing = await failure { try await makeClient(url).book(id: 999_999_999) }
      #expect(missing?.kind == "http")
    }
  }

  @Test func withoutABooksFileServesTheEmbeddedCatalogue() async throws {
    let engine = try GutendexServerCommand.engine(books: nil)
    #expect(engine.bookCount == 76_696)
  }

  @Test func refusesUnreadableOrBrokenBooksFiles() throws {
    #expect(throws: (any Error).self) {
      try GutendexServerCommand.engine(books: "/nonexistent/books.jsonl")
    }
    let broken = FileManager.default.temporaryDirectory
      .appending(path: "broken-\(UUID().uuidString).jsonl")
    try Data("{\"id\":1}\nnot json\n".utf8).write(to: broken)
    defer { try? FileManager.default.removeItem(at: broken) }
    #expect(throws: (any Error).self) {
      try GutendexServerCommand.engine(books: broken.path)
    }
  }
}
