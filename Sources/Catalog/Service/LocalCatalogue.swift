import Foundation
import Gutendex
import Synchronization

/// A Gutendex-compatible catalogue on this machine (the embedded snapshot), loaded on first use.
///
/// The catalogue layer does not know how it is built: the front hands in a closure that makes
/// the transport (the local engine), so commands that never need it never pay for loading it.
public final class LocalCatalogue: Sendable {
  /// How the front names it, e.g. "embedded catalogue of 2025-08".
  public let name: String
  /// Whether its books carry summaries (the embedded snapshot leaves them out).
  public let hasSummaries: Bool
  private let makeTransport: @Sendable () throws -> any Requestable
  private let loaded = Mutex<GutendexClient?>(nil)

  /// A local catalogue called `name`, whose transport `makeTransport` builds on first use.
  public init(
    name: String, hasSummaries: Bool,
    makeTransport: @escaping @Sendable () throws -> any Requestable
  ) {
    self.name = name
    self.hasSummaries = hasSummaries
    self.makeTransport = makeTransport
  }

  /// A client whose transport is the local catalogue (loading it on the first call).
  public func client() throws(CatalogError) -> GutendexClient {
    if let client = loaded.withLock({ $0 }) { return client }
    let transport: any Requestable
    do {
      transport = try makeTransport()
    } catch {
      throw .localCatalogueUnavailable("cannot open the \(name): \(error)")
    }
    let client = GutendexClient(
      server: URL(string: "http://localhost")!, transport: transport, retry: .none,
      timeout: .seconds(120))
    loaded.withLock { $0 = client }
    return client
  }
}
