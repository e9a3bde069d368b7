import Catalog
import Foundation
import Synchronization

/// What the front knows of a download in progress, from the service's events (on any thread):
/// the file's path once named, and its progress meter.
final class DownloadWatch: Sendable {
  private struct State {
    var destination: URL?
    var meter: ProgressMeter?
    /// Who holds the lock, while this download waits for it.
    var waitingFor: String?
  }

  private let state = Mutex(State())
  private let output: TerminalOutput
  private let quiet: Bool

  init(output: TerminalOutput, quiet: Bool) {
    self.output = output
    self.quiet = quiet
  }

  /// The file's path, once the service has named it.
  var destination: URL? { state.withLock { $0.destination } }
  /// The meter, once the file is named.
  var meter: ProgressMeter? { state.withLock { $0.meter } }
  /// Who holds the target's lock ("process 1234"), while this download is waiting for it.
  var waitingFor: String? { state.withLock { $0.waitingFor } }

  /// Shows one event: the meter, or a one-line note on standard error (none with `--quiet`).
  func show(_ event: DownloadEvent) {
    switch event {
    case .started(let destination):
      let meter = ProgressMeter(output: output, name: destination.lastPathComponent, quiet: quiet)
      state.withLock {
        $0.destination = destination
        $0.meter = meter
      }
    case .waiting(let pid, let destination):
      let holder = pid.map { "process \($0)" } ?? "another process"
      state.withLock { $0.waitingFor = holder }
      guard !quiet else { return }
      output.printError(
        "note: waiting for \(holder), which is downloading \(destination.lastPathComponent)")
    case .sidecarIgnored(let path, let reason):
      guard !quiet else { return }
      output.printError(
        "note: ignored \(path): \(Sanitizer.sanitize(reason)); starting the download over")
    case .lockAcquired:
      state.withLock { $0.waitingFor = nil }
    case .progress(let progress):
      meter?.report(progress)
    }
  }
}
