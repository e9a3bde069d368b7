import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// `favorites add` of many ids (issue 36): the books are saved in one transaction, one commit
/// whatever their number, and the lines and the order are as when each was saved by itself.
@Suite(.serialized, .ownThread)
struct BulkFavoritesTests {
  @Test func manyIdsAreOneCommitInTheOrderNamed() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    // The store made first, so the runs traced below only add.
    let first = try await app.run(["favorites", "add", "11", "--source", "local"])
    try #require(first.status == 0, "\(first)")

    let (one, oneTrace) = try await LoadWhatIsUsedTests.traced(
      app, ["favorites", "add", "84", "--source", "local"])
    #expect(one.status == 0, "\(one)")
    let ids = [1342, 2701, 1661, 98, 74, 1080, 345, 1952, 174, 76, 2600, 5200, 1400, 16, 43, 36]
    let (many, manyTrace) = try await LoadWhatIsUsedTests.traced(
      app, ["favorites", "add"] + ids.map(String.init) + ["84", "--source", "local"])
    #expect(many.status == 0, "\(many)")
    // One commit (each one fsyncs the WAL): as many syncs for 17 ids as for one.
    #expect(oneTrace.syncs > 0, "the trace saw no sync: \(oneTrace)")
    #expect(
      manyTrace.syncs == oneTrace.syncs, "\(manyTrace.syncs) syncs, one add took \(oneTrace.syncs)")
    // A line per id, in order; 84, named again, was a favourite already.
    let said = many.errLines.map { $0.split(separator: ":").first.map(String.init) ?? "" }
    #expect(
      said == Array(repeating: "added", count: ids.count) + ["already a favourite"], "\(many)")
    #expect(many.errLines.first?.hasPrefix("added: 1342 ") == true, "\(many)")

    // Newest first: the order they were named in, reversed.
    let listed = try await app.run(["favorites", "list"])
    let order = listed.outLines.compactMap {
      $0.split(separator: "\t").first.map { Int($0) } ?? nil
    }
    #expect(order == ids.reversed() + [84, 11], "\(listed)")
  }

  /// An id that cannot be found is one error line in its place, and the others are saved.
  @Test func anIdNotFoundIsAnErrorInItsPlace() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let run = try await app.run(["favorites", "add", "84", "99999999", "1342", "--source", "local"])
    #expect(run.status != 0, "\(run)")
    #expect(run.errLines.count == 3, "\(run)")
    #expect(run.errLines.first?.hasPrefix("added: 84 ") == true, "\(run)")
    #expect(run.errLines[1].hasPrefix("error: "), "\(run)")
    #expect(run.errLines.last?.hasPrefix("added: 1342 ") == true, "\(run)")
    let listed = try await app.run(["favorites", "list"])
    #expect(listed.outLines.count == 2, "\(listed)")
  }
}
