import Foundation
import Synchronization

extension CatalogService {
  /// The remembered failure, when the policy keeps one (automatic source only).
  var outage: ServerOutage? {
    guard mode == .automatic, let file = local?.policy.outageFile else { return nil }
    return ServerOutage(file: file)
  }

  /// Why the server is skipped now: it failed (here or in another process) within the last
  /// few minutes. The note says how to wait for it instead. Asking for it starts a retry in
  /// the background, which forgets the failure when the server answers.
  func skippedServerNote() -> String? {
    guard let outage, let failure = outage.recent(server: server, now: now()) else { return nil }
    if !network.current.isOffline { network.markOffline(failure.reason, at: failure.at) }
    retryServerInBackground(outage)
    return "\(failure.reason); asking the server again in the background (to wait for it: "
      + "--source server, or offline off in the browser)"
  }

  /// Remembers a failure to reach the server, for this process and the next ones, when it cost
  /// a wait (a timeout, a stalled connection): a refusal costs nothing to try again, and trying
  /// it again uses the server the moment it is back.
  func rememberOutage(_ reason: String, cost: Duration) {
    guard cost >= .seconds(1) else { return }
    outage?.record(server: server, reason: reason, at: now())
  }

  /// The server answered: pages go to it again.
  func forgetOutage() {
    outage?.clear()
  }

  /// The user asked for the server (`r`, reload from the server): the next page waits for it
  /// again, whatever failed a moment ago.
  public func askServerAgain() {
    forgetOutage()
  }

  /// One probe at a time, off the caller's path; a failure keeps the memory fresh.
  private func retryServerInBackground(_ outage: ServerOutage) {
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
