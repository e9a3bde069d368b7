import Foundation
import Gutendex
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The production ``StreamingTransport``: URLSession (libcurl on Linux) with a data delegate that
/// hands each piece of the body to the caller as it arrives, and never follows redirects.
public final class URLSessionStreamingTransport: StreamingTransport {
  private let session: URLSession
  private let delegate: Delegate

  /// A transport with its own ephemeral session (no cache, no cookies).
  public init() {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    let delegate = Delegate()
    self.delegate = delegate
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit {
    // Queued after any pending cancel, as URLSessionTransport does: cancelling and invalidating
    // at once crashed swift-corelibs-foundation.
    let session = self.session
    Delegate.cancelQueue.async { session.invalidateAndCancel() }
  }

  /// Streams `request` through URLSession (see ``StreamingTransport``).
  public func stream(
    _ request: HTTPRequest, onHead: @escaping @Sendable (StreamHead) throws -> StreamDisposition,
    onChunk: @escaping @Sendable (Data) throws -> Void
  ) async throws {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    let (seconds, attoseconds) = request.timeout.components
    urlRequest.timeoutInterval = TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    let task = session.dataTask(with: urlRequest)
    let delegate = self.delegate
    let url = request.url
    let timeout = request.timeout
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        delegate.start(
          task,
          Delegate.Pending(
            continuation: continuation, url: url, timeout: timeout, onHead: onHead,
            onChunk: onChunk))
      }
    } onCancel: {
      Delegate.cancel(task)
    }
  }

  /// Routes each task's callbacks to its caller.
  private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
    struct Pending {
      var continuation: CheckedContinuation<Void, any Error>
      var url: URL
      var timeout: Duration
      var onHead: @Sendable (StreamHead) throws -> StreamDisposition
      var onChunk: @Sendable (Data) throws -> Void
      var failure: (any Error)?
      var stopped = false
    }

    private let pending = Mutex<[Int: Pending]>([:])

    static let cancelQueue = DispatchQueue(label: "URLSessionStreamingTransport.cancel")

    /// Cancels off the delegate queue (cancel waits on queues that may be waiting on it).
    static func cancel(_ task: URLSessionTask) {
      cancelQueue.async { task.cancel() }
    }

    func start(_ task: URLSessionDataTask, _ entry: Pending) {
      pending.withLock { $0[task.taskIdentifier] = entry }
      task.resume()
    }

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
      let id = dataTask.taskIdentifier
      guard let entry = pending.withLock({ $0[id] }) else {
        completionHandler(.cancel)
        return
      }
      var headers: [String: String] = [:]
      let http = response as? HTTPURLResponse
      for (name, value) in http?.allHeaderFields ?? [:] {
        if let name = name as? String, let value = value as? String { headers[name] = value }
      }
      let head = StreamHead(
        status: http?.statusCode ?? 0, headers: headers, url: response.url ?? entry.url)
      var stop = false
      do {
        stop = try entry.onHead(head) == .stop
      } catch {
        pending.withLock { $0[id]?.failure = error }
        stop = true
      }
      if stop { pending.withLock { $0[id]?.stopped = true } }
      completionHandler(stop ? .cancel : .allow)
      // swift-corelibs-foundation ignores `.cancel` and goes on downloading: cancel outright.
      if stop { Self.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      let id = dataTask.taskIdentifier
      guard let entry = pending.withLock({ $0[id] }), !entry.stopped, entry.failure == nil
      else { return }
      do {
        // Written here, on the delegate queue, so libcurl's buffer is the only one in between.
        try entry.onChunk(data)
      } catch {
        pending.withLock {
          $0[id]?.failure = error
          $0[id]?.stopped = true
        }
        Self.cancel(dataTask)
      }
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      // The 3xx itself goes to the caller, which checks the target before following it.
      completionHandler(nil)
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
        return
      }
      if let failure = entry.failure {
        entry.continuation.resume(throwing: failure)
      } else if entry.stopped {
        entry.continuation.resume()
      } else if let error {
        entry.continuation.resume(throwing: Self.classify(error, url: entry.url, entry.timeout))
      } else {
        entry.continuation.resume()
      }
    }

    static func classify(_ error: any Error, url: URL, _ timeout: Duration) -> GutendexError {
      guard let error = error as? URLError else {
        return .connectionLost(url: url, reason: String(describing: error))
      }
      switch error.code {
      case .cancelled: return .cancelled(url: url)
      case .timedOut: return .timedOut(url: url, after: timeout)
      case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
        .unsupportedURL, .badURL, .secureConnectionFailed:
        return .unreachable(url: url, reason: GutendexClient.unreachableReason(error))
      default:
        return .connectionLost(url: url, reason: error.localizedDescription)
      }
    }
  }
}
