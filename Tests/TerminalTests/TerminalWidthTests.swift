import Testing

@testable import Terminal

@Suite struct TerminalWidthTests {
  @Test func prefersColumns() {
    #expect(TerminalWidth.resolve(columns: "132", terminalColumns: 80) == 132)
    #expect(TerminalWidth.resolve(columns: " 100 ", terminalColumns: nil) == 100)
  }

  @Test func ignoresColumnsThatAreNotPositiveIntegers() {
    #expect(TerminalWidth.resolve(columns: "0", terminalColumns: 120) == 120)
    #expect(TerminalWidth.resolve(columns: "-5", terminalColumns: 120) == 120)
    #expect(TerminalWidth.resolve(columns: "wide", terminalColumns: 90) == 90)
    #expect(TerminalWidth.resolve(columns: "", terminalColumns: nil) == 80)
  }

  @Test func fallsBackTo80() {
    #expect(TerminalWidth.resolve(columns: nil, terminalColumns: nil) == 80)
    #expect(TerminalWidth.resolve(columns: nil, terminalColumns: 0) == 80)
  }

  @Test func clampsToTheMinimum() {
    #expect(TerminalWidth.resolve(columns: "12", terminalColumns: nil) == TerminalWidth.minimum)
    #expect(TerminalWidth.resolve(columns: nil, terminalColumns: 20) == TerminalWidth.minimum)
    #expect(TerminalWidth.minimum == 40)
  }
}
