import Foundation
import TestTraits
import Testing

@testable import GutendexServer

/// The files mode: whole files, ranges, 416, If-Range, HEAD, redirects and faults on file bytes.
@Suite(.ownThread) struct FilesModeTests {
  static let content = ServedFile.generatedBytes(offset: 0, count: 1000)

  func exchange(_ url: URL, _ request: String) async throws -> RawHTTPClient.Response {
    var client = try await RawHTTPClient.connect(to: url)
    defer { client.close() }
    try await client.send(request)
    return try await client.readResponse(bodyless: request.hasPrefix("HEAD"))
  }

  @Test func servesTheWholeFileWithValidators() async throws {
    try await withServer { server, url in
      server.serve(ServedFile(content: .bytes(Self.content)), at: "/f.bin")
      let response = try await exchange(url, "GET /f.bin HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(response.status == 200)
      #expect(response.body == Self.content)
      #expect(response.headers["etag"] == "\"v1\"")
      #expect(response.headers["accept-ranges"] == "bytes")
      #expect(server.fileRangeHeaders == [nil])
    }
  }

  @Test func servesARange() async throws {
    try await withServer { server, url in
      server.serve(ServedFile(content: .generated(size: 1000)), at: "/f.bin")
      let open = try await exchange(
        url, "GET /f.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=900-\r\n\r\n")
      #expect(open.status == 206)
      #expect(open.headers["content-range"] == "bytes 900-999/1000")
      #expect(open.body == Self.content.suffix(100))
      let closed = try await exchange(
        url, "GET /f.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=10-19\r\n\r\n")
      #expect(closed.body == Self.content[10..<20])
      let past = try await exchange(
        url, "GET /f.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=1000-\r\n\r\n")
      #expect(past.status == 416)
      #expect(past.headers["content-range"] == "bytes */1000")
    }
  }

  @Test func ifRangeWithAnOldValidatorGetsTheWholeFile() async throws {
    try await withServer { server, url in
      server.serve(ServedFile(content: .bytes(Self.content), etag: "\"v2\""), at: "/f.bin")
      let response = try await exchange(
        url, "GET /f.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=900-\r\nIf-Range: \"v1\"\r\n\r\n")
      #expect(response.status == 200)
      #expect(response.body == Self.content)
    }
  }

  @Test func withoutRangeSupportTheRangeIsIgnored() async throws {
    try await withServer { server, url in
      server.serve(ServedFile(content: .bytes(Self.content), supportsRanges: false), at: "/f.bin")
      let response = try await exchange(
        url, "GET /f.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=900-\r\n\r\n")
      #expect(response.status == 200)
      #expect(response.headers["accept-ranges"] == nil)
      #expect(response.body.count == 1000)
    }
  }

  @Test func headAndRedirects() async throws {
    try await withServer { server, url in
      server.serve(ServedFile(content: .bytes(Self.content)), at: "/f.bin")
      server.redirect("/ebooks/1.bin", to: "/f.bin", status: 301)
      let head = try await exchange(url, "HEAD /f.bin HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(head.status == 200)
      #expect(head.headers["content-length"] == "1000")
      #expect(head.body.isEmpty)
      let moved = try await exchange(url, "GET /ebooks/1.bin HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(moved.status == 301)
      #expect(moved.headers["location"] == "/f.bin")
    }
  }

  @Test func servesADirectory() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("files-mode-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data("hello".utf8).write(to: directory.appendingPathComponent("a.txt"))
    try await withServer { server, url in
      try server.serveDirectory(directory, under: "/files")
      let response = try await exchange(
        url, "GET /files/a.txt HTTP/1.1\r\nHost: x\r\nRange: bytes=1-\r\n\r\n")
      #expect(response.status == 206)
      #expect(response.body == Data("ello".utf8))
    }
  }

  @Test func truncationCutsTheFileInHalfAndCloses() async throws {
    try await withServer(faults: FaultPlan(truncateBody: true)) { server, url in
      server.serve(ServedFile(content: .bytes(Self.content)), at: "/f.bin")
      var client = try await RawHTTPClient.connect(to: url)
      defer { client.close() }
      try await client.send("GET /f.bin HTTP/1.1\r\nHost: x\r\n\r\n")
      let all = try await client.readUntilClosed()
      let text = String(decoding: all, as: UTF8.self)
      #expect(text.hasPrefix("HTTP/1.1 200 OK"))
      #expect(text.contains("Content-Length: 1000"))
      let body = all.suffix(from: try #require(all.range(of: Data("\r\n\r\n".utf8))).upperBound)
      #expect(Data(body) == Self.content.prefix(500))
    }
  }
}
