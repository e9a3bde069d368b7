import Foundation
import Testing

@testable import GutendexEngine

/// The pending list (`pending.jsonl`): one book per line, whatever bytes a book holds, and only
/// whole lines read back.
struct PendingListTests {
  typealias Directory = CatalogueSyncTests.Directory

  @Test func booksComeBackInOrderAsTheyWereAppended() throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    try directory.files.createDirectory()
    let files = directory.files
    let books = (1...300).map { Data("{\"id\":\($0),\"title\":\"Book \($0)\"}".utf8) }
    try files.appendPending(Array(books[..<100]))
    try files.appendPending(Array(books[100...]), durable: false)
    #expect(files.readPending() == books)
  }

  /// A line break inside a book would split it in two lines, neither of them a book.
  @Test func lineBreaksInsideABookAreDropped() throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    try directory.files.createDirectory()
    let files = directory.files
    let broken = Data("{\"id\":1,\r\n\"title\":\"A\nB\"}\n".utf8)
    let plain = Data("{\"id\":2}".utf8)
    // A slice that does not start at index 0, as books cut from a page are.
    let page = Data("xx{\"id\":3}yy".utf8)
    let slice = page[page.startIndex + 2..<page.endIndex - 2]
    try files.appendPending([broken, plain, slice])
    #expect(
      files.readPending() == [
        Data("{\"id\":1,\"title\":\"AB\"}".utf8), plain, Data("{\"id\":3}".utf8),
      ])
    let text = try String(contentsOf: files.pendingURL, encoding: .utf8)
    #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 4)
  }

  /// A line cut short (a crash mid-write) is not read, and the next append starts clean.
  @Test func aLineCutShortIsDroppedAndTheNextAppendStartsOnANewLine() throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    try directory.files.createDirectory()
    let files = directory.files
    try Data("{\"id\":1}\n\n{\"id\":2,\"ti".utf8).write(to: files.pendingURL)
    #expect(files.readPending() == [Data("{\"id\":1}".utf8)], "empty and cut lines skipped")
    try files.appendPending([Data("{\"id\":3}".utf8)])
    #expect(files.readPending() == [Data("{\"id\":1}".utf8), Data("{\"id\":3}".utf8)])
  }

  @Test func aMissingListIsEmpty() {
    let directory = Directory()
    #expect(directory.files.readPending().isEmpty)
  }
}
