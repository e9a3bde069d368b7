import Foundation
import Synchronization

extension CatalogService {
  /// The remembered failure, when the policy keeps one (automatic source only).
  var outage: ServerOutage? {
    guard mode == .automatic, let file = local?.policy.outageFile else { return nil }
    return ServerOutage(file: file)
  }

  /// The user asked for the server (`r`, reload from the server): the next page waits for it
  /// again, whatever failed a moment ago.
  public func askServerAgain() {
    outage?.clear()
  }

  /// One probe at a time, off the caller's path; a failure keeps the memory fresh.
  func retryServerInBackground(_ outage: ServerOutage) {
    guard
      retryingServer.compareExchange(expected: false, desired: true, ordering: .relaxed)
        .exchanged
    else { return }
    Task.detached(priority: .utility) { [self] in
      defer { retryingServer.store(false, ordering: .relaxed) }
      if await probe(timeout: requestTimeout) {
        outage.clear()
      } else if case .offline(let reason, _) = network.current {
        outage.record(server: server, reason: reason, at: now())
      }
    }
  }
}
