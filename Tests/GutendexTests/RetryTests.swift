import Foundation
import Testing

@testable import Gutendex

/// Retries are bounded, backed off with jitter, and only for what may succeed next time.
@Suite struct RetryTests {
  let url84 = URL(string: "https://books.example/books/84/")!
  let html503 = MockTransport.Step.text(
    "<html>503</html>", status: 503, headers: ["Content-Type": "text/html"])

  @Test func serverErrorsAreRetriedUpToMaxAttemptsWithExponentialJitteredDelays() async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.routing { _ in
      .text("<html>", status: 502, headers: ["Content-Type": "text/html"])
    }
    let policy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .seconds(8))
    let client = Fake.client(
      mock, retry: policy, sleeps: sleeps, random: NumberSource([0, 1, 0.5]))
    let error = await caught { try await client.book(id: 84) }
    #expect(error == .serverError(status: 502, url: url84))
    #expect(mock.count == 4)
    // ceilings 100, 200, 400 ms; jitter keeps between half and all of each.
    #expect(sleeps.all == [.milliseconds(50), .milliseconds(200), .milliseconds(300)])
  }

  @Test func serverErrorThenSuccess() async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.sequence([html503, .json(Fake.book(84))])
    let book = try await Fake.client(mock, sleeps: sleeps, random: NumberSource([1])).book(id: 84)
    #expect(book.id == 84)
    #expect(mock.count == 2)
    #expect(sleeps.all == [.milliseconds(500)])
  }

  @Test func standardPolicyMakesThreeAttempts() async throws {
    let mock = MockTransport.routing { _ in .text("", status: 500) }
    let sleeps = Recorder<Duration>()
    _ = await caught { try await Fake.client(mock, sleeps: sleeps).book(id: 84) }
    #expect(mock.count == 3)
    #expect(sleeps.all.count == 2)
  }

  @Test(arguments: [400, 401, 403, 404, 406, 410])
  func clientErrorsAreNeverRetried(status: Int) async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.routing { _ in .json(#"{"detail":"no"}"#, status: status) }
    let error = await caught { try await Fake.client(mock, sleeps: sleeps).book(id: 84) }
    #expect(error == .http(status: status, detail: "no", url: url84))
    #expect(mock.count == 1)
    #expect(sleeps.all.isEmpty)
  }

  @Test func badDataIsNeverRetried() async throws {
    let mock = MockTransport.routing { _ in .json("{}") }
    _ = await caught { try await Fake.client(mock).book(id: 84) }
    #expect(mock.count == 1)
  }

  @Test func connectionLostIsRetried() async throws {
    let mock = MockTransport.sequence([
      .failure(URLError(.networkConnectionLost)), .failure(URLError(.networkConnectionLost)),
      .json(Fake.book(84)),
    ])
    #expect(try await Fake.client(mock).book(id: 84).id == 84)
    #expect(mock.count == 3)
  }

  @Test func connectionLostGivesUpAfterMaxAttempts() async throws {
    let mock = MockTransport.failing(URLError(.networkConnectionLost))
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    #expect(error.isTransient)
    #expect(mock.count == 3)
  }

  @Test(arguments: [
    URLError.Code.cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .timedOut,
  ])
  func unreachableAndTimeoutsAreNotRetried(code: URLError.Code) async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.failing(URLError(code))
    let error = try #require(
      await caught { try await Fake.client(mock, sleeps: sleeps).book(id: 84) })
    #expect(error.isUnavailable)
    #expect(!error.isTransient)
    #expect(mock.count == 1)
    #expect(sleeps.all.isEmpty)
  }

  @Test func rateLimitWithoutRetryAfterBacksOffExponentially() async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.routing { _ in .json("{}", status: 429) }
    let error = await caught {
      try await Fake.client(mock, sleeps: sleeps, random: NumberSource([1])).book(id: 84)
    }
    #expect(error == .rateLimited(retryAfter: nil, url: url84))
    #expect(mock.count == 3)
    #expect(sleeps.all == [.milliseconds(500), .seconds(1)])
  }

  @Test func rateLimitExhaustedReportsTheLastRetryAfter() async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.routing { _ in .json("{}", status: 429, headers: ["Retry-After": "1"])
    }
    let error = await caught { try await Fake.client(mock, sleeps: sleeps).book(id: 84) }
    #expect(error == .rateLimited(retryAfter: .seconds(1), url: url84))
    #expect(sleeps.all == [.seconds(1), .seconds(1)])
  }

  @Test func retryAfterAtTheCapIsStillHonoured() async throws {
    let sleeps = Recorder<Duration>()
    let mock = MockTransport.sequence([
      .json("{}", status: 429, headers: ["Retry-After": "10"]), .json(Fake.book(84)),
    ])
    _ = try await Fake.client(mock, sleeps: sleeps).book(id: 84)
    #expect(sleeps.all == [.seconds(10)])
  }

  @Test func cancelledDuringBackoff() async throws {
    let mock = MockTransport.routing { _ in .text("", status: 503) }
    let client = GutendexClient(
      server: Fake.server, transport: mock, sleep: { _ in throw CancellationError() })
    let error = await caught { try await client.book(id: 84) }
    #expect(error == .cancelled(url: url84))
    #expect(mock.count == 1)
  }

  @Test func noneMeansOneAttempt() async throws {
    let mock = MockTransport.routing { _ in .text("", status: 503) }
    _ = await caught { try await Fake.client(mock, retry: .none).book(id: 84) }
    #expect(mock.count == 1)
    #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
    #expect(RetryPolicy(maxAttempts: -3).maxAttempts == 1)
  }

  @Test func delayBounds() {
    let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(500), maxDelay: .seconds(8))
    for retry in 1...12 {
      let ceiling = min(Duration.milliseconds(500) * (1 << (retry - 1)), .seconds(8))
      for random in [0, 0.1, 0.5, 0.999, 1, -5, 7, .infinity, -.infinity, .nan] as [Double] {
        let delay = policy.delay(beforeRetry: retry, random: random)
        #expect(delay >= ceiling / 2 && delay <= ceiling, "retry \(retry) random \(random)")
      }
    }
    #expect(policy.delay(beforeRetry: 1, random: 0) == .milliseconds(250))
    #expect(policy.delay(beforeRetry: 1, random: 1) == .milliseconds(500))
    #expect(policy.delay(beforeRetry: 3, random: 1) == .seconds(2))
    #expect(policy.delay(beforeRetry: 30, random: 1) == .seconds(8))
    #expect(policy.delay(beforeRetry: 0, random: 1) == .milliseconds(500))
    #expect(policy.delay(beforeRetry: .max, random: 0) == .seconds(4))
  }
}
