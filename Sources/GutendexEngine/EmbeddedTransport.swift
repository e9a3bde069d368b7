import Foundation
import Gutendex
import Synchronization

/// The embedded catalogue as a transport that starts at once: the default first page (what
/// `gutenberg list` and the browser show first) comes from a precomputed copy, and the snapshot
/// is loaded only when any other request arrives.
///
/// Loading the whole snapshot takes a few hundred milliseconds; the first page on screen should
/// not wait for it. The copy is the engine's own answer, byte for byte (a test checks it), so
/// nothing but the time differs.
public final class EmbeddedTransport: Requestable {
  /// The only request the copy answers: what a client with server `http://localhost` (as the
  /// local catalogue uses) sends for the default query's first page.
  static let firstPageURL = "http://localhost/books/"
  /// The copy's resource, the engine's body for ``firstPageURL``.
  static let firstPageResource = "catalogue-2025-08-first-page"

  private let engine = Mutex<GutendexEngine?>(nil)
  private let load: @Sendable () throws -> GutendexEngine

  /// A transport over the embedded catalogue.
  public convenience init() {
    self.init(load: { try EmbeddedCatalogue.load() })
  }

  init(load: @escaping @Sendable () throws -> GutendexEngine) {
    self.load = load
  }

  /// Whether the snapshot has been loaded (false while only the first page was asked for).
  public var isLoaded: Bool { engine.withLock { $0 != nil } }

  /// Answers from the precomputed first page when the request is exactly that, else the engine.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let response = Self.firstPage(for: request) { return response }
    return try loadedEngine().respond(to: request)
  }

  /// The engine, loading it on first use (concurrent first callers wait for the one load).
  public func loadedEngine() throws -> GutendexEngine {
    try engine.withLock { engine in
      if let engine { return engine }
      let loaded = try load()
      engine = loaded
      return loaded
    }
  }

  /// The engine's answer to `request` from the precomputed copy, if it is the first-page request.
  static func firstPage(for request: HTTPRequest) -> HTTPResponse? {
    let method = request.method.uppercased()
    guard method == "GET" || method == "HEAD", request.url.absoluteString == firstPageURL,
      !request.headers.keys.contains(where: { $0.lowercased() == "host" }),
      GutendexEngine.acceptsJSON(request), let body = firstPageBody
    else { return nil }
    return Reply(request: request).json(200, body, allow: Route.list(format: nil).allow)
  }

  /// The copy's bytes, read once; nil if the bundle lacks it (the engine answers instead).
  static let firstPageBody: [UInt8]? = Bundle.module.url(
    forResource: firstPageResource, withExtension: "json", subdirectory: "Resources"
  ).flatMap { try? Data(contentsOf: $0) }.map(Array.init)
}
