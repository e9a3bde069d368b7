import Foundation
import GutendexEngine
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Issue 35's network probes (classes 4, 5 and 6): a feed trickled a byte at a time, a 304 to
/// a request that named no copy, a mirror answering 200 with an HTML page or binary junk, and
/// credentials in `--server`, `--feed-url` and `--mirror` URLs. Each ends by itself within its
/// bound with one line naming the cause, no secret is printed or stored, and every favourite,
/// bookmark and download is as it was.
@Suite(.serialized, .ownThread)
struct HostileNetworkTests {
  static let secret = "s3cr3t-pw"

  /// A feed server of its own (files mode); its `/rdf-files.tar.bz2` is what `serve` gives.
  static func feedServer() async throws -> (LoopbackServer, URL) {
    let server = LoopbackServer(handler: try EmbeddedCatalogue.load(), port: 0)
    let url = try await server.start().appendingPathComponent("rdf-files.tar.bz2")
    return (server, url)
  }

  /// `url` with `user:secret@` in it.
  static func withCredentials(_ url: URL) throws -> String {
    var parts = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
    parts.user = "reader"
    parts.password = secret
    return try #require(parts.string)
  }

  /// The feed faults: trickled a byte every tenth of a second, never silent for long (only a
  /// minimum speed ends it: 1,024 bytes/s over 2 s here), and a 304 to an unconditional
  /// request (it read as "unchanged" and held off refreshes for 7 days). Each is one
  /// `error: the feed:` line; the walk still runs; nothing else changes.
  @Test(arguments: ["trickle", "unasked 304"])
  func aFeedFaultIsOneLineAndChangesNothing(fault: String) async throws {
    try await Holdings.with { holdings in
      let (feed, url) = try await Self.feedServer()
      defer { Task { await feed.stop() } }
      // A real feed (book 84), so that only its pace can be at fault.
      let file = holdings.app.root.appendingPathComponent("feed.tar.bz2")
      try FeedGenerator.writeFeed(books: [try HostilePages.book(84)], to: file.path)
      feed.serve(
        ServedFile(content: .file(file), contentType: "application/x-bzip2"),
        at: "/rdf-files.tar.bz2")
      feed.faults =
        fault == "trickle"
        ? FaultPlan(bodyBytesPerSecond: 1)
        : FaultPlan(statusScript: [ScriptedResponse(status: 304)])
      var app = holdings.app
      app.extraEnvironment["GUTENBERG_MIN_SPEED"] = "1024/2"
      let (sync, took) = try await StarvedDeadline.counted {
        try await app.run(
          [
            "sync", "--feed", "--server", holdings.url.absoluteString, "--feed-url",
            url.absoluteString,
          ], timeout: .seconds(120))
      }
      #expect(sync.endedByItself && sync.status == 69, "\(fault): \(sync)")
      #expect(took < .seconds(40), "\(fault): \(took)")
      let errors = sync.errLines.filter { $0.hasPrefix("error: ") }
      #expect(errors.count == 1, "\(fault): \(sync)")
      let expected =
        fault == "trickle"
        ? "sent less than 1024 bytes/s for 2 s"
        : "HTTP 304 (not modified) from \(url.absoluteString) to a request that named no copy"
      #expect(errors.first?.contains(expected) == true, "\(fault): \(sync)")
      #expect(errors.first?.hasSuffix("the previous catalogue is kept") == true, "\(sync)")
      // Nothing recorded of the feed: the next sync tries it again (it waited 7 days).
      let state = try Data(
        contentsOf: app.dataDirectory.appendingPathComponent("catalogue/state.json"))
      let object = try JSONSerialization.jsonObject(with: state) as? [String: Any]
      #expect(
        object?["runs"] != nil && object?["feed"] == nil, "\(fault): \(String(describing: object))")
      try await holdings.expectIntact(fault)
    }
  }

  /// Mirrors answering 200 with an HTML page (by its type, or by its bytes) or with binary
  /// junk where a text is asked for: each a failed mirror (the next one serves the book), and
  /// with no other mirror, one error line and nothing saved (it was saved as the .txt, exit 0).
  @Test(arguments: ["html by type", "html by bytes", "junk"])
  func aMirrorAnsweringWithSomethingElseIsAFailedMirror(answer: String) async throws {
    try await Holdings.with { holdings in
      let hostile = LoopbackServer(handler: try EmbeddedCatalogue.load(), port: 0)
      let hostileURL = try await hostile.start()
      defer { Task { await hostile.stop() } }
      let page = Data("<!DOCTYPE html><html><body>Please log in</body></html>\n".utf8)
      let file: ServedFile =
        switch answer {
        case "html by type": ServedFile(content: .bytes(page), contentType: "text/html")
        case "html by bytes": ServedFile(content: .bytes(page), contentType: "text/plain")
        default: ServedFile(content: .generated(size: 5000), contentType: "text/plain")
        }
      try BookFiles.serveText(id: 84, on: hostile)
      hostile.serve(file, at: "/cache/epub/84/pg84.txt")
      let reason =
        switch answer {
        case "html by type": "an HTML page (Content-Type: text/html)"
        case "html by bytes": "an HTML page"
        default: "binary data (NUL bytes), not text"
        }
      let app = holdings.app
      let api = holdings.url.absoluteString
      let bad = hostileURL.absoluteString.trimmingSuffix("/")
      let good = holdings.url.absoluteString.trimmingSuffix("/")

      // Alone, over the library's own copy (--force): refused, and that copy kept as it was.
      let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      let held = app.dataDirectory.appendingPathComponent(
        try #require(names.first { $0.hasPrefix("84-") }, "\(names)"))
      let alone = try await app.run([
        "get", "84", "--format", "txt", "-o", held.path, "--force", "--server", api, "--mirror",
        bad,
      ])
      #expect(alone.endedByItself && alone.status == 65, "\(answer): \(alone)")
      #expect(alone.errLines.count == 1, "\(answer): \(alone)")
      #expect(alone.err.contains(reason), "\(answer): \(alone)")
      let left = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      #expect(!left.contains { $0.hasSuffix(".part") }, "\(answer): \(left)")
      try await holdings.expectIntact(answer)

      // With another mirror after it: that one serves the book (in a data directory of its
      // own: the library keeps one file per book and format).
      let other = try Gutenberg()
      defer { other.cleanUp() }
      let target = other.root.appendingPathComponent("84.txt")
      let both = try await other.run([
        "get", "84", "--format", "txt", "-o", target.path, "--server", api, "--mirror", bad,
        "--mirror", good,
      ])
      #expect(both.endedByItself && both.status == 0, "\(answer): \(both)")
      #expect(
        both.errLines == ["note: \(bad) could not serve 84.txt (\(reason)); trying \(good)"],
        "\(answer): \(both)")
      #expect(try Data(contentsOf: target) == (try BookFiles.sampleText()), "\(answer)")
    }
  }

  /// Every file of `directory` (recursively) that holds `text`.
  static func files(holding text: String, in directory: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    var found: [String] = []
    while let name = enumerator?.nextObject() as? String {
      let path = directory.appendingPathComponent(name).path
      guard let data = FileManager.default.contents(atPath: path) else { continue }
      if data.range(of: Data(text.utf8)) != nil { found.append(name) }
    }
    return found
  }

  /// Credentials in `--server`, `--mirror` and `--feed-url` are used (the server receives
  /// them) but never printed (errors, notes, `--verbose`, `status`, `library --json`) nor
  /// stored (state.json, the library, part sidecars); a resume command repeats the mirror
  /// without them.
  @Test func credentialsInURLsAreUsedButNeverPrintedOrStored() async throws {
    let api = try HostilePages(offering: [])
    try await Holdings.with(api: api) { holdings in
      let app = holdings.app
      let server = try Self.withCredentials(holdings.url)
      let mirror = try Self.withCredentials(holdings.url)
      let deadMirror = try Self.withCredentials(try #require(URL(string: "http://127.0.0.1:9/")))
      let (feed, feedURL) = try await Self.feedServer()
      defer { Task { await feed.stop() } }
      let target = app.root.appendingPathComponent("84.txt")
      var runs: [Gutenberg.Run] = []
      runs.append(
        try await app.run(["list", "--source", "server", "--verbose", "--server", server]))
      runs.append(try await app.run(["status", "--server", server]))
      runs.append(
        try await app.run([
          "get", "84", "--format", "txt", "-o", target.path, "--verbose", "--server", server,
          "--mirror", deadMirror, "--mirror", mirror,
        ]))
      runs.append(
        try await app.run([
          "sync", "--feed", "--verbose", "--server", server, "--feed-url",
          try Self.withCredentials(feedURL),
        ]))
      runs.append(try await app.run(["library", "--json"]))
      // A download that stalls half-way (its part kept), so its resume command is printed.
      try? FileManager.default.removeItem(at: target)
      holdings.server.faults = FaultPlan(stallMidBody: true)
      runs.append(
        try await app.run([
          "get", "84", "--format", "txt", "-o", target.path, "--server", server, "--mirror",
          mirror, "--timeout", "2",
        ]))
      holdings.server.faults = .none
      _ = holdings.server.endStalls()
      for run in runs {
        #expect(run.endedByItself, "\(run)")
        #expect(!run.out.contains(Self.secret) && !run.err.contains(Self.secret), "\(run)")
      }
      #expect(runs[0].status == 0 && runs[0].err.contains("reader:***@"), "\(runs[0])")
      #expect(runs[2].status == 0, "\(runs[2])")
      #expect(runs[2].err.contains("note: http://reader:***@127.0.0.1:9"), "\(runs[2])")
      #expect(runs[3].err.contains("error: the feed: HTTP 404 from http://reader:***@"))
      let plain = holdings.url.absoluteString
      #expect(runs[5].err.contains("--mirror \(plain)"), "\(runs[5])")
      #expect(runs[5].err.contains("--server \(plain)"), "\(runs[5])")
      #expect(runs[5].err.contains("with the mirror's login in ~/.netrc"), "\(runs[5])")
      // Sent all the same: the API's requests carried them.
      let sent = api.authorizationHeaders.compactMap { $0 }
      #expect(!sent.isEmpty, "\(api.authorizationHeaders)")
      #expect(
        sent.allSatisfy {
          $0 == "Basic " + Data("reader:\(Self.secret)".utf8).base64EncodedString()
        })
      #expect(Self.files(holding: Self.secret, in: app.root).isEmpty)
    }
  }

  /// Credentials for a URL without them come from the user's own 0600 `~/.netrc`; one that
  /// others may read is not used.
  @Test func credentialsComeFromAPrivateNetrcOnly() async throws {
    let api = try HostilePages(offering: [])
    try await Holdings.with(api: api) { holdings in
      let app = holdings.app
      let netrc = app.root.appendingPathComponent(".netrc")
      let host = try #require(holdings.url.host)
      try Data("machine \(host) login reader password \(Self.secret)\n".utf8).write(to: netrc)
      let expected = "Basic " + Data("reader:\(Self.secret)".utf8).base64EncodedString()
      for (mode, used) in [(0o644 as mode_t, false), (0o600, true)] {
        try #require(chmod(netrc.path, mode) == 0)
        let before = api.authorizationHeaders.count
        let run = try await app.run([
          "list", "--source", "server", "--server", holdings.url.absoluteString,
        ])
        #expect(run.status == 0 && !run.err.contains(Self.secret), "\(run)")
        let sent = api.authorizationHeaders.dropFirst(before)
        #expect(!sent.isEmpty)
        #expect(sent.allSatisfy { ($0 == expected) == used }, "mode \(mode): \(sent)")
      }
      try await holdings.expectIntact("netrc")
    }
  }
}

extension String {
  /// The text without `suffix` at its end.
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
