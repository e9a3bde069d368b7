import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Rows of the fault matrix about a slow or failing server: each checks what the user sees, the
/// exit code or that the prompt still answers, and that favourites and cache survived.
@Suite(.serialized, .ownThread)
struct ServerFaultTests {
  static let embeddedBanner = "offline — embedded catalogue of 2025-08"
  static let cachedBanner = "offline — showing cached page from"

  // MARK: - Latency and timeouts

  @Test func latencyBeyondTheTimeoutFallsBackAndThePromptStaysUsable() async throws {
    try await Scenario.with { row in
      // Held until the test is done, not answered after a while: a late answer could beat
      // the timeout of a program that a loaded machine has starved meanwhile.
      row.inject(FaultPlan(holdUntilReleased: true))

      let list = try await row.run(["list", "--timeout", "0.3"])
      let browse = try await row.run(["--timeout", "0.3"], input: "F\nq\n")

      #expect(list.status == 0, "\(list)")
      #expect(
        list.errLines == [
          "note: \(Self.embeddedBanner) (\(row.hostPort) did not answer within 300 ms "
            + "(\(row.url)/books/))"
        ], "\(list)")
      #expect(list.tsvIDs.count == 32)
      #expect(browse.status == 0, "\(browse)")
      #expect(browse.out.contains(Self.embeddedBanner), "\(browse)")
      #expect(browse.out.contains("Favourites · 2 books"), "\(browse)")
      row.inject(.none)
      row.server.server.releaseHeld()
      try await row.expectStoresIntact()
    }
  }

  /// Page 1 is fetched with no latency first (the seeding caches it); with the latency, the
  /// start and a refresh both show the cached copy, and the prompt keeps answering.
  @Test func latencyWithACachedPageShowsTheCachedPageOnRefresh() async throws {
    try await Scenario.with(cacheFirstPage: true) { row in
      // --timeout is a whole-request deadline, connecting included, so a short one can fire
      // on a loaded machine before the request is even sent, and the server never counts it:
      // 1.5 s did not suffice (a run at load 45 waited 120 s for the server to log the second
      // request). 10 s outlasts any scheduling delay before the request goes out. The requests
      // are held until the test is done: no answer can beat the timeout, however starved the
      // program.
      row.inject(FaultPlan(holdUntilReleased: true))
      let child = try row.app.start(["--server", row.url, "--timeout", "10"])
      #expect(await child.waitForOutput { $0.contains(Self.cachedBanner) }, "\(child.stdoutText)")
      await child.send("r")
      #expect(
        await child.waitForOutput { $0.occurrences(of: Self.cachedBanner) == 2 },
        "\(child.stdoutText)")
      await child.send("F")
      #expect(await child.waitForOutput { $0.contains("Favourites · 2 books") })
      await child.send("q")
      let exit = await child.wait(timeout: .seconds(60))

      #expect(exit.code == 0 && !exit.timedOut, "\(exit)")
      #expect(
        child.stdoutText.hasPrefix("all books · page 1 of 11 · 343 books\n\(Self.cachedBanner)"))
      #expect(!child.stdoutText.contains("error: "), "\(child.stdoutText)")
      // The server reads a request that is already in its socket a little later when busy.
      try await Awaiting.condition("the server to log the second request for /books/") {
        row.requests.filter { $0 == "/books/" }.count >= 2
      }
      #expect(row.requests.filter { $0 == "/books/" }.count == 2, "\(row.requests)")
      row.inject(.none)
      row.server.server.releaseHeld()
      try await row.expectStoresIntact()
    }
  }

  @Test func stalledBodyTimesOutWithoutHanging() async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(stallAfterHeaders: true))

      let list = try await row.run(["list", "--timeout", "0.5", "--language", "fr"])
      let browse = try await row.run(["--timeout", "0.5"], input: "s\nq\n")

      #expect(list.status == 0 && !list.exit.timedOut, "\(list)")
      #expect(
        list.errLines == [
          "note: \(Self.cachedBanner) just now (\(row.hostPort) did not answer within 500 ms "
            + "(\(row.url)/books/?languages=fr))"
        ], "\(list)")
      #expect(list.tsvIDs == row.cachedIDs)
      #expect(browse.status == 0 && !browse.exit.timedOut, "\(browse)")
      #expect(browse.out.contains(Self.embeddedBanner), "\(browse)")
      #expect(browse.out.contains("Reachable:   no"), "\(browse)")
      row.inject(.none)
      try await row.expectStoresIntact()
    }
  }

  // MARK: - 5xx and 429

  @Test(arguments: [[500, 502, 503], [503, 503, 503]])
  func serverErrorsAreRetriedThreeTimesThenFallBack(statuses: [Int]) async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(statusScript: statuses.map { .serverError($0) }))

      let list = try await row.run(["list"])

      #expect(list.status == 0, "\(list)")
      #expect(row.requests == ["/books/", "/books/", "/books/"], "\(row.requests)")
      #expect(
        list.errLines == [
          "note: \(Self.embeddedBanner) (server error (HTTP \(statuses[2])) from \(row.hostPort); "
            + "try again later)"
        ], "\(list)")
      #expect(list.showsNoDecodingNoise, "\(list)")
      #expect(list.tsvIDs.count == 32)
      try await row.expectStoresIntact()
    }
  }

  @Test func serverErrorsAtThePromptFallBackToTheCachedPage() async throws {
    try await Scenario.with(cacheFirstPage: true) { row in
      row.inject(
        FaultPlan(statusScript: [.serverError(500), .serverError(502), .serverError(503)]))

      let browse = try await row.run([], input: "F\nq\n")

      #expect(browse.status == 0, "\(browse)")
      #expect(browse.out.contains(Self.cachedBanner), "\(browse)")
      #expect(browse.out.contains("Favourites · 2 books"), "\(browse)")
      #expect(browse.showsNoDecodingNoise, "\(browse)")
      #expect(row.requests.filter { $0 == "/books/" }.count == 3, "\(row.requests)")
      try await row.expectStoresIntact()
    }
  }

  @Test func oneServerErrorIsRetriedAndSucceeds() async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(statusScript: [.serverError(502)]))

      let list = try await row.run(["list"])

      #expect(list.status == 0, "\(list)")
      #expect(list.err.isEmpty, "\(list)")
      #expect(row.requests == ["/books/", "/books/"])
      #expect(list.tsvIDs == (try await row.server.engineIDs("/books/")).ids)
      try await row.expectStoresIntact()
    }
  }

  @Test func rateLimitedOnceWaitsForRetryAfterAndSucceeds() async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(statusScript: [.rateLimited(retryAfter: "2")]))

      let list = try await row.run(["list"])

      #expect(list.status == 0, "\(list)")
      #expect(list.err.isEmpty, "\(list)")
      #expect(row.requests == ["/books/", "/books/"])
      #expect(list.tsvIDs == (try await row.server.engineIDs("/books/")).ids)
      try await row.expectStoresIntact()
    }
  }

  @Test func rateLimitedBeyondTheCapIsReportedWithoutWaiting() async throws {
    try await Scenario.with { row in
      row.inject(
        FaultPlan(statusScript: Array(repeating: .rateLimited(retryAfter: "30"), count: 8)))

      let list = try await row.run(["list"])
      let listRequests = row.requests
      let browse = try await row.run([], input: "s\nq\n")

      #expect(list.status == 0, "\(list)")
      #expect(
        list.errLines == [
          "note: \(Self.embeddedBanner) (rate limited by \(row.hostPort), retry in 30 s)"
        ], "\(list)")
      // Retry-After 30 s is over the 10 s cap: no second request, no 30 s wait.
      #expect(listRequests == ["/books/"])
      #expect(browse.status == 0, "\(browse)")
      #expect(browse.out.contains(Self.embeddedBanner), "\(browse)")
      #expect(browse.out.contains("rate limited by \(row.hostPort), retry in 30 s"), "\(browse)")
      row.inject(.none)
      try await row.expectStoresIntact()
    }
  }

  // MARK: - Broken bodies

  /// A body cut short of its `Content-Length` is a broken transfer (libcurl: partial file), so
  /// the client treats it as a lost connection: retried, then the fallback. (A complete
  /// transfer of truncated JSON is bad data: the next row.)
  @Test func bodyShorterThanItsLengthIsRetriedThenFallsBack() async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(truncateBody: true))

      let list = try await row.run(["list"])

      #expect(list.status == 0, "\(list)")
      #expect(row.requests == ["/books/", "/books/", "/books/"])
      #expect(list.errLines.count == 1, "\(list)")
      #expect(
        list.err.hasPrefix("note: \(Self.embeddedBanner) (connection to \(row.hostPort) lost: "),
        "\(list)")
      #expect(list.tsvIDs.count == 32)
      row.inject(.none)
      try await row.expectStoresIntact()
    }
  }

  @Test func truncatedJSONIsBadDataWithTheURL() async throws {
    try await Scenario.with { row in
      let page = try await row.server.engineAnswer("/books/").body
      let half = ScriptedResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: page.prefix(page.count / 2))
      row.inject(FaultPlan(statusScript: [half, half]))

      let list = try await row.run(["list"])
      let browse = try await row.run([], input: "F\nq\n")

      #expect(list.status == 65, "\(list)")
      #expect(list.errLines.count == 1, "\(list)")
      #expect(list.err.hasPrefix("error: bad data from server at "), "\(list)")
      #expect(list.err.contains("(truncated body?)"), "\(list)")
      #expect(list.err.hasSuffix("(\(row.url)/books/)\n"), "\(list)")
      #expect(list.stdout.isEmpty)
      #expect(browse.status == 0, "\(browse)")
      #expect(
        browse.outLines.first?.hasPrefix("error: bad data from server at ") == true, "\(browse)")
      #expect(browse.out.contains("Favourites · 2 books"), "\(browse)")
      try await row.expectStoresIntact()
    }
  }

  @Test(arguments: [
    (FaultPlan(invalidJSON: true), "unterminated string"),
    (FaultPlan(wrongContentType: true), "expected JSON, got text/html"),
  ])
  func badBodiesAreBadDataWithTheURL(faults: FaultPlan, reason: String) async throws {
    try await Scenario.with { row in
      row.inject(faults)

      let list = try await row.run(["list", "--search", "dickens"])
      let browse = try await row.run([], input: "F\nq\n")

      #expect(list.status == 65, "\(list)")
      #expect(list.errLines.count == 1, "\(list)")
      #expect(list.err.hasPrefix("error: bad data from server at top level: "), "\(list)")
      #expect(list.err.contains(reason), "\(list)")
      #expect(list.err.hasSuffix("(\(row.url)/books/?search=dickens)\n"), "\(list)")
      // Bad data is not retried: the same bytes would come back.
      #expect(row.requests == ["/books/?search=dickens"] + row.requests.dropFirst())
      #expect(row.requests.filter { $0.contains("dickens") }.count == 1)
      #expect(browse.status == 0, "\(browse)")
      #expect(
        browse.outLines.first?.hasPrefix("error: bad data from server at ") == true, "\(browse)")
      #expect(browse.out.contains("Favourites · 2 books"), "\(browse)")
      row.inject(.none)
      try await row.expectStoresIntact()
    }
  }

  // MARK: - Broken connections

  @Test func connectionResetFallsBackToTheCacheThenTheEmbeddedCatalogue() async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(resetMidBody: true))

      let cached = try await row.run(["list", "--language", "fr"])
      let embedded = try await row.run(["list", "--language", "de"])

      #expect(cached.status == 0, "\(cached)")
      #expect(
        cached.err.hasPrefix("note: \(Self.cachedBanner) just now (connection to "), "\(cached)")
      #expect(cached.tsvIDs == row.cachedIDs)
      #expect(row.requests.filter { $0 == "/books/?languages=fr" }.count == 3, "\(row.requests)")
      #expect(embedded.status == 0, "\(embedded)")
      #expect(embedded.err.hasPrefix("note: \(Self.embeddedBanner) (connection to "), "\(embedded)")
      #expect(!embedded.tsvIDs.isEmpty)
      row.inject(.none)
      try await row.expectStoresIntact()
    }
  }

  @Test func connectionRefusedFallsBackToTheCacheThenTheEmbeddedCatalogue() async throws {
    try await Scenario.with(cacheFirstPage: true) { row in
      // Nothing listens on the port once the server is stopped.
      await row.server.stop()

      let browse = try await row.run([], input: "n\nF\nq\n")
      let list = try await row.run(["list", "--language", "fr"])

      #expect(browse.status == 0, "\(browse)")
      #expect(
        browse.out.contains("all books · page 1 of 11 · 343 books\n\(Self.cachedBanner)"),
        "\(browse)")
      // Page 2 was never cached: it comes from the embedded catalogue.
      #expect(
        browse.out.contains("page 2 of 2,397 · 76,696 books\n\(Self.embeddedBanner)"), "\(browse)")
      #expect(browse.out.contains("Favourites · 2 books"), "\(browse)")
      #expect(list.status == 0, "\(list)")
      #expect(list.err.hasPrefix("note: \(Self.cachedBanner) just now (cannot reach "), "\(list)")
      try await row.expectStoresIntact()
    }
  }

  // MARK: - Size and redirects

  @Test(arguments: OversizedBody.Framing.allCases)
  func hugeBodyIsRefusedAtTheLimitWithBoundedMemory(framing: OversizedBody.Framing) async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(oversizedBody: .megabytes(100, framing: framing)))

      // The binary's own peak, measured by `time`: this process's (the test runner's, with
      // every suite running in it) says nothing about the binary.
      let (list, listPeak) = try await row.app.runMeasuringPeak(["list", "--server", row.url])

      #expect(list.status == 65, "\(list)")
      #expect(
        list.errLines == ["error: response from \(row.hostPort) is larger than 8 MiB; refused"],
        "\(list)")
      #expect(listPeak < 200 * 1024, "peak RSS \(listPeak) KiB")

      // At the prompt: the same refusal, the prompt answers, and the peak stays bounded.
      let child = try row.app.start(["--server", row.url])
      #expect(await child.waitForOutput { $0.contains("larger than 8 MiB; refused") })
      await child.send("F")
      #expect(await child.waitForOutput { $0.contains("Favourites · 2 books") })
      let peak = try #require(child.peakRSSKiB())
      await child.send("q")
      let exit = await child.wait(timeout: .seconds(60))
      #expect(exit.code == 0, "\(exit)")
      #expect(peak < 200 * 1024, "peak RSS \(peak) KiB")
      // VmHWM of the child's own memory, read until it ended (`maxRSSKiB` would be the runner's
      // peak at the spawn).
      let last = try #require(exit.sampledPeakKiB)
      #expect(last < 200 * 1024, "peak RSS \(last) KiB")
      row.inject(.none)
      try await row.expectStoresIntact()
    }
  }

  @Test func redirectToAnotherHostIsRefused() async throws {
    try await Scenario.with { row in
      row.inject(FaultPlan(redirectToForeignHost: true))

      let list = try await row.run(["list"])
      let browse = try await row.run([], input: "F\nq\n")

      let message =
        "error: refused redirect from \(row.hostPort) to another host: "
        + FaultPlan.foreignRedirectTarget
      #expect(list.status != 0, "\(list)")
      #expect(list.errLines == [message], "\(list)")
      #expect(browse.status == 0, "\(browse)")
      #expect(browse.unwrapped.hasPrefix(message + "\n"), "\(browse)")
      #expect(browse.out.contains("Favourites · 2 books"), "\(browse)")
      row.inject(.none)
      try await row.expectStoresIntact()
    }
  }

  @Test(arguments: [301, 308])
  func sameHostRedirectIsFollowed(status: Int) async throws {
    try await Scenario.with { row in
      // Django's APPEND_SLASH answer, pointing at the slashed path with the query kept.
      row.inject(
        FaultPlan(statusScript: [
          ScriptedResponse(status: status, headers: ["Location": "/books/?languages=de"])
        ]))

      let list = try await row.run(["list", "--search", "x"])

      #expect(list.status == 0, "\(list)")
      #expect(list.err.isEmpty, "\(list)")
      #expect(row.requests == ["/books/?search=x", "/books/?languages=de"])
      #expect(list.tsvIDs == (try await row.server.engineIDs("/books/?languages=de")).ids)
      try await row.expectStoresIntact()
    }
  }

  // MARK: - Answers the server refuses

  @Test func pagePastTheEndIsRefusedWithoutARequestAtThePrompt() async throws {
    try await Scenario.with { row in

      let browse = try await row.run([], input: "g 9999\nn\nq\n")
      let list = try await row.run(["list", "--page", "9999"])

      #expect(browse.status == 0, "\(browse)")
      #expect(browse.outLines.contains("error: page 9,999 is out of range (1–11)"), "\(browse)")
      // State unchanged: the next line still goes from page 1 to page 2.
      #expect(browse.out.contains("all books · page 2 of 11"), "\(browse)")
      // `list` asks, hears the server's 404, and says what the browser says (page 1 tells the
      // range), with the browser's exit code for a page out of range.
      #expect(list.status == 64, "\(list)")
      #expect(list.errLines == ["error: page 9,999 is out of range (1–11)"], "\(list)")
      #expect(row.requests.filter { $0.contains("page=9999") } == ["/books/?page=9999"])
      try await row.expectStoresIntact()
    }
  }

  @Test func unknownBookIDIsTheServersMessage() async throws {
    try await Scenario.with { row in

      let show = try await row.run(["show", "99999999"])
      let add = try await row.run(["favorites", "add", "99999999"])

      #expect(show.status == 1, "\(show)")
      #expect(
        show.errLines == [
          "error: server says: No Book matches the given query. "
            + "(HTTP 404, \(row.url)/books/99999999/)"
        ], "\(show)")
      #expect(add.status != 0, "\(add)")
      #expect(add.err.contains("No Book matches the given query."), "\(add)")
      try await row.expectStoresIntact()
    }
  }
}
