import Testing

@testable import Terminal

/// Checks over many generated strings mixing every kind of character the renderers meet.
@Suite struct PropertyTests {
  /// A small deterministic generator (a 64-bit LCG), so failures reproduce.
  struct Generator {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  /// Pieces of text: controls, escapes, bidi, invisibles, wide, combining, emoji, plain.
  static let pieces: [String] = [
    "a", "Z", " ", "  ", "\t", "\n", "\r\n", "\u{0}", "\u{7}", "\u{7F}", "\u{1B}", "\u{1B}[",
    "\u{1B}]0;", "\u{1B}\\", "[31m", "\u{85}", "\u{97}", "\u{9B}", "\u{9C}", "\u{9D}", "\u{9E}",
    "\u{AD}", "\u{200B}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}",
    "\u{FEFF}", "\u{061C}", "\u{2028}", "红", "楼", "한", "ｆ", "\u{301}", "\u{1F600}", "\u{FE0F}",
    "\u{200D}", "Война", "كتاب", "é", "…", "\u{1F1EB}\u{1F1F7}",
  ]

  static func samples(count: Int, seed: UInt64) -> [String] {
    var generator = Generator(state: seed)
    return (0..<count).map { _ in
      (0..<generator.next(24)).map { _ in pieces[generator.next(pieces.count)] }.joined()
    }
  }

  @Test func sanitisedTextIsCleanTrimmedAndStable() {
    for sample in Self.samples(count: 2_000, seed: 42) {
      let clean = Sanitizer.sanitize(sample)
      #expect(!RenderChecks.hasForbiddenScalar(clean), "\(sample.debugDescription)")
      #expect(!clean.hasPrefix(" ") && !clean.hasSuffix(" "), "\(sample.debugDescription)")
      #expect(!clean.contains("  "), "\(sample.debugDescription)")
      #expect(Sanitizer.sanitize(clean) == clean, "\(sample.debugDescription)")
    }
  }

  @Test(arguments: [0, 1, 2, 3, 7, 20])
  func truncatedAndFittedTextKeepsToTheWidth(width: Int) {
    for sample in Self.samples(count: 500, seed: UInt64(width) + 7) {
      let clean = Sanitizer.sanitize(sample)
      let cut = DisplayWidth.truncate(clean, toCells: width)
      #expect(DisplayWidth.cells(cut) <= width, "\(clean.debugDescription)")
      if DisplayWidth.cells(clean) <= width {
        #expect(cut == clean)
      } else if width > 0 {
        #expect(cut.hasSuffix("…"))
      }
      #expect(DisplayWidth.cells(DisplayWidth.fit(clean, toCells: width)) == width)
    }
  }

  @Test(arguments: [1, 5, 12, 40])
  func wrappedLinesKeepToTheWidthAndKeepEveryWord(width: Int) {
    for sample in Self.samples(count: 300, seed: UInt64(width) * 31) {
      let clean = Sanitizer.sanitize(sample)
      let lines = TextWrapper.wrap(clean, toCells: width)
      for line in lines {
        #expect(DisplayWidth.cells(line) <= max(width, 2), "\(clean.debugDescription)")
      }
      let rejoined = lines.joined().filter { $0 != " " }
      #expect(rejoined == clean.filter { $0 != " " }, "\(clean.debugDescription)")
    }
  }
}
