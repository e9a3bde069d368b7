import TestSupport

@testable import Catalog

extension BusyWait {
  /// Returns once some work on this store has begun waiting for another's lock (at once if
  /// some has); throws an `AwaitTimeout` if none has by `Awaiting.standard`.
  func waitBegun(file: String = #fileID, line: Int = #line) async throws {
    _ = try await Awaiting.event(
      "store work to begin waiting for the lock", file: file, line: line
    ) { resume in
      onWaitBegun { resume(true) }
    }
  }
}
