import Foundation
import TestSupport
import Testing

@testable import Gutendex

/// Each status and transport failure becomes the right ``GutendexError``, with its message.
@Suite struct ClientStatusTests {
  let url84 = URL(string: "https://books.example/books/84/")!
  let pageURL = URL(string: "https://books.example/books/?page=99")!

  @Test func successDecodesAndSendsJSONHeaders() async throws {
    let mock = MockTransport.success(
      body: Fake.book(84), headers: ["content-type": "application/json; charset=utf-8"])
    let book = try await Fake.client(mock, timeout: .seconds(15)).book(id: 84)
    #expect(book.id == 84)
    #expect(book.title == "Book 84")
    let request = try #require(mock.requests.first)
    #expect(request.url == url84)
    #expect(request.method == "GET")
    #expect(request.headers["Accept"] == "application/json")
    #expect(request.timeout == .seconds(15))
  }

  @Test func pagePastTheEnd() async throws {
    let mock = MockTransport.success(status: 404, body: #"{"detail":"Invalid page."}"#)
    let error = try #require(await caught { try await Fake.client(mock).page(BookQuery(page: 99)) })
    #expect(error == .http(status: 404, detail: "Invalid page.", url: pageURL))
    #expect(
      error.description
        == "server says: Invalid page. (HTTP 404, https://books.example/books/?page=99)")
    #expect(mock.count == 1)
  }

  @Test func unknownBook() async throws {
    let mock = MockTransport.success(
      status: 404, body: #"{"detail":"No Book matches the given query."}"#)
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error == .http(status: 404, detail: "No Book matches the given query.", url: url84))
    #expect(
      error.description
        == "server says: No Book matches the given query. (HTTP 404, https://books.example/books/84/)"
    )
    #expect(!error.isUnavailable && !error.isTransient)
  }

  @Test func notFoundAsHTML() async throws {
    let mock = MockTransport.success(
      status: 404, body: "<h1>Page Not Found</h1>", headers: ["Content-Type": "text/html"])
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error == .http(status: 404, detail: nil, url: url84))
    #expect(error.description == "HTTP 404 from https://books.example/books/84/")
  }

  @Test func forbiddenAndNotAcceptable() async throws {
    let mock = MockTransport.sequence([
      .json(#"{"detail":"Authentication credentials were not provided."}"#, status: 403),
      .json(#"{"detail":"Could not satisfy the request Accept header."}"#, status: 406),
    ])
    let client = Fake.client(mock)
    #expect(
      await caught { try await client.book(id: 84) }
        == .http(status: 403, detail: "Authentication credentials were not provided.", url: url84))
    #expect(
      await caught { try await client.book(id: 84) }
        == .http(status: 406, detail: "Could not satisfy the request Accept header.", url: url84))
  }

  @Test(arguments: [500, 502, 503])
  func serverErrorWithAnHTMLPage(status: Int) async throws {
    // The HTML would fail in the decoder as badData; serverError proves it never got there.
    let mock = MockTransport.success(
      status: status, body: "<html><title>Server Error (500)</title></html>",
      headers: ["Content-Type": "text/html; charset=utf-8"])
    let error = try #require(
      await caught { try await Fake.client(mock, retry: .none).book(id: 84) })
    #expect(error == .serverError(status: status, url: url84))
    #expect(
      error.description == "server error (HTTP \(status)) from books.example; try again later")
    #expect(error.isUnavailable && error.isTransient)
  }

  @Test func serverErrorEvenWhenTheBodyClaimsJSON() async throws {
    let mock = MockTransport.success(status: 500, body: "{\"oops\"")
    let error = try #require(
      await caught { try await Fake.client(mock, retry: .none).book(id: 84) })
    #expect(error == .serverError(status: 500, url: url84))
  }

  @Test func okWithHTMLIsNotDecoded() async throws {
    let mock = MockTransport.success(
      body: "<html>captive portal</html>", headers: ["Content-Type": "text/html; charset=utf-8"])
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error == .badData(url: url84, path: "", reason: "expected JSON, got text/html"))
    #expect(
      error.description
        == "bad data from server at top level: expected JSON, got text/html (https://books.example/books/84/)"
    )
  }

  @Test func okWithoutContentTypeOrWithJSONVariantsIsDecoded() async throws {
    let mock = MockTransport.sequence([
      .text(Fake.book(1), status: 200),
      .text(Fake.book(2), status: 200, headers: ["Content-Type": "application/vnd.api+json"]),
      .text(
        Fake.book(3), status: 200, headers: ["CONTENT-TYPE": "Application/JSON ; charset=utf-8"]),
    ])
    let client = Fake.client(mock)
    #expect(try await client.book(id: 1).id == 1)
    #expect(try await client.book(id: 2).id == 2)
    #expect(try await client.book(id: 3).id == 3)
  }

  @Test func rateLimitedWaitsForRetryAfterThenSucceeds() async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.sequence([
      .json(#"{"detail":"Request was throttled."}"#, status: 429, headers: ["Retry-After": "2"]),
      .json(Fake.book(84)),
    ])
    let book = try await Fake.client(mock, sleeps: sleeps).book(id: 84)
    #expect(book.id == 84)
    #expect(sleeps.all == [.seconds(2)])
    #expect(mock.count == 2)
  }

  @Test func rateLimitedBeyondTheCapFailsAtOnce() async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.success(status: 429, body: "{}", headers: ["Retry-After": "3600"])
    let error = try #require(
      await caught { try await Fake.client(mock, sleeps: sleeps).book(id: 84) })
    #expect(error == .rateLimited(retryAfter: .seconds(3600), url: url84))
    #expect(error.description == "rate limited by books.example, retry in 3600 s")
    #expect(sleeps.all.isEmpty)
    #expect(mock.count == 1)
  }

  @Test func rateLimitedWithAnHTTPDate() async throws {
    let sleeps = Recorder<Duration>()
    let now = Date(timeIntervalSince1970: 1_750_000_000)  // Sun, 15 Jun 2025 15:06:40 GMT
    let mock = MockTransport.sequence([
      .json("{}", status: 429, headers: ["Retry-After": "Sun, 15 Jun 2025 15:06:45 GMT"]),
      .json(Fake.book(84)),
    ])
    _ = try await Fake.client(mock, sleeps: sleeps, now: now).book(id: 84)
    #expect(sleeps.all == [.seconds(5)])
  }

  @Test func retryAfterParsing() {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    #expect(GutendexClient.retryAfter("2", now: now) == .seconds(2))
    #expect(GutendexClient.retryAfter(" 0 ", now: now) == .seconds(0))
    #expect(GutendexClient.retryAfter("Sun, 15 Jun 2025 15:07:40 GMT", now: now) == .seconds(60))
    #expect(GutendexClient.retryAfter("Sunday, 15-Jun-25 15:07:40 GMT", now: now) == .seconds(60))
    #expect(GutendexClient.retryAfter("Sun Jun 15 15:07:40 2025", now: now) == .seconds(60))
    #expect(GutendexClient.retryAfter("Sun, 15 Jun 2025 15:00:00 GMT", now: now) == .seconds(0))
    #expect(GutendexClient.retryAfter("99999999999999999999999", now: now) == .seconds(Int.max))
    #expect(GutendexClient.retryAfter(nil, now: now) == nil)
    #expect(GutendexClient.retryAfter("", now: now) == nil)
    #expect(GutendexClient.retryAfter("-1", now: now) == nil)
    #expect(GutendexClient.retryAfter("soon", now: now) == nil)
  }

  @Test func rateLimitedWithoutRetryAfterReportsLater() async throws {
    let mock = MockTransport.success(status: 429, body: "{}")
    let error = try #require(
      await caught { try await Fake.client(mock, retry: .none).book(id: 84) })
    #expect(error == .rateLimited(retryAfter: nil, url: url84))
    #expect(error.description == "rate limited by books.example, retry later")
  }

  @Test func relativeRedirectToTheSlashedPathIsFollowed() async throws {
    let server = try #require(URL(string: "https://example.org/gutendex"))
    let mock = MockTransport.sequence([
      .text(
        "", status: 301,
        headers: [
          "Location": "/gutendex/books/?search=dickens%20great", "Content-Type": "text/html",
        ]),
      .json(Fake.page(count: 1, next: nil, ids: [1400])),
    ])
    let page = try await Fake.client(mock, server: server).page(BookQuery(search: "dickens great"))
    #expect(page.results.map(\.id) == [1400])
    #expect(
      mock.urls == [
        "https://example.org/gutendex/books/?search=dickens%20great",
        "https://example.org/gutendex/books/?search=dickens%20great",
      ])
  }

  @Test func redirectWithAnExplicitDefaultPortIsFollowed() async throws {
    let mock = MockTransport.sequence([
      .text("", status: 308, headers: ["Location": "https://books.example:443/books/84/"]),
      .json(Fake.book(84)),
    ])
    #expect(try await Fake.client(mock).book(id: 84).id == 84)
    #expect(mock.count == 2)
  }

  @Test func redirectToAnotherHostIsRefused() async throws {
    let mock = MockTransport.sequence([
      .text("", status: 302, headers: ["Location": "https://evil.example/books/84/"])
    ])
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error == .redirectRefused(from: url84, to: "https://evil.example/books/84/"))
    #expect(
      error.description
        == "refused redirect from books.example to another host: https://evil.example/books/84/")
    #expect(mock.count == 1)
  }

  @Test func protocolRelativeRedirectToAnotherHostIsRefused() async throws {
    let mock = MockTransport.sequence([
      .text("", status: 307, headers: ["Location": "//evil.example/books/84/"])
    ])
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error == .redirectRefused(from: url84, to: "https://evil.example/books/84/"))
  }

  @Test func concurrentRequestsAreAllRecorded() async throws {
    let mock = MockTransport.routing { request in
      guard let id = Int(request.url.lastPathComponent) else { return .text("", status: 400) }
      return .json(Fake.book(id))
    }
    let client = Fake.client(mock)
    let ids = try await withThrowingTaskGroup(of: Int.self) { group in
      for id in 1...50 { group.addTask { try await client.book(id: id).id } }
      var ids: [Int] = []
      for try await id in group { ids.append(id) }
      return ids
    }
    #expect(ids.sorted() == Array(1...50))
    #expect(mock.count == 50)
    #expect(Set(mock.urls).count == 50)
  }

  @Test func redirectToPlainHTTPIsRefused() async throws {
    let mock = MockTransport.sequence([
      .text("", status: 301, headers: ["Location": "http://books.example/books/84/"])
    ])
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error == .redirectRefused(from: url84, to: "http://books.example/books/84/"))
  }

  @Test func redirectLoopIsBounded() async throws {
    let mock = MockTransport.routing { _ in
      .text("", status: 301, headers: ["Location": "/books/84/"])
    }
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error == .http(status: 301, detail: "too many redirects (more than 5)", url: url84))
    #expect(mock.count == GutendexClient.maxRedirects + 1)
  }

  @Test func redirectWithoutLocation() async throws {
    let mock = MockTransport.sequence([.text("", status: 302)])
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error == .http(status: 302, detail: "redirect without a Location", url: url84))
  }

  @Test func transportErrorsAreMapped() async throws {
    let unreachable = try #require(
      await caught { try await Fake.client(.failing(URLError(.cannotConnectToHost))).book(id: 84) })
    guard case .unreachable(let url, _) = unreachable else {
      Issue.record("expected unreachable, got \(unreachable)")
      return
    }
    #expect(url == url84)
    // The same few words on every platform (libcurl's text named the host again, with a timing).
    #expect(unreachable.description == "cannot reach books.example: could not connect")
    #expect(unreachable.isUnavailable && !unreachable.isTransient)

    let timedOut = try #require(
      await caught {
        try await Fake.client(.failing(URLError(.timedOut)), timeout: .seconds(7)).book(id: 84)
      })
    #expect(timedOut == .timedOut(url: url84, after: .seconds(7)))
    #expect(
      timedOut.description
        == "books.example did not answer within 7 s (https://books.example/books/84/)")

    let lost = try #require(
      await caught {
        try await Fake.client(.failing(URLError(.networkConnectionLost)), retry: .none).book(id: 84)
      })
    guard case .connectionLost(let lostURL, _) = lost else {
      Issue.record("expected connectionLost, got \(lost)")
      return
    }
    #expect(lostURL == url84)
    #expect(lost.description.hasPrefix("connection to books.example lost: "))

    let cancelled = try #require(
      await caught { try await Fake.client(.failing(URLError(.cancelled))).book(id: 84) })
    #expect(cancelled == .cancelled(url: url84))
    #expect(cancelled.description == "request cancelled")
  }

  @Test func transportGutendexErrorsPassThrough() async throws {
    let tooLarge = GutendexError.bodyTooLarge(url: url84, limit: 8 * 1_048_576)
    let error = try #require(
      await caught { try await Fake.client(.failing(tooLarge)).book(id: 84) })
    #expect(error == tooLarge)
    #expect(error.description == "response from books.example is larger than 8 MiB; refused")
  }

  @Test func aTransportThatNeverAnswersTimesOut() async throws {
    let mock = MockTransport.sequence([.hang])
    let error = try #require(
      try await Awaiting.value("the client's 50 ms timeout to end a hanging request") {
        await caught { try await Fake.client(mock, timeout: .milliseconds(50)).book(id: 84) }
      })
    #expect(error == .timedOut(url: url84, after: .milliseconds(50)))
    #expect(
      error.description
        == "books.example did not answer within 50 ms (https://books.example/books/84/)")
  }

  /// A transport that ignores cancellation must not hold the caller past its timeout.
  @Test func aStuckTransportThatIgnoresCancellationTimesOut() async throws {
    let mock = MockTransport.sequence([.unresponsive])
    defer { mock.release() }
    let error = try #require(
      try await Awaiting.value("the client's 50 ms timeout to end a stuck request") {
        await caught { try await Fake.client(mock, timeout: .milliseconds(50)).book(id: 84) }
      })
    #expect(error == .timedOut(url: url84, after: .milliseconds(50)))
  }

  @Test(arguments: [MockTransport.Step.hang, .unresponsive])
  func cancellingTheCallerCancelsTheRequest(step: MockTransport.Step) async throws {
    let mock = MockTransport.sequence([step])
    defer { mock.release() }
    let client = Fake.client(mock)
    let task = Task { await caught { try await client.book(id: 84) } }
    try await mock.waitForRequests(1)
    task.cancel()
    let error = try await Awaiting.value("the cancelled request to end") { await task.value }
    #expect(error == .cancelled(url: url84))
    #expect(mock.count == 1)
  }

  @Test func alreadyCancelledSendsNothing() async throws {
    let mock = MockTransport.success(body: Fake.book(84))
    let client = Fake.client(mock)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await caught { try await client.book(id: 84) }
    }
    #expect(
      try await Awaiting.value("the cancelled call to end") { await task.value }
        == .cancelled(url: url84))
    #expect(mock.count == 0)
  }

  @Test func observerSeesEveryAttempt() async throws {
    let events = Recorder<RequestEvent>()
    let mock = MockTransport.sequence([
      .text("<html>", status: 503, headers: ["Content-Type": "text/html"]),
      .failure(URLError(.networkConnectionLost)),
      .json(Fake.book(84)),
    ])
    _ = try await Fake.client(mock, events: events).book(id: 84)
    let all = events.all
    #expect(all.map(\.attempt) == [1, 2, 3])
    #expect(all.map(\.status) == [503, nil, 200])
    #expect(all.map(\.url) == [url84, url84, url84])
    #expect(all[0].error == nil)
    if case .connectionLost = all[1].error {
    } else {
      Issue.record("expected connectionLost, got \(String(describing: all[1].error))")
    }
    #expect(all[2].error == nil)
  }

  @Test func observerSeesATimeout() async throws {
    let events = Recorder<RequestEvent>()
    let mock = MockTransport.sequence([.hang])
    _ = try await Awaiting.value("the client's 20 ms timeout to end a hanging request") {
      await caught {
        try await Fake.client(mock, timeout: .milliseconds(20), events: events).book(id: 84)
      }
    }
    #expect(events.all.map(\.error) == [.timedOut(url: url84, after: .milliseconds(20))])
    #expect(events.all.map(\.status) == [nil])
  }
}
