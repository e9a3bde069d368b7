import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The production transport: URLSession (libcurl through FoundationNetworking on Linux).
///
/// Bodies are streamed into memory only up to ``maxBodySize``: a larger `Content-Length` is
/// refused before the body is read, and a body that grows past the limit is cut off there.
/// Redirects are not followed here; ``GutendexClient`` decides which ones are safe.
public final class URLSessionTransport: Requestable {
  /// The default body limit, 8 MiB: a page of 32 books is about 100 KiB.
  public static let defaultMaxBodySize = 8 * 1_048_576

  /// The largest body accepted; a larger one is refused.
  public let maxBodySize: Int
  private let delegate = Delegate()
  /// Made on the first request: creating a URLSession initialises libcurl and OpenSSL, which
  /// costs several MiB of resident memory and milliseconds that a run which never touches the
  /// network (the embedded catalogue, the cache) should not pay.
  private let session = Mutex<URLSession?>(nil)

  /// A transport refusing bodies over `maxBodySize` bytes.
  public init(maxBodySize: Int = URLSessionTransport.defaultMaxBodySize) {
    self.maxBodySize = maxBodySize
  }

  deinit {
    // After the cancels already queued: invalidateAndCancel racing the cancel of a task that
    // overflowed the body limit crashed swift-corelibs-foundation ("Trying to access a
    // behaviour for a task that in not in the registry"), 1 run in 10 of `gutenberg list` on a
    // 100 MB stream.
    guard let session = session.withLock({ $0 }) else { return }
    Delegate.cancelQueue.async { session.invalidateAndCancel() }
  }

  /// The session, made on first use.
  private var urlSession: URLSession {
    session.withLock { session in
      if let session { return session }
      let configuration = URLSessionConfiguration.ephemeral
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.urlCache = nil
      configuration.httpCookieStorage = nil
      let made = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
      session = made
      return made
    }
  }

  /// Sends `request` and returns the whole response, or a ``GutendexError``.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.timeoutInterval = Self.seconds(request.timeout)
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    let task = urlSession.dataTask(with: urlRequest)
    let delegate = self.delegate
    let limit = maxBodySize
    let timeout = request.timeout
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        delegate.start(task, limit: limit, timeout: timeout, continuation: continuation)
      }
    } onCancel: {
      Delegate.cancel(task)
    }
  }

  static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }

  /// Collects each task's response and body, enforcing the size limit as data arrives.
  private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
    struct Pending {
      var continuation: CheckedContinuation<HTTPResponse, any Error>
      var limit: Int
      var timeout: Duration
      var response: HTTPURLResponse?
      var body = Data()
      var failure: GutendexError?
    }

    private let pending = Mutex<[Int: Pending]>([:])

    func start(
      _ task: URLSessionDataTask, limit: Int, timeout: Duration,
      continuation: CheckedContinuation<HTTPResponse, any Error>
    ) {
      pending.withLock {
        $0[task.taskIdentifier] = Pending(
          continuation: continuation, limit: limit, timeout: timeout)
      }
      task.resume()
    }

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
      let tooLarge = pending.withLock { state -> Bool in
        guard var entry = state[dataTask.taskIdentifier] else { return false }
        entry.response = response as? HTTPURLResponse
        let tooLarge = response.expectedContentLength > Int64(entry.limit)
        if tooLarge, let url = dataTask.originalRequest?.url {
          entry.failure = .bodyTooLarge(url: url, limit: entry.limit)
        }
        state[dataTask.taskIdentifier] = entry
        return tooLarge
      }
      completionHandler(tooLarge ? .cancel : .allow)
      // swift-corelibs-foundation ignores the disposition and keeps downloading: cancel outright.
      if tooLarge { Self.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      let tooLarge = pending.withLock { state -> Bool in
        // Mutate the entry in place: appending to a copy of it copied the whole body every chunk.
        let id = dataTask.taskIdentifier
        guard let limit = state[id]?.limit, let count = state[id]?.body.count,
          state[id]?.failure == nil
        else { return false }
        if count + data.count > limit {
          // Answer the caller now and forget the task: libcurl may go on delivering data until
          // the cancel below takes effect, and none of it needs to be kept or waited for.
          if let entry = state.removeValue(forKey: id) {
            let url = dataTask.originalRequest?.url ?? URL(string: "about:blank")!
            entry.continuation.resume(throwing: GutendexError.bodyTooLarge(url: url, limit: limit))
          }
          return true
        }
        state[id]?.body.append(data)
        return false
      }
      if tooLarge { Self.cancel(dataTask) }
    }

    /// Cancels off the delegate queue: `cancel()` waits on the task's work queue, which can be
    /// waiting on this queue (seen as a hang on Linux).
    static func cancel(_ task: URLSessionTask) {
      cancelQueue.async { task.cancel() }
    }

    /// Every cancel runs here, one at a time, and so does the session's final
    /// `invalidateAndCancel` (see deinit).
    static let cancelQueue = DispatchQueue(label: "URLSessionTransport.cancel")

    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      // Hand the 3xx to the client, which follows only same-host redirects.
      completionHandler(nil)
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
        return
      }
      let url = task.originalRequest?.url ?? URL(string: "about:blank")!
      if let failure = entry.failure {
        entry.continuation.resume(throwing: failure)
      } else if let error {
        var mapped = GutendexClient.classify(error, url: url)
        if case .timedOut = mapped { mapped = .timedOut(url: url, after: entry.timeout) }
        entry.continuation.resume(throwing: mapped)
      } else if let response = entry.response {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
          if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        entry.continuation.resume(
          returning: HTTPResponse(
            status: response.statusCode, headers: headers, body: entry.body, url: url))
      } else {
        entry.continuation.resume(
          throwing: GutendexError.connectionLost(url: url, reason: "no HTTP response"))
      }
    }
  }
}
