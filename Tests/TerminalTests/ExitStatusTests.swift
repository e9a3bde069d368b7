import Catalog
import Gutendex
import Testing

@testable import Terminal

@Suite("Exit statuses")
struct ExitStatusTests {
  @Test func userMistakesAreUsageErrors() {
    #expect(ExitStatus(.invalidInput("which rows?")) == .usage)
    #expect(ExitStatus(.pageOutOfRange(page: 9, pageCount: 3)) == .usage)
    #expect(ExitStatus(.noSuchRow(row: 4, rowCount: 2)) == .usage)
  }

  /// A broken embedded catalogue is not the user's mistake: it must not exit 64 ("usage").
  @Test func aLocalCatalogueThatCannotOpenIsUnavailable() {
    #expect(
      ExitStatus(.localCatalogueUnavailable("cannot open the embedded catalogue")) == .unavailable)
    #expect(ExitStatus(.notAvailableOffline("this page")) == .unavailable)
  }

  @Test func unexpectedFailuresAreGeneralFailures() {
    struct Odd: Error {}
    #expect(ExitStatus(CatalogError(Odd())) == .failure)
    #expect(ExitStatus(.cancelled) == .failure)
  }
}
