import Foundation
import GutendexServer
import TestSupport
import TestTraits
import Testing

@testable import Gutendex

/// Answers 404 to anything that is not a served file.
struct NotFoundHandler: Requestable {
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    HTTPResponse(status: 404, headers: [:], body: Data("no\n".utf8), url: request.url)
  }
}

/// A loopback file server and a scratch directory for one download test.
struct DownloadBench {
  let server: LoopbackServer
  let url: URL
  let directory: URL

  static func start() async throws -> DownloadBench {
    let server = LoopbackServer(handler: NotFoundHandler())
    let url = try await server.start()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("downloader-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return DownloadBench(server: server, url: url, directory: directory)
  }

  func stop() async {
    await server.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  func fileURL(_ path: String) -> URL {
    url.appendingPathComponent(path)
  }

  func destination(_ name: String = "book.epub") -> URL {
    directory.appendingPathComponent(name)
  }

  /// The names left in the scratch directory.
  func listing() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }
}

/// A downloader that does not retry (unless asked) and notices stalls quickly.
func quickDownloader(attempts: Int = 1, stall: Duration = .seconds(20)) -> Downloader {
  Downloader(
    retry: RetryPolicy(maxAttempts: attempts, baseDelay: .milliseconds(10)), stallTimeout: stall)
}

/// What `body` threw as a ``DownloadError`` (nil, recorded as an issue, when it did not).
func downloadError(_ body: () async throws(DownloadError) -> DownloadResult) async -> DownloadError?
{
  do {
    _ = try await body()
    Issue.record("expected a DownloadError, but the download succeeded")
    return nil
  } catch {
    return error
  }
}

@Suite(.serialized, .ownThread)
struct DownloaderTests {
  @Test func downloadsAGeneratedFileWhole() async throws {
    let bench = try await DownloadBench.start()
    let size = 3 * 1_048_576 + 17
    bench.server.serve(ServedFile(content: .generated(size: size)), at: "/files/a.epub")
    let result = try await quickDownloader().download(
      from: bench.fileURL("files/a.epub"), to: bench.destination())
    let data = try Data(contentsOf: bench.destination())
    #expect(data == ServedFile.generatedBytes(offset: 0, count: size))
    #expect(result.size == Int64(size))
    #expect(result.validator == "\"v1\"")
    #expect(result.resumedFrom == 0)
    #expect(try bench.listing() == ["book.epub"])
    await bench.stop()
  }

  @Test func downloadsAnEmptyFile() async throws {
    let bench = try await DownloadBench.start()
    bench.server.serve(ServedFile(content: .bytes(Data())), at: "/empty.txt")
    let result = try await quickDownloader().download(
      from: bench.fileURL("empty.txt"), to: bench.destination("e.txt"))
    #expect(result.size == 0)
    #expect(try Data(contentsOf: bench.destination("e.txt")).isEmpty)
    #expect(try bench.listing() == ["e.txt"])
    await bench.stop()
  }

  @Test func resumesAfterACutWithRange() async throws {
    let bench = try await DownloadBench.start()
    let size = 1_000_000
    bench.server.serve(ServedFile(content: .generated(size: size)), at: "/f.txt")
    bench.server.faults = FaultPlan(truncateBody: true)
    let error = await downloadError { () async throws(DownloadError) in
      try await quickDownloader().download(from: bench.fileURL("f.txt"), to: bench.destination())
    }
    guard case .failedAfterRetries(let server, let kept, let resumable) = error else {
      Issue.record("expected a lost connection, got \(String(describing: error))")
      await bench.stop()
      return
    }
    #expect(server.isTransient)
    #expect(kept == Int64(size / 2))
    #expect(resumable)
    #expect(try bench.listing() == ["book.epub.part", "book.epub.part.info"])
    let part = try Data(contentsOf: bench.directory.appendingPathComponent("book.epub.part"))
    #expect(part == ServedFile.generatedBytes(offset: 0, count: size / 2))
    bench.server.faults = .none
    let result = try await quickDownloader().download(
      from: bench.fileURL("f.txt"), to: bench.destination())
    #expect(result.resumedFrom == Int64(size / 2))
    #expect(result.restart == nil)
    #expect(bench.server.fileRangeHeaders.last == "bytes=\(size / 2)-")
    #expect(
      try Data(contentsOf: bench.destination()) == ServedFile.generatedBytes(offset: 0, count: size)
    )
    #expect(try bench.listing() == ["book.epub"])
    await bench.stop()
  }

  @Test func retriesResumeWithinOneDownload() async throws {
    let bench = try await DownloadBench.start()
    let size = 400_000
    bench.server.serve(ServedFile(content: .generated(size: size)), at: "/f.txt")
    // The first two attempts fail, then the server heals itself for the third (switching the
    // faults off from here would race the client's 10 ms back-off).
    bench.server.faults = FaultPlan(resetMidBody: true, remainingRequests: 2)
    let result = try await quickDownloader(attempts: 3).download(
      from: bench.fileURL("f.txt"), to: bench.destination())
    #expect(bench.server.fileRangeHeaders.count == 3)
    #expect(result.size == Int64(size))
    #expect(
      bench.server.fileRangeHeaders.dropFirst().allSatisfy { $0?.hasPrefix("bytes=") == true })
    #expect(
      try Data(contentsOf: bench.destination()) == ServedFile.generatedBytes(offset: 0, count: size)
    )
    await bench.stop()
  }

  @Test func startsOverWhenRangeIsNoLongerSupported() async throws {
    let bench = try await DownloadBench.start()
    let size = 200_000
    bench.server.serve(ServedFile(content: .generated(size: size)), at: "/f.txt")
    bench.server.faults = FaultPlan(truncateBody: true)
    _ = await downloadError { () async throws(DownloadError) in
      try await quickDownloader().download(from: bench.fileURL("f.txt"), to: bench.destination())
    }
    bench.server.faults = .none
    bench.server.serve(
      ServedFile(content: .generated(size: size), supportsRanges: false), at: "/f.txt")
    let result = try await quickDownloader().download(
      from: bench.fileURL("f.txt"), to: bench.destination())
    #expect(result.restart == .rangeNotSupported)
    #expect(result.resumedFrom == 0)
    #expect(
      try Data(contentsOf: bench.destination()) == ServedFile.generatedBytes(offset: 0, count: size)
    )
    await bench.stop()
  }

  @Test func startsOverWhenTheValidatorChanged() async throws {
    let bench = try await DownloadBench.start()
    bench.server.serve(ServedFile(content: .generated(size: 200_000)), at: "/f.txt")
    bench.server.faults = FaultPlan(truncateBody: true)
    _ = await downloadError { () async throws(DownloadError) in
      try await quickDownloader().download(from: bench.fileURL("f.txt"), to: bench.destination())
    }
    bench.server.faults = .none
    let changed = Data(repeating: 7, count: 150_000)
    bench.server.serve(ServedFile(content: .bytes(changed), etag: "\"v2\""), at: "/f.txt")
    let result = try await quickDownloader().download(
      from: bench.fileURL("f.txt"), to: bench.destination())
    #expect(result.restart == .validatorChanged)
    #expect(result.validator == "\"v2\"")
    #expect(try Data(contentsOf: bench.destination()) == changed)
    await bench.stop()
  }

  @Test func followsARedirectChainAndRefusesALongOne() async throws {
    let bench = try await DownloadBench.start()
    bench.server.serve(ServedFile(content: .bytes(Data("book".utf8))), at: "/cache/84.txt")
    bench.server.redirect("/ebooks/84.txt", to: "/mirror/84.txt", status: 301)
    bench.server.redirect("/mirror/84.txt", to: bench.fileURL("cache/84.txt").absoluteString)
    let result = try await quickDownloader().download(
      from: bench.fileURL("ebooks/84.txt"), to: bench.destination())
    #expect(result.finalURL.path == "/cache/84.txt")
    #expect(try Data(contentsOf: bench.destination()) == Data("book".utf8))
    for hop in 0..<7 { bench.server.redirect("/loop/\(hop)", to: "/loop/\(hop + 1)") }
    let error = await downloadError { () async throws(DownloadError) in
      try await quickDownloader().download(
        from: bench.fileURL("loop/0"), to: bench.destination("loop"))
    }
    #expect(error == .tooManyRedirects(url: bench.fileURL("loop/0")))
    #expect(!(try bench.listing().contains { $0.hasPrefix("loop") }))
    await bench.stop()
  }

  @Test func refusesAForeignHttpRedirect() async throws {
    let bench = try await DownloadBench.start()
    bench.server.faults = FaultPlan(redirectToForeignHost: true)
    let error = await downloadError { () async throws(DownloadError) in
      try await quickDownloader().download(from: bench.fileURL("x.txt"), to: bench.destination())
    }
    guard case .redirectRefused(_, let to, _) = error else {
      Issue.record("expected a refused redirect, got \(String(describing: error))")
      await bench.stop()
      return
    }
    #expect(to == FaultPlan.foreignRedirectTarget)
    #expect(try bench.listing().isEmpty)
    await bench.stop()
  }

  @Test func redirectRules() throws {
    let https = try #require(URL(string: "https://www.gutenberg.org/ebooks/84.epub3.images"))
    #expect(
      try Downloader.redirectTarget(from: https, location: "/cache/epub/84/pg84-images-3.epub")
        == URL(string: "https://www.gutenberg.org/cache/epub/84/pg84-images-3.epub"))
    #expect(
      try Downloader.redirectTarget(from: https, location: "https://mirror.example/84.epub").host
        == "mirror.example")
    #expect(throws: DownloadError.self) {
      try Downloader.redirectTarget(from: https, location: "http://www.gutenberg.org/84.epub")
    }
    #expect(throws: DownloadError.self) {
      try Downloader.redirectTarget(from: https, location: "ftp://www.gutenberg.org/84.epub")
    }
    #expect(throws: DownloadError.self) {
      try Downloader.redirectTarget(from: https, location: nil)
    }
    let loopback = try #require(URL(string: "http://127.0.0.1:8080/a"))
    #expect(try Downloader.redirectTarget(from: loopback, location: "/b").path == "/b")
  }

  @Test func retriesAServerErrorThenSucceeds() async throws {
    let bench = try await DownloadBench.start()
    bench.server.serve(ServedFile(content: .bytes(Data("ok".utf8))), at: "/f.txt")
    bench.server.faults = FaultPlan(statusScript: [
      ScriptedResponse(status: 503), ScriptedResponse(status: 429),
    ])
    let result = try await quickDownloader(attempts: 3).download(
      from: bench.fileURL("f.txt"), to: bench.destination())
    #expect(result.size == 2)
    #expect(bench.server.requestCount == 3)
    await bench.stop()
  }

  @Test func aMissingFileIsAnHTTPErrorAndLeavesNothing() async throws {
    let bench = try await DownloadBench.start()
    let error = await downloadError { () async throws(DownloadError) in
      try await quickDownloader(attempts: 3).download(
        from: bench.fileURL("nope.txt"), to: bench.destination())
    }
    guard case .server(.http(let status, _, _)) = error else {
      Issue.record("expected HTTP 404, got \(String(describing: error))")
      await bench.stop()
      return
    }
    #expect(status == 404)
    #expect(bench.server.requestCount == 1)
    #expect(try bench.listing().isEmpty)
    await bench.stop()
  }

  @Test func aStallKeepsTheBytesReceived() async throws {
    let bench = try await DownloadBench.start()
    bench.server.serve(ServedFile(content: .generated(size: 100_000)), at: "/f.txt")
    bench.server.faults = FaultPlan(stallMidBody: true)
    let error = await downloadError { () async throws(DownloadError) in
      try await quickDownloader(stall: .milliseconds(500)).download(
        from: bench.fileURL("f.txt"), to: bench.destination())
    }
    guard case .stalled(_, _, let kept, let resumable) = error else {
      Issue.record("expected a stall, got \(String(describing: error))")
      await bench.stop()
      return
    }
    #expect(kept == 50_000)
    #expect(resumable)
    await bench.stop()
  }

  @Test func aStallWithoutRangeSupportLeavesNothing() async throws {
    let bench = try await DownloadBench.start()
    bench.server.serve(
      ServedFile(content: .generated(size: 100_000), supportsRanges: false), at: "/f.txt")
    bench.server.faults = FaultPlan(stallMidBody: true)
    let error = await downloadError { () async throws(DownloadError) in
      try await quickDownloader(stall: .milliseconds(500)).download(
        from: bench.fileURL("f.txt"), to: bench.destination())
    }
    #expect(error?.resumable == false)
    #expect(try bench.listing().isEmpty)
    await bench.stop()
  }

  @Test func cancellingKeepsAResumablePart() async throws {
    let bench = try await DownloadBench.start()
    bench.server.serve(ServedFile(content: .generated(size: 100_000)), at: "/f.txt")
    bench.server.faults = FaultPlan(stallMidBody: true)
    // The body stalls on purpose: the stall limit is far beyond the wait for the part file, so
    // the cancel is what ends the download even when the test waits its turn for 20 s.
    let task = Task {
      try await quickDownloader(stall: .seconds(600)).download(
        from: bench.fileURL("f.txt"), to: bench.destination())
    }
    try await waitFor("the part file to hold the first 50,000 bytes") {
      (try? FileManager.default.attributesOfItem(
        atPath: bench.destination().path + ".part")[.size] as? Int) == 50_000
    }
    task.cancel()
    let result = await task.result
    guard case .failure(DownloadError.interrupted(let kept, let resumable)) = result else {
      Issue.record("expected an interruption, got \(result)")
      await bench.stop()
      return
    }
    #expect(kept == 50_000)
    #expect(resumable)
    await bench.stop()
  }

  @Test(arguments: [OversizedBody.Framing.chunked, .closeDelimited, .contentLength])
  func everyBodyFramingIsRead(framing: OversizedBody.Framing) async throws {
    let bench = try await DownloadBench.start()
    bench.server.faults = FaultPlan(oversizedBody: OversizedBody(bytes: 700_001, framing: framing))
    let result = try await quickDownloader().download(
      from: bench.fileURL("any"), to: bench.destination())
    let data = try Data(contentsOf: bench.destination())
    #expect(result.size == 700_001)
    #expect(data.count == 700_001)
    #expect(data.suffix(2) == Data("{}".utf8))
    #expect(data.prefix(10) == Data(repeating: UInt8(ascii: " "), count: 10))
    await bench.stop()
  }

  @Test func aServerThatIsNotThereIsUnreachable() async throws {
    let bench = try await DownloadBench.start()
    let url = bench.url
    await bench.server.stop()
    let error = await downloadError { () async throws(DownloadError) in
      try await quickDownloader(attempts: 2).download(
        from: url.appendingPathComponent("f.txt"), to: bench.destination())
    }
    guard case .server(.unreachable) = error else {
      Issue.record("expected unreachable, got \(String(describing: error))")
      return
    }
    #expect(try bench.listing().isEmpty)
    try? FileManager.default.removeItem(at: bench.directory)
  }

  @Test func neverOverwritesWithoutReplace() async throws {
    let bench = try await DownloadBench.start()
    bench.server.serve(ServedFile(content: .bytes(Data("new".utf8))), at: "/f.txt")
    try Data("old".utf8).write(to: bench.destination())
    let error = await downloadError { () async throws(DownloadError) in
      try await quickDownloader().download(from: bench.fileURL("f.txt"), to: bench.destination())
    }
    #expect(error == .exists(path: bench.destination().path))
    #expect(try Data(contentsOf: bench.destination()) == Data("old".utf8))
    _ = try await quickDownloader().download(
      from: bench.fileURL("f.txt"), to: bench.destination(), replace: true)
    #expect(try Data(contentsOf: bench.destination()) == Data("new".utf8))
    await bench.stop()
  }
}

/// Polls `condition` until it holds; throws an `AwaitTimeout` naming `what` if it does not by
/// `Awaiting.standard`, so a broken test ends.
func waitFor(
  _ what: String, file: String = #fileID, line: Int = #line,
  _ condition: @Sendable () -> Bool
) async throws {
  try await Awaiting.condition(what, file: file, line: line, condition)
}
