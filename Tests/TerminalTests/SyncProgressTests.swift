import Foundation
import Gutendex
import Testing

@testable import Terminal

/// `sync`'s progress line: pages from the server's answers, books from the journal as it grows
/// (not what an earlier, interrupted sync left), and the rate.
@Suite struct SyncProgressTests {
  @Test func theLineSaysPagesBooksAndRate() {
    #expect(
      SyncProgress.text(pages: 12, books: 384, seconds: 4)
        == "sync: 12 pages · 384 books · 3.0 pages/s")
    #expect(
      SyncProgress.text(pages: 1, books: 1, seconds: 0) == "sync: 1 page · 1 book · 0.0 pages/s")
  }

  @Test func pagesAndBooksCountFromTheStart() throws {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-sync-progress-\(UUID().uuidString)", isDirectory: true)
    let catalogue = data.appendingPathComponent("catalogue", isDirectory: true)
    try FileManager.default.createDirectory(at: catalogue, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: data) }
    let journal = catalogue.appendingPathComponent("pending.jsonl")
    // Two books from an earlier sync that stopped.
    try Data("{\"id\":1}\n{\"id\":2}\n".utf8).write(to: journal)
    let progress = SyncProgress(dataDirectory: data)
    let url = try #require(URL(string: "http://127.0.0.1:9/books/"))
    progress.record(RequestEvent(url: url, status: 200, error: nil, duration: .zero, attempt: 1))
    progress.start()
    #expect(progress.pagesSoFar == 0)
    #expect(progress.booksSoFar() == 0)
    progress.record(RequestEvent(url: url, status: 200, error: nil, duration: .zero, attempt: 1))
    progress.record(RequestEvent(url: url, status: 503, error: nil, duration: .zero, attempt: 1))
    let handle = try FileHandle(forWritingTo: journal)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("{\"id\":3}\n{\"id\":4}\n{\"id\":5}\n".utf8))
    try handle.close()
    #expect(progress.pagesSoFar == 1)
    #expect(progress.booksSoFar() == 3)
    #expect(progress.booksSoFar() == 3, "the same bytes are not counted twice")
  }
}
