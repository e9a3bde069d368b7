import Foundation
import Testing

@testable import Terminal

@Suite struct ReadingLengthTests {
  @Test func wordsAreRunsBetweenBlanksAndLineEnds() {
    let text = TextBytes(data: Data("  one two\tthree\r\nfour\n\nfive-six  ".utf8))
    #expect(ReadingLength.count(text, in: 0..<text.count) == 5)
    #expect(ReadingLength.count(text, in: 2..<5) == 1)
    #expect(ReadingLength.count(text, in: 0..<0) == 0)
  }

  @Test func theTextSaysTheWordsAndTheTimeAtTheSpeed() {
    #expect(
      ReadingLength(words: 77_432).text(wordsPerMinute: 250)
        == "77,432 words · 5 h 10 min at 250 words a minute")
    #expect(
      ReadingLength(words: 1).text(wordsPerMinute: 250) == "1 word · 1 min at 250 words a minute")
    #expect(
      ReadingLength(words: 0).text(wordsPerMinute: 0) == "0 words · 0 min at 1 words a minute")
  }

  @Test func aFileWithoutItsHeaderAndLicence() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("length-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: file) }
    let body = String(repeating: "It was the best of times.\n", count: 200)
    let text =
      "The Project Gutenberg eBook of A Tale\n\n"
      + "*** START OF THE PROJECT GUTENBERG EBOOK A TALE ***\n\n" + body
      + "\n*** END OF THE PROJECT GUTENBERG EBOOK A TALE ***\n\nLicence words here.\n"
    try Data(text.utf8).write(to: file)
    let length = try #require(ReadingLength.of(file: file.path))
    #expect(length.words == 1_200)
    #expect(ReadingLength.of(file: file.path + ".missing") == nil)
  }
}
