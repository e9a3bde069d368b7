import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// A row of the fault matrix: another process holds the favourites database's write lock.
/// The prompt must not freeze on it, and Ctrl-C must end the wait at once, change nothing and
/// leave the session running.
@Suite(.serialized, .ownThread)
struct StoreLockTests {
  /// Polls the child's standard error until it holds `text` or `timeout` passes.
  static func waitForError(_ child: ChildProcess, _ text: String, timeout: Duration) async -> Bool {
    let deadline = StarvedDeadline(timeout)
    while !deadline.hasPassed {
      if String(decoding: child.stderr, as: UTF8.self).contains(text) { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return false
  }

  /// Polls `file` until the binary has written a line to it (`GUTENBERG_TEST_LOCK_WAIT_LOG`:
  /// a lock wait began); throws an `AwaitTimeout` if none has by `Awaiting.standard`.
  static func waitForLockWait(_ file: URL, _ child: ChildProcess) async throws {
    try await Awaiting.condition(
      "the browser's toggle to wait for the lock (a line in \(file.lastPathComponent))"
    ) { (try? Data(contentsOf: file))?.contains(UInt8(ascii: "\n")) == true }
  }

  @Test func ctrlCEndsAWaitForALockedDatabaseAndThePromptGoesOn() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let waits = app.root.appendingPathComponent("lock-waits.log")
    #expect(FileManager.default.createFile(atPath: waits.path, contents: nil))
    app.extraEnvironment["GUTENBERG_TEST_LOCK_WAIT_LOG"] = waits.path
    // Create the favourites database, then start the browser on the embedded catalogue.
    let first = try await app.run(["favorites", "list", "--source", "embedded"])
    #expect(first.status == 0, "\(first)")
    let child = try app.start(["--source", "embedded"])
    #expect(await child.waitForOutput { $0.contains("page 1 of") }, "\(child.stdoutText)")

    let lock = try DatabaseLock(
      path: app.dataDirectory.appendingPathComponent("favorites.sqlite").path)
    await child.send("f 1")
    // The binary's busy handler says the toggle is now waiting for the lock (it would wait up
    // to 30 s); Ctrl-C before the wait would test nothing.
    try await Self.waitForLockWait(waits, child)
    #expect(!child.stdoutText.contains("Added to favourites"))
    let pressed = ContinuousClock.now
    child.kill(SIGINT)
    let cancelled = await Self.waitForError(child, "cancelled", timeout: .seconds(20))
    let waited = ContinuousClock.now - pressed
    #expect(
      cancelled, "no 'cancelled' after Ctrl-C: \(String(decoding: child.stderr, as: UTF8.self))")
    #expect(waited < .seconds(15))
    // The wait really ended: with the lock still held, the prompt answers the next command
    // (a stuck toggle would hold the session for the whole 30 s busy timeout).
    await child.send("?")
    #expect(
      await child.waitForOutput(timeout: .seconds(10)) { $0.contains("Commands") },
      "the session did not answer while the lock was held: \(child.stdoutText)")
    lock.unlock()

    // Nothing was written, and the session takes the next command.
    await child.send("f 1")
    #expect(
      await child.waitForOutput { $0.contains("Added to favourites") }, "\(child.stdoutText)")
    await child.send("q")
    child.closeInput()
    let exit = await child.wait(timeout: .seconds(60))
    #expect(exit.code == 0, "\(String(decoding: child.stderr, as: UTF8.self))")
    let favorites = try await app.favoriteIDs()
    #expect(favorites.count == 1, "the cancelled toggle must not have been applied: \(favorites)")
  }
}
