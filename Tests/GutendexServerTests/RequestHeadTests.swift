import Foundation
import Testing

@testable import GutendexServer

/// The request-head parser, without sockets.
@Suite struct RequestHeadTests {
  private func parse(_ text: String) throws -> RequestHead {
    try RequestHead.parse(ArraySlice(Array(text.utf8)))
  }

  @Test func parsesRequestLineAndHeaders() throws {
    let head = try parse(
      "GET /books/?page=2 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept:  application/json \r\n"
        + "X-Twice: a\r\nx-twice: b\r\n\r\n")
    #expect(head.method == "GET")
    #expect(head.target == "/books/?page=2")
    #expect(head.version == "HTTP/1.1")
    #expect(head.header("HOST") == "127.0.0.1:8080")
    #expect(head.header("accept") == "application/json")
    #expect(head.headerDictionary["x-twice"] == "a, b")
    #expect(head.keepAlive)
    #expect(try head.contentLength() == 0)
  }

  @Test func keepAliveFollowsVersionAndConnectionHeader() throws {
    #expect(try !parse("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n").keepAlive)
    #expect(try !parse("GET / HTTP/1.0\r\n\r\n").keepAlive)
    #expect(try parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keepAlive)
    #expect(try !parse("GET / HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n").keepAlive)
  }

  @Test func acceptsBareLineFeeds() throws {
    let text = "GET /books/ HTTP/1.1\nHost: a\n\n"
    #expect(RequestHead.endOfHead(in: Array(text.utf8)) == text.utf8.count)
    #expect(try parse(text).header("host") == "a")
  }

  @Test func findsTheEndOfTheHeadOnlyWhenComplete() {
    let head = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\nGET".utf8)
    #expect(RequestHead.endOfHead(in: head) == head.count - 3)
    #expect(RequestHead.endOfHead(in: Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8)) == nil)
  }

  @Test func contentLengthMustBeOneNumber() throws {
    #expect(try parse("POST / HTTP/1.1\r\nContent-Length: 12\r\n\r\n").contentLength() == 12)
    #expect(throws: RequestHead.Failure.self) {
      try parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
        .contentLength()
    }
    #expect(throws: RequestHead.Failure.self) {
      try parse("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n").contentLength()
    }
  }

  @Test(arguments: [
    "", "GET /\r\n\r\n", "get / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 extra\r\n\r\n",
    "GET / HTTP/3\r\n\r\n", "GET /a b HTTP/1.1\r\n\r\n", "GET * HTTP/1.1\r\n\r\n",
    "GET / HTTP/1.1\r\n folded: header\r\n\r\n", "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
    "GET / HTTP/1.1\r\n: empty\r\n\r\n",
  ])
  func rejectsMalformedHeads(_ text: String) {
    #expect(throws: RequestHead.Failure.self) { try parse(text) }
  }

  @Test func rejectsInvalidUTF8() {
    let bytes: [UInt8] = Array("GET /".utf8) + [0xFF, 0xFE] + Array(" HTTP/1.1\r\n\r\n".utf8)
    #expect(throws: RequestHead.Failure.self) { try RequestHead.parse(ArraySlice(bytes)) }
  }

  @Test func responseHeadEncodesAndStripsLineBreaks() {
    var head = ResponseHead(status: 429)
    head.add("Retry-After", "2\r\nX-Injected: yes")
    let text = String(decoding: head.encoded, as: UTF8.self)
    #expect(text == "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 2X-Injected: yes\r\n\r\n")
    #expect(ResponseHead.canonicalName("content-type") == "Content-Type")
    #expect(ResponseHead.reason(for: 599) == "Server Error")
  }
}
