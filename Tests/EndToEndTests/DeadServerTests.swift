import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// A server that stops answering costs one timeout, not one per page or per command: after the
/// first, answers come from the local catalogue at once, with a note that says how to wait.
@Suite(.serialized, .ownThread)
struct DeadServerTests {
  /// A loopback server that reads each request and never answers it.
  static func stalledServer() throws -> RawResponder {
    try RawResponder(response: "", connections: 32, holdOpen: .seconds(120))
  }

  /// How long `body` took.
  static func timed<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let value = try await body()
    return (value, ContinuousClock.now - start)
  }

  @Test func theSecondListAnswersLocallyAtOnceAndSaysHowToWait() async throws {
    let server = try Self.stalledServer()
    defer { server.stop() }
    let app = try Gutenberg()
    defer { app.cleanUp() }
    // A long timeout, so that "did not wait for it" is plain even when a loaded machine takes
    // seconds to start a process: the second list is measured, and must take less than one
    // timeout (on an idle machine it takes a fraction of a second).
    let arguments = ["list", "--server", server.url.absoluteString, "--timeout", "20"]

    let (first, firstTook) = try await Self.timed { try await app.run(arguments) }
    #expect(first.status == 0, "\(first)")
    #expect(firstTook >= .seconds(20), "the first list did not wait for the server")
    #expect(first.outLines.count > 10, "\(first)")

    // Less the time the machine had no CPU to give: at load 27 a process that never asks the
    // server took 144 s of wall time to start, print and end.
    let (second, secondTook) = try await StarvedDeadline.counted { try await app.run(arguments) }
    #expect(second.status == 0, "\(second)")
    #expect(second.out == first.out, "the same books, from the local catalogue")
    // Below one timeout: the second process did not wait for the server.
    #expect(secondTook < .seconds(20), "the second list took \(secondTook)")
    #expect(second.err.contains("--source server"), "\(second)")
    print("dead server: first list \(firstTook), second list \(secondTook)")

    // `--source server` waits for the server again.
    let (waiting, waitingTook) = try await Self.timed {
      try await app.run(arguments + ["--source", "server"])
    }
    #expect(waitingTook >= .seconds(20), "\(waiting)")
  }

  @Test func theSecondPageOfTheBrowserAnswersLocallyAtOnce() async throws {
    let server = try Self.stalledServer()
    defer { server.stop() }
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let browser = try app.start(["--server", server.url.absoluteString, "--timeout", "20"])
    defer { browser.kill() }
    let (firstShown, firstTook) = await Self.timed {
      await browser.waitForOutput(timeout: .seconds(90)) { $0.contains("page 1 of") }
    }
    #expect(firstShown, "\(browser.stdoutText)")
    #expect(firstTook >= .seconds(20), "the first page did not wait for the server")
    await browser.send("n")
    // Less the time the machine had no CPU to give, as for the second list above.
    let (secondShown, secondTook) = await StarvedDeadline.counted {
      await browser.waitForOutput(timeout: .seconds(60)) { $0.contains("page 2 of") }
    }
    #expect(secondShown, "\(browser.stdoutText)")
    #expect(secondTook < .seconds(20), "the second page took \(secondTook)")
    print("dead server: first page \(firstTook), second page \(secondTook)")
    await browser.send("q")
    #expect(await browser.wait(timeout: .seconds(60)).code == 0)
  }
}
