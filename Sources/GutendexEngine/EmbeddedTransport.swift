import Foundation
import Gutendex
import Synchronization

/// The embedded catalogue as a transport, opened on the first request.
public final class EmbeddedTransport: Requestable {
  private let engine = Mutex<GutendexEngine?>(nil)
  private let load: @Sendable () throws -> GutendexEngine

  /// A transport over the embedded catalogue.
  public convenience init() {
    self.init(load: { try EmbeddedCatalogue.load() })
  }

  init(load: @escaping @Sendable () throws -> GutendexEngine) {
    self.load = load
  }

  /// Whether the catalogue has been opened.
  public var isLoaded: Bool { engine.withLock { $0 != nil } }

  /// Answers from the engine, opening the catalogue first if needed.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try loadedEngine().respond(to: request)
  }

  /// The engine, opening the catalogue on first use.
  ///
  /// Opening only maps the file and reads its header, so it runs outside the lock: two first
  /// callers may both open it, and one result is kept.
  public func loadedEngine() throws -> GutendexEngine {
    if let engine = engine.withLock({ $0 }) { return engine }
    let loaded = try load()
    return engine.withLock { engine in
      if let engine { return engine }
      engine = loaded
      return loaded
    }
  }
}
