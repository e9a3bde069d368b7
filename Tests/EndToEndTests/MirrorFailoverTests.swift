import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Several `--mirror`s stand in for each other (issue 28 item 5): a file the first cannot serve
/// is fetched from the next, with one note per switch; a part one mirror left is resumed at the
/// next only when its copy has the same validator and size; when every mirror fails, one error
/// line names them all.
@Suite(.serialized, .ownThread)
struct MirrorFailoverTests {
  static let epubSize = 200_000

  /// `server`'s URL without the trailing slash, as the notes print a mirror.
  static func base(_ server: TestServer) -> String {
    let text = server.url.absoluteString
    return text.hasSuffix("/") ? String(text.dropLast()) : text
  }

  @Test func aMirrorWithoutTheFileHandsOverToTheNext() async throws {
    let api = try await TestServer.start()
    let empty = try await TestServer.start()
    let full = try await TestServer.start()
    try BookFiles.serve84(on: full.server, epubSize: Self.epubSize)
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let output = app.root.appendingPathComponent("84.epub")

    let run = try await app.run([
      "get", "84", "--format", "epub", "-o", output.path, "--server", api.url.absoluteString,
      "--mirror", Self.base(empty), "--mirror", Self.base(full),
    ])
    await api.stop()
    await empty.stop()
    await full.stop()

    #expect(run.status == 0, "\(run)")
    let notes = run.errLines.filter { $0.hasPrefix("note: ") }
    #expect(
      notes == [
        "note: \(Self.base(empty)) could not serve 84.epub (HTTP 404); trying \(Self.base(full))"
      ], "\(run)")
    #expect(
      try Data(contentsOf: output)
        == ServedFile.generatedBytes(offset: 0, count: Self.epubSize))
  }

  /// The first mirror sends half the file, then nothing; the second continues the part when
  /// its copy has the same ETag, and starts over (sending the whole file) when it has another.
  @Test(arguments: [true, false])
  func aStalledMirrorHandsOverAndThePartFollowsTheValidator(sameValidator: Bool) async throws {
    let api = try await TestServer.start()
    let stalling = try await TestServer.start()
    let next = try await TestServer.start()
    try BookFiles.serve84(on: stalling.server, epubSize: Self.epubSize)
    stalling.server.faults = FaultPlan(stallMidBody: true)
    let copy = ServedFile(
      content: .generated(size: Self.epubSize), contentType: "application/epub+zip",
      etag: sameValidator ? "\"v1\"" : "\"v2\"")
    try BookFiles.serve84(on: next.server, epub: copy)
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let output = app.root.appendingPathComponent("84.epub")

    let run = try await app.run([
      "get", "84", "--timeout", "2", "--format", "epub", "-o", output.path, "--server",
      api.url.absoluteString, "--mirror", Self.base(stalling), "--mirror", Self.base(next),
    ])
    let sentByNext = next.server.bodyBytesSent
    await api.stop()
    await stalling.stop()
    await next.stop()

    #expect(run.status == 0, "\(run)")
    let notes = run.errLines.filter { $0.hasPrefix("note: ") }
    #expect(
      notes == [
        "note: \(Self.base(stalling)) could not serve 84.epub (nothing received for 2 s); "
          + "trying \(Self.base(next))"
      ], "\(run)")
    #expect(
      try Data(contentsOf: output)
        == ServedFile.generatedBytes(offset: 0, count: Self.epubSize))
    if sameValidator {
      #expect(sentByNext <= Self.epubSize / 2, "resumed: \(run)")
    } else {
      #expect(sentByNext == Self.epubSize, "started over: \(run)")
    }
  }

  @Test func everyMirrorFailingIsOneErrorNamingThem() async throws {
    let api = try await TestServer.start()
    let first = try await TestServer.start()
    let second = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let output = app.root.appendingPathComponent("84.epub")

    let run = try await app.run([
      "get", "84", "--format", "epub", "-o", output.path, "--server", api.url.absoluteString,
      "--mirror", Self.base(first), "--mirror", Self.base(second),
    ])
    await api.stop()
    await first.stop()
    await second.stop()

    #expect(run.status == 69, "\(run)")
    let errors = run.errLines.filter { $0.hasPrefix("error: ") }
    #expect(
      errors == [
        "error: no mirror could serve book 84: \(Self.base(first)) (HTTP 404), "
          + "\(Self.base(second)) (HTTP 404)"
      ], "\(run)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  /// Both mirrors stall: the part is kept, and the line that resumes it repeats every mirror.
  @Test func theResumeLineRepeatsEveryMirror() async throws {
    let api = try await TestServer.start()
    let first = try await TestServer.start()
    let second = try await TestServer.start()
    for mirror in [first, second] {
      try BookFiles.serve84(on: mirror.server, epubSize: Self.epubSize)
      mirror.server.faults = FaultPlan(stallMidBody: true)
    }
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let output = app.root.appendingPathComponent("84.epub")

    let run = try await app.run([
      "get", "84", "--timeout", "2", "--format", "epub", "-o", output.path, "--server",
      api.url.absoluteString, "--mirror", Self.base(first), "--mirror", Self.base(second),
    ])
    await api.stop()
    await first.stop()
    await second.stop()

    #expect(run.status == 69, "\(run)")
    let errors = run.errLines.filter { $0.hasPrefix("error: ") }
    #expect(errors.count == 1, "\(run)")
    let error = try #require(errors.first)
    #expect(
      error.hasPrefix("error: no mirror could serve book 84: \(Self.base(first)) ("), "\(error)")
    #expect(
      error.contains("--mirror \(Self.base(first)) --mirror \(Self.base(second))` to resume"),
      "\(error)")
    #expect(FileManager.default.fileExists(atPath: output.path + ".part"))
  }

  /// The second mirror has another version (ETag) and stalls too: its part starts over, and
  /// the first mirror's part is kept beside it (`.part.prev`) until a download completes.
  @Test func anotherVersionsPartIsKeptUntilTheNewOneCompletes() async throws {
    let api = try await TestServer.start()
    let first = try await TestServer.start()
    let second = try await TestServer.start()
    try BookFiles.serve84(on: first.server, epubSize: Self.epubSize)
    let other = ServedFile(
      content: .generated(size: Self.epubSize), contentType: "application/epub+zip",
      etag: "\"v2\"")
    try BookFiles.serve84(on: second.server, epub: other)
    first.server.faults = FaultPlan(stallMidBody: true)
    second.server.faults = FaultPlan(stallMidBody: true)
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let output = app.root.appendingPathComponent("84.epub")
    let common = [
      "get", "84", "--timeout", "2", "--format", "epub", "-o", output.path, "--server",
      api.url.absoluteString,
    ]

    let failed = try await app.run(
      common + ["--mirror", Self.base(first), "--mirror", Self.base(second)])
    #expect(failed.status == 69, "\(failed)")
    let kept = try Data(contentsOf: URL(fileURLWithPath: output.path + ".part.prev"))
    #expect(!kept.isEmpty, "\(failed)")
    #expect(kept == ServedFile.generatedBytes(offset: 0, count: kept.count))
    #expect(FileManager.default.fileExists(atPath: output.path + ".part"), "\(failed)")

    second.server.faults = .none
    let done = try await app.run(common + ["--mirror", Self.base(second)])
    await api.stop()
    await first.stop()
    await second.stop()
    #expect(done.status == 0, "\(done)")
    #expect(
      try Data(contentsOf: output)
        == ServedFile.generatedBytes(offset: 0, count: Self.epubSize))
    #expect(!FileManager.default.fileExists(atPath: output.path + ".part.prev"), "\(done)")
  }

  @Test func theMirrorsListInTheEnvironmentStandInForEachOther() async throws {
    let api = try await TestServer.start()
    let empty = try await TestServer.start()
    let full = try await TestServer.start()
    try BookFiles.serve84(on: full.server, epubSize: Self.epubSize)
    var app = try Gutenberg()
    defer { app.cleanUp() }
    app.extraEnvironment["GUTENBERG_MIRRORS"] = "\(Self.base(empty)), \(Self.base(full))"
    let output = app.root.appendingPathComponent("84.epub")

    let run = try await app.run([
      "get", "84", "--format", "epub", "-o", output.path, "--server", api.url.absoluteString,
    ])
    await api.stop()
    await empty.stop()
    await full.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.err.contains("trying \(Self.base(full))"), "\(run)")
    #expect(
      try Data(contentsOf: output)
        == ServedFile.generatedBytes(offset: 0, count: Self.epubSize))
  }

  @Test func getHelpDocumentsSeveralMirrors() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let help = try await app.run(["get", "--help"])
    #expect(help.status == 0, "\(help)")
    let text = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("GUTENBERG_MIRRORS"), "\(help)")
    #expect(text.contains("is tried at the next"), "\(help)")
    #expect(text.contains("repeatable"), "\(help)")
  }

  /// A mirror that stalled is remembered across processes: the next `get`, of another book,
  /// tries it last (one note says so) and sends it nothing while the next mirror serves; a
  /// mirror that then serves a file is forgotten.
  @Test func aStalledMirrorIsTriedLastByTheNextCommand() async throws {
    let api = try await TestServer.start()
    let stalling = try await TestServer.start()
    let next = try await TestServer.start()
    try BookFiles.serve84(on: stalling.server, epubSize: Self.epubSize)
    stalling.server.faults = FaultPlan(stallAfterHeaders: true)
    try BookFiles.serve84(on: next.server, epubSize: Self.epubSize)
    try BookFiles.serveText(id: 84, on: next.server)
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let mirrors = ["--mirror", Self.base(stalling), "--mirror", Self.base(next)]
    let common = ["--timeout", "2", "--server", api.url.absoluteString] + mirrors

    let first = try await app.run(
      ["get", "84", "--format", "epub", "-o", app.root.path + "/"] + common)
    #expect(first.status == 0, "\(first)")
    #expect(
      first.err.contains("note: \(Self.base(stalling)) could not serve"), "\(first)")
    let asked = stalling.server.requestCount
    let memory = app.dataDirectory.appendingPathComponent("mirrors-down")
    #expect(FileManager.default.fileExists(atPath: memory.path), "\(first)")

    let second = try await app.run(
      ["get", "84", "--format", "txt", "-o", app.root.path + "/"] + common)
    #expect(second.status == 0, "\(second)")
    #expect(
      second.errLines.filter { $0.hasPrefix("note: ") } == [
        "note: \(Self.base(stalling)) failed a few minutes ago (nothing received for 2 s); "
          + "it is tried last"
      ], "\(second)")
    #expect(stalling.server.requestCount == asked, "the stalled mirror was asked again")
    await api.stop()
    await stalling.stop()
    await next.stop()
  }
}
