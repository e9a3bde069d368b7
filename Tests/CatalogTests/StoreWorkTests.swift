import Foundation
import Synchronization
import TestSupport
import TestTraits
import Testing

@testable import Catalog

extension StoreLockWaitSuites {
  /// Store work runs off the main actor, and Ctrl-C (a cancelled task) ends a wait for a lock
  /// that another process holds, leaving the store as it was.
  @Suite(.ownThread) struct StoreWorkTests {
    @Test @MainActor func aWaitForTheLockDoesNotBlockTheMainActor() async throws {
      let harness = try CatalogHarness()
      let book = try #require(try CatalogFixtures.books("e4-2025-page1").first)
      let lock = try DatabaseLock(path: harness.favorites.databaseURL.path)
      let finished = Atomic(false)
      let toggle = Task { @MainActor in
        let now = try await harness.service.toggleFavorite(book)
        finished.store(true, ordering: .sequentiallyConsistent)
        return now
      }
      // The busy handler says the toggle is waiting for the lock; the main actor still runs
      // this test's code. Had the wait blocked the main actor, this test could only go on
      // after the toggle ended.
      try await harness.favorites.busyWait.waitBegun()
      #expect(finished.load(ordering: .sequentiallyConsistent) == false)
      lock.unlock()
      #expect(try await toggle.value == true)
      #expect(try harness.favorites.isFavorite(book.id))
    }

    @Test func cancellingEndsAWaitForTheLockAndChangesNothing() async throws {
      let harness = try CatalogHarness()
      let book = try #require(try CatalogFixtures.books("e4-2025-page1").first)
      let lock = try DatabaseLock(path: harness.favorites.databaseURL.path)
      // On a thread of its own like the test (`.ownThread`): an unstructured task has no executor
      // preference, and on the cooperative pool `waited` would include its queue.
      let toggle = Task(executorPreference: OwnThread.executor()) {
        try await harness.service.toggleFavorite(book)
      }
      // Cancelled only once it really waits for the lock (the busy handler says so): a
      // cancellation before the wait would be refused whole without testing the interrupt.
      try await harness.favorites.busyWait.waitBegun()
      let start = ContinuousClock.now
      toggle.cancel()
      let result = await toggle.result
      let waited = ContinuousClock.now - start
      lock.unlock()
      #expect(throws: CatalogError.cancelled) { try result.get() }
      // Without the interrupt the wait would last the whole busy timeout (30 s).
      #expect(waited < .seconds(StoreDatabase.busyTimeout / 2))
      #expect(try harness.favorites.isFavorite(book.id) == false)
      // The store works again once the lock is free: nothing was left half done.
      #expect(try await harness.service.toggleFavorite(book) == true)
    }

    @Test func workCancelledBeforeItStartsIsRefusedWhole() async throws {
      let harness = try CatalogHarness()
      let books = try CatalogFixtures.books("e4-2025-page1")
      let task = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await harness.service.toggleFavorites(books)
      }
      // Cancelled before it started: refused whole, not half applied.
      await #expect(throws: CatalogError.cancelled) { try await task.value }
      #expect(try harness.favorites.count() == 0)
    }
  }
}
