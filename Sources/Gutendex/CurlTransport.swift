import Foundation

/// The production transport: libcurl, for every request the program makes (API pages, details,
/// `ids=` batches and book files), over http and https alike.
///
/// Bodies stream with back-pressure (see ``HTTPBody``): libcurl reads the socket only as fast as
/// the reader takes the bytes. ``HTTPRequest/timeout`` ends a transfer that receives nothing for
/// that long, ``HTTPRequest/minimumSpeed`` one that stays too slow, and a cancelled task ends its
/// transfer at once. Redirects are not followed here: the caller decides which ones are safe.
/// Proxies and trusted CAs come from the environment as curl reads them (``CurlSettings``).
public final class CurlTransport: Requestable {
  /// The default body limit of ``send(_:)``, 8 MiB: a page of 32 books is about 100 KiB.
  public static let defaultMaxBodySize = 8 * 1_048_576

  /// The largest body ``send(_:)`` collects; a larger one is refused.
  public let maxBodySize: Int
  let settings: CurlSettings

  /// A transport whose proxies and CAs come from `environment` (the process's by default).
  public init(
    maxBodySize: Int = CurlTransport.defaultMaxBodySize,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.maxBodySize = maxBodySize
    settings = CurlSettings(environment: environment)
  }

  /// The proxy requests to `url` go through, nil for none (as the environment says).
  public func proxyDescription(for url: URL) -> String? {
    let proxy = settings.proxy(for: url)
    return proxy.isEmpty ? nil : proxy
  }

  /// The PEM file of trusted CAs the environment names, nil for the system's.
  public var certificateFile: String? { settings.caFile }

  /// Sends `request` and collects the body, up to ``maxBodySize``.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await open(request).collected(limit: maxBodySize)
  }

  /// Sends `request`; returns once the head is here, the body streaming behind it.
  public func open(_ request: HTTPRequest) async throws -> StreamedResponse {
    if let failure = CurlEngine.loadFailure {
      // Like a server that cannot be reached: the cache and the local catalogue stand in.
      throw GutendexError.unreachable(url: request.url, reason: failure)
    }
    guard let engine = CurlEngine.shared else {
      throw GutendexError.invalidRequest(reason: "libcurl could not start (out of memory)")
    }
    let transfer = try CurlTransfer(request, settings: settings)
    return try await transfer.start(on: engine)
  }
}
