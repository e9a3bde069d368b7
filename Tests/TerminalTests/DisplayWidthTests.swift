import Testing

@testable import Terminal

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("", 0),
    ("Pride and Prejudice", 19),
    ("a\tb\u{7}", 2),
    ("红楼梦", 6),
    ("羅生門", 6),
    ("한국어", 6),
    ("\u{1100}\u{1161}\u{11A8}", 2),  // 각 spelled with conjoining jamo
    ("ｆｕｌｌ", 8),
    ("ﾊﾝｶｸ", 4),  // halfwidth katakana stay narrow
    ("Café", 4),
    ("Cafe\u{301}", 4),
    ("Война и мир", 11),
    ("كتاب", 4),
    ("a\u{200B}b\u{FEFF}c\u{2060}", 3),
    ("\u{1F600}", 2),
    ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 2),
    ("\u{1F1EB}\u{1F1F7}", 2),
    ("\u{2764}", 1),
    ("\u{2764}\u{FE0F}", 2),
    ("x\u{FE0F}", 1),
    ("…", 1),
    ("\u{9C}", 0),
    ("\u{20000}", 2),
  ])
  func measuresCells(text: String, expected: Int) {
    #expect(DisplayWidth.cells(text) == expected, "\(text.debugDescription)")
  }

  @Test func wideRangesAreSortedAndDisjoint() {
    let ranges = DisplayWidth.wideRanges
    for (left, right) in zip(ranges, ranges.dropFirst()) {
      #expect(left.upperBound < right.lowerBound, "\(left) overlaps or precedes \(right)")
    }
    #expect(DisplayWidth.isWide(0x303E))
    #expect(!DisplayWidth.isWide(0x303F))
    #expect(DisplayWidth.isWide(0xAC00))
    #expect(!DisplayWidth.isWide(0xD7A4))
  }

  @Test func truncatesWithEllipsis() {
    #expect(DisplayWidth.truncate("Pride and Prejudice", toCells: 19) == "Pride and Prejudice")
    #expect(DisplayWidth.truncate("Pride and Prejudice", toCells: 10) == "Pride and…")
    #expect(DisplayWidth.truncate("Pride and Prejudice", toCells: 6) == "Pride…")
    #expect(DisplayWidth.truncate("Pride", toCells: 1) == "…")
    #expect(DisplayWidth.truncate("Pride", toCells: 0) == "")
  }

  @Test func neverSplitsAWideCharacter() {
    let cut = DisplayWidth.truncate("红楼梦红楼梦", toCells: 6)
    #expect(cut == "红楼…")
    #expect(DisplayWidth.cells(cut) == 5)
    let fitted = DisplayWidth.fit("红楼梦红楼梦", toCells: 6)
    #expect(fitted == "红楼… ")
    #expect(DisplayWidth.cells(fitted) == 6)
  }

  @Test func keepsCombiningMarksWithTheirLetter() {
    let cut = DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}e\u{301}", toCells: 3)
    #expect(cut == "e\u{301}e\u{301}…")
  }

  @Test func padsOnEitherSide() {
    #expect(DisplayWidth.pad("12", toCells: 5, alignment: .right) == "   12")
    #expect(DisplayWidth.pad("ab", toCells: 4) == "ab  ")
    #expect(DisplayWidth.pad("红", toCells: 4) == "红  ")
    #expect(DisplayWidth.pad("toolong", toCells: 3) == "toolong")
    #expect(DisplayWidth.fit("abcdef", toCells: 4, alignment: .right) == "abc…")
  }

  @Test(arguments: [1, 2, 3, 5, 7, 10, 25])
  func fitAlwaysGivesExactWidth(width: Int) {
    for text in ["红楼梦 Dream", "Война", "a\u{301}b", "", "\u{1F600}x\u{1F600}"] {
      #expect(DisplayWidth.cells(DisplayWidth.fit(text, toCells: width)) == width, "\(text)")
    }
  }

  @Test func chunksOnGraphemeBoundaries() {
    #expect(DisplayWidth.chunks("红楼梦abc", toCells: 3) == ["红", "楼", "梦a", "bc"])
    #expect(DisplayWidth.chunks("abcdefg", toCells: 3) == ["abc", "def", "g"])
  }
}
