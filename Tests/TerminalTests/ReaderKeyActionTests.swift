import Testing

@testable import Terminal

/// The reader's single keys as a table: what each key does, with and without a number typed
/// before it, as less's users expect.
@Suite struct ReaderKeyActionTests {
  static func action(_ key: ReaderKey, count: Int? = nil, height: Int = 20) -> ReaderKeyAction {
    ReaderKeyAction(key, count: count, pageHeight: height)
  }

  @Test func pagesTurnAndRowsMoveAsInLess() {
    for key: ReaderKey in [.character(" "), .character("f"), .pageDown, .control("f")] {
      #expect(Self.action(key) == .command(.next), "\(key)")
    }
    for key: ReaderKey in [.character("b"), .pageUp, .control("b")] {
      #expect(Self.action(key) == .command(.previous), "\(key)")
    }
    #expect(Self.action(.character("j")) == .move(rows: 1))
    #expect(Self.action(.down, count: 5) == .move(rows: 5))
    #expect(Self.action(.enter) == .move(rows: 1))
    #expect(Self.action(.character("k"), count: 3) == .move(rows: -3))
    // Half a page, as less's d and u; at least one row on the smallest window.
    #expect(Self.action(.character("d"), height: 21) == .move(rows: 10))
    #expect(Self.action(.control("u"), height: 21) == .move(rows: -10))
    #expect(Self.action(.character("d"), height: 1) == .move(rows: 1))
    #expect(Self.action(.character("d"), count: 7) == .move(rows: 7))
  }

  @Test func aNumberBeforeAKeyGoesToThatLineOrPercent() {
    #expect(Self.action(.character("4")) == .digit(4))
    #expect(Self.action(.character("0"), count: 12) == .digit(0))
    // A digit of another script is not a count: it begins a command, as any other letter.
    #expect(Self.action(.character("٣")) == .commandLine(typed: "٣"))
    #expect(Self.action(.character("g")) == .jump(.start))
    #expect(Self.action(.character("g"), count: 120) == .jump(.line(120)))
    #expect(Self.action(.end) == .jump(.end))
    #expect(Self.action(.character("G"), count: 3) == .jump(.line(3)))
    #expect(Self.action(.character("%"), count: 50) == .jump(.percent(50)))
    #expect(Self.action(.character("%"), count: 250) == .jump(.percent(100)))
    // `%` without a number is no jump: it begins a command line.
    #expect(Self.action(.character("%")) == .commandLine(typed: "%"))
  }

  @Test func searchesMarksAndTheRest() {
    #expect(Self.action(.character("/")) == .search(backward: false))
    #expect(Self.action(.character("?")) == .search(backward: true))
    #expect(Self.action(.character("n")) == .repeatSearch(reversed: false))
    #expect(Self.action(.character("N")) == .repeatSearch(reversed: true))
    #expect(Self.action(.character("m")) == .mark)
    #expect(Self.action(.character("'")) == .goToMark)
    #expect(Self.action(.control("l")) == .redraw)
    #expect(Self.action(.character("q")) == .quit)
    #expect(Self.action(.character("Q")) == .quit)
    #expect(Self.action(.character("h")) == .command(.help))
    #expect(Self.action(.character(":")) == .commandLine(typed: ""))
    #expect(Self.action(.character("t")) == .commandLine(typed: "t"))
    #expect(Self.action(.character("é")) == .commandLine(typed: "é"))
    #expect(Self.action(.control("z")) == .nothing)
    #expect(Self.action(.other) == .nothing)
  }
}
