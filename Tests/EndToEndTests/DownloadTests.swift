import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// `get`, `library` and `read` with the real binary against a loopback server that serves the
/// API and Project Gutenberg's files (behind redirects, as PG does). Each test runs over http
/// and over https (a TLS front before the same server, for the API and the files alike, the
/// binary trusting its test CA through `SSL_CERT_FILE`).
@Suite(.serialized, .ownThread)
struct DownloadTests {
  static let epubName = "84-frankenstein-or-the-modern-prometheus.epub"
  static let textName = "84-frankenstein-or-the-modern-prometheus.txt"

  /// A fixture server with book 84's files, the front that reaches it over a scheme, and a
  /// binary whose API server and mirror are that front.
  struct Setup {
    let server: TestServer
    let front: ServerFront
    var app: Gutenberg

    /// The `--server` value: the front's URL.
    var url: String { front.url.absoluteString }
  }

  /// Runs `body` on a fresh setup; stops the front and the server and removes the data
  /// directory afterwards, whether `body` passed or threw.
  static func with(
    _ scheme: Scheme, epubSize: Int = 300_000, _ body: (inout Setup) async throws -> Void
  ) async throws {
    let server = try await TestServer.start()
    let front: ServerFront
    do {
      try BookFiles.serve84(on: server.server, epubSize: epubSize)
      front = try await ServerFront.start(scheme, backend: server.url)
    } catch {
      await server.stop()
      throw error
    }
    var setup = Setup(server: server, front: front, app: try Gutenberg().mirrored(to: front))
    defer { setup.app.cleanUp() }
    do {
      try await body(&setup)
    } catch {
      await front.stop()
      await server.stop()
      throw error
    }
    await front.stop()
    await server.stop()
  }

  @Test(arguments: Scheme.allCases) func getPicksTheEPUBFollowsTheRedirectAndRecordsIt(
    scheme: Scheme
  ) async throws {
    try await Self.with(scheme, epubSize: 300_001) { setup in
      let (server, app) = (setup.server, setup.app)
      let run = try await app.run(["get", "84", "--server", setup.url])
      #expect(run.status == 0, "\(run)")
      let path = app.root.appendingPathComponent(Self.epubName).path
      #expect(run.outLines == [path], "\(run)")
      #expect(run.err.isEmpty, "silent on a pipe: \(run)")
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path))
          == ServedFile.generatedBytes(offset: 0, count: 300_001))
      #expect(server.server.requests.contains("/ebooks/84.epub3.images"))
      #expect(!FileManager.default.fileExists(atPath: path + ".part"))

      let library = try await app.run(["library"])
      #expect(library.status == 0, "\(library)")
      let fields = try #require(library.outLines.first).split(separator: "\t").map(String.init)
      #expect(fields.count == 7, "\(library)")
      #expect(Array(fields.prefix(4)) == ["84", "epub", "present", "300001"])
      #expect(fields[5] == path)
      #expect(fields[6] == "Frankenstein; Or, The Modern Prometheus")

      let json = try await app.run(["library", "--json"])
      let rows = try #require(
        try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
      #expect(rows.count == 1)
      #expect(rows.first?["validator"] as? String == "\"v1\"")
      #expect(rows.first?["present"] as? Bool == true)

      let show = try await app.run(["show", "84", "--server", setup.url])
      #expect(show.out.contains("Downloaded:"), "\(show)")
      #expect(show.outLines.contains(path), "a long path is never broken: \(show)")
    }
  }

  @Test(arguments: Scheme.allCases) func aFormatTheBookDoesNotHaveIsOneClearError(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { setup in
      let app = setup.app
      let run = try await app.run(
        ["get", "84", "--format", "audio/mpeg", "--server", setup.url])
      #expect(run.status == 64, "\(run)")
      #expect(run.errLines.count == 1, "\(run)")
      #expect(
        run.err.hasPrefix("error: book 84 has no audio/mpeg edition; it has: epub,"), "\(run)")
      #expect(run.err.contains("txt"), "\(run)")
      let left = try FileManager.default.contentsOfDirectory(atPath: app.root.path)
      #expect(!left.contains { $0.hasPrefix("84") }, "\(left)")
      let bad = try await app.run(["get", "84", "--format", "pdf"])
      #expect(bad.status == 64, "\(bad)")
      #expect(bad.errLines.count == 1, "\(bad)")
    }
  }

  @Test(arguments: Scheme.allCases) func anExistingFileIsKeptUnlessForced(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { setup in
      let app = setup.app
      let target = app.root.appendingPathComponent("mine.txt")
      try Data("my notes".utf8).write(to: target)
      let refused = try await app.run(
        ["get", "84", "--format", "txt", "-o", target.path, "--server", setup.url])
      #expect(refused.status == 1, "\(refused)")
      #expect(refused.err == "error: \(target.path) already exists (use --force to replace it)\n")
      #expect(try Data(contentsOf: target) == Data("my notes".utf8))
      let forced = try await app.run(
        [
          "get", "84", "--format", "txt", "-o", target.path, "--force", "--server",
          setup.url,
        ])
      #expect(forced.status == 0, "\(forced)")
      #expect(try Data(contentsOf: target) == (try BookFiles.sampleText()))
    }
  }

  @Test(arguments: Scheme.allCases) func aFileDeletedByHandIsMissingAndRemoveForgetsIt(
    scheme: Scheme
  ) async throws {
    try await Self.with(scheme) { setup in
      let app = setup.app
      let directory = app.root.appendingPathComponent("books/")
      let got = try await app.run(
        [
          "get", "84", "--format", "txt", "-o", directory.path + "/", "--server",
          setup.url,
        ])
      #expect(got.status == 0, "\(got)")
      let path = directory.appendingPathComponent(Self.textName).path
      #expect(got.outLines == [path])
      try FileManager.default.removeItem(atPath: path)
      let listed = try await app.run(["library"])
      #expect(listed.outLines.first?.split(separator: "\t")[2] == "missing", "\(listed)")
      let shown = try await app.run(["show", "84", "--source", "embedded"])
      #expect(shown.outLines.contains("\(path) (missing)"), "\(shown)")
      #expect(try await app.favoriteIDs().isEmpty, "favourites and library are independent")

      let got2 = try await app.run(
        [
          "get", "84", "--format", "txt", "-o", directory.path + "/", "--server",
          setup.url,
        ])
      #expect(got2.status == 0, "\(got2)")
      let removed = try await app.run(["library", "remove", "84"])
      #expect(removed.status == 0, "\(removed)")
      #expect(!FileManager.default.fileExists(atPath: path))
      #expect(try await app.run(["library"]).out.isEmpty)
      let again = try await app.run(["library", "remove", "84"])
      #expect(again.status == 1, "\(again)")
      #expect(again.err == "error: 84 is not in the library\n")
    }
  }

  @Test(arguments: Scheme.allCases) func readInAPipePrintsTheTextWithoutHeaderAndLicence(
    scheme: Scheme
  ) async throws {
    try await Self.with(scheme) { setup in
      var app = setup.app
      let run = try await app.run(["read", "84", "--server", setup.url])
      #expect(run.status == 0, "\(run)")
      #expect(run.outLines.first == "Frankenstein;", "\(run)")
      #expect(run.out.contains("You will rejoice to hear that no disaster has accompanied the"))
      #expect(!run.out.contains("START OF THE PROJECT GUTENBERG"))
      #expect(!run.out.contains("FULL PROJECT GUTENBERG LICENSE"))
      #expect(!run.out.contains("\u{1B}"), "escapes from the text are removed")
      #expect(!run.out.contains("\r"))
      #expect(run.out.contains("an escape red that must not colour"))
      let raw = try await app.run(["read", "84", "--raw", "--offline"])
      #expect(raw.status == 0, "the text is local now: \(raw)")
      #expect(
        raw.outLines.first
          == "The Project Gutenberg eBook of Frankenstein; Or, The Modern Prometheus"
      )
      #expect(raw.out.contains("FULL PROJECT GUTENBERG LICENSE"))
      // The details of a book in the library say how long its text is, the licence left out,
      // at the reading speed given.
      app.extraEnvironment["GUTENBERG_WPM"] = "100"
      let shown = try await app.run(["show", "84", "--offline"])
      #expect(shown.status == 0, "\(shown)")
      let length = try #require(shown.outLines.first { $0.hasPrefix("Length:") }, "\(shown)")
      let body = run.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
      let words = try #require(Int(length.split(separator: " ")[1].replacing(",", with: "")))
      #expect(abs(words - body) <= body / 20, "\(length) against \(body) words printed")
      #expect(length.hasSuffix("min at 100 words a minute"), "\(length)")
    }
  }

  @Test(arguments: Scheme.allCases) func thePagerKeepsTheReadingPosition(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { setup in
      setup.app.extraEnvironment["LINES"] = "12"
      let app = setup.app
      let first = try await app.run(
        ["read", "84", "--pager", "--server", setup.url],
        input: "n\nn\ng 50%\n/Genevese\nq\n")
      #expect(first.status == 0, "\(first)")
      let statuses = first.outLines.filter {
        $0.hasPrefix("Frankenstein; Or, The Modern Prometheus · line")
      }
      #expect(statuses.count == 5, "\(first)")
      #expect(first.out.contains("I am by birth a »Genevese«"), "the match is marked: \(first)")
      let last = try #require(statuses.last)
      let second = try await app.run(["read", "84", "--pager", "--offline"], input: "q\n")
      let resumed = second.outLines.filter {
        $0.hasPrefix("Frankenstein; Or, The Modern Prometheus · line")
      }
      #expect(resumed == [last], "\(second)")
    }
  }

  @Test(arguments: Scheme.allCases) func dNDownloadsARowOfTheList(scheme: Scheme) async throws {
    try await Self.with(scheme) { setup in
      let app = setup.app
      let run = try await app.run(
        ["--server", setup.url], input: "/ frankenstein\nd 1\nd 7\nq\n")
      #expect(run.status == 0, "\(run)")
      // Into the library's own directory, where the browser's `read` saves too.
      let epub = app.dataDirectory.appendingPathComponent("books/\(Self.epubName)")
      #expect(run.err.contains("Downloaded: \(epub.path)"), "\(run)")
      #expect(run.out.contains("there is no row 7 (rows are 1–1)"), "\(run)")
      #expect(FileManager.default.fileExists(atPath: epub.path))
      #expect(
        !FileManager.default.fileExists(atPath: app.root.appendingPathComponent(Self.epubName).path)
      )

      // Again: the library has it, so nothing is fetched and nothing says --force.
      let requests = setup.server.server.requests.count
      let again = try await app.run(["--server", setup.url], input: "/ frankenstein\nd 1\nq\n")
      #expect(again.status == 0, "\(again)")
      #expect(again.err.contains("Already in the library: \(epub.path)"), "\(again)")
      #expect(!again.err.contains("--force"), "\(again)")
      #expect(
        !setup.server.server.requests.dropFirst(requests).contains { $0.hasPrefix("/ebooks/84") },
        "\(setup.server.server.requests)")
    }
  }

  @Test(arguments: Scheme.allCases) func fromASearchToChapterOneInTheBrowser(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { setup in
      setup.app.extraEnvironment["LINES"] = "30"
      let app = setup.app
      let run = try await app.run(
        ["--server", setup.url],
        input: "/ frankenstein\n1\nd\nread\n/Chapter 1\nn\nq\nq\n")
      #expect(run.status == 0, "\(run)")
      #expect(
        run.out.contains("I am by birth a Genevese, and my family is one of the most"), "\(run)")
      #expect(run.unwrapped.contains("Downloaded:"), "\(run)")
      let epub = app.dataDirectory.appendingPathComponent("books/\(Self.epubName)")
      #expect(FileManager.default.fileExists(atPath: epub.path), "\(run)")
    }
  }
}
