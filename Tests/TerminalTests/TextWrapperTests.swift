import Testing

@testable import Terminal

@Suite struct TextWrapperTests {
  @Test func wrapsOnWordBoundaries() {
    let lines = TextWrapper.wrap("the quick brown fox jumps over the lazy dog", toCells: 15)
    #expect(lines == ["the quick brown", "fox jumps over", "the lazy dog"])
  }

  @Test func breaksWordsLongerThanALine() {
    let lines = TextWrapper.wrap("see https://www.gutenberg.org/ebooks/1342 now", toCells: 16)
    #expect(lines == ["see", "https://www.gute", "nberg.org/ebooks", "/1342 now"])
  }

  @Test func breaksTextWithoutSpacesBetweenCharacters() {
    let lines = TextWrapper.wrap("红楼梦是中国古典小说", toCells: 7)
    #expect(lines == ["红楼梦", "是中国", "古典小", "说"])
    #expect(lines.allSatisfy { DisplayWidth.cells($0) <= 7 })
  }

  @Test func indentsWithPrefixes() {
    let lines = TextWrapper.wrap(
      "one two three four", toCells: 12, firstPrefix: "Label: ", prefix: "       ")
    #expect(lines == ["Label: one", "       two", "       three", "       four"])
  }

  @Test func emptyTextGivesThePrefixAlone() {
    #expect(TextWrapper.wrap("", toCells: 10, firstPrefix: "Summary:") == ["Summary:"])
    #expect(TextWrapper.wrap("", toCells: 10) == [""])
  }

  @Test func joinsItemsWithoutSplittingThem() {
    let hints = ["n next", "p prev", "g N go", "q quit"]
    #expect(TextWrapper.join(hints, toCells: 80) == ["n next · p prev · g N go · q quit"])
    #expect(TextWrapper.join(hints, toCells: 16) == ["n next · p prev", "g N go · q quit"])
  }
}
