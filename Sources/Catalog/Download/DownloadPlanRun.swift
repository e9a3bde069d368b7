import Foundation
import Gutendex
import Synchronization

/// The state of one ``DownloadPlan`` being iterated: which edition and mirror come next, the
/// events waiting to be delivered, and the attempt in flight.
///
/// Each attempt runs in a task of its own, its events queued as they come (from any thread);
/// ``next()`` hands them out one at a time, and when the attempt ends decides what follows:
/// the next mirror, the next edition, or the end.
actor DownloadPlanRun {
  private let service: CatalogService
  private let request: DownloadPlanRequest
  private let outages: MirrorOutage?
  /// The mirrors in the order they are tried (nil: Project Gutenberg itself).
  private var sources: [DownloadMirror?]
  private var source = 0
  /// The edition asked for now (nil: the service's choice, the preferred one).
  private var format: BookFormat?
  /// The editions left to try when the one asked for is missing; nil until first needed.
  private var editions: [BookFormat]?
  private var mirrorFailures: [(mirror: DownloadMirror, reason: String)] = []
  private var queue: [DownloadPlanEvent] = []
  /// Where the attempt in flight leaves its events and its end (from any thread).
  private var inbox: PlanInbox?
  private var attempt: Task<Void, Never>?
  private var destination: URL?
  private var waitingFor: String?
  private var ended = false

  init(service: CatalogService, request: DownloadPlanRequest) {
    self.service = service
    self.request = request
    format = request.format
    outages = request.mirrorMemory.map(MirrorOutage.init(file:))
    sources = request.mirrors.isEmpty ? [nil] : request.mirrors
    // Mirrors that failed a few minutes ago go last, each said once.
    if let outages, request.mirrors.count > 1 {
      let now = Date()
      let down = request.mirrors.compactMap { mirror in
        outages.recent(mirror, now: now).map { (mirror, $0) }
      }
      if !down.isEmpty, down.count < request.mirrors.count {
        let slow = Set(down.map(\.0.base))
        sources = request.mirrors.filter { !slow.contains($0.base) } + down.map(\.0)
        queue = down.map { .mirrorPutLast($0.0, reason: $0.1) }
      }
    }
  }

  /// The next event; nil once the plan has ended.
  func next() async -> DownloadPlanEvent? {
    while true {
      if !queue.isEmpty { return queue.removeFirst() }
      if ended { return nil }
      guard let inbox else {
        startAttempt()
        continue
      }
      let (events, result) = inbox.take()
      for event in events { record(event) }
      if let result {
        self.inbox = nil
        attempt = nil
        await decide(after: result)
        continue
      }
      if !queue.isEmpty { continue }
      // Wait for the attempt's next event or its end; cancelling the caller stops the attempt,
      // whose failure (what was kept) is still delivered.
      let running = attempt
      await withTaskCancellationHandler {
        await inbox.wait()
      } onCancel: {
        running?.cancel()
      }
    }
  }

  private func startAttempt() {
    var attemptRequest = DownloadRequest(
      id: request.id, format: format, target: request.target, replace: request.replace,
      mirror: sources[source], stallTimeout: request.stallTimeout,
      minimumSpeed: request.minimumSpeed, cleanTitle: request.cleanTitle)
    attemptRequest.otherSources = sources.enumerated().filter { $0.offset != source }
      .map(\.element)
    let service = self.service
    let built = attemptRequest
    let inbox = PlanInbox()
    self.inbox = inbox
    attempt = Task {
      do {
        inbox.finish(
          .success(try await LibraryDownload(service: service).run(built, events: inbox.push)))
      } catch {
        inbox.finish(.failure(CatalogError(error)))
      }
    }
  }

  /// An event of the attempt in flight, kept for the failure's message too.
  private func record(_ event: DownloadEvent) {
    switch event {
    case .started(let destination): self.destination = destination
    case .waiting(let pid, _): waitingFor = pid.map { "process \($0)" } ?? "another process"
    case .lockAcquired: waitingFor = nil
    default: break
    }
    queue.append(.attempt(event))
  }

  /// What follows an attempt: the end, another mirror, or another edition.
  private func decide(after result: Result<DownloadOutcome, CatalogError>) async {
    let error: CatalogError
    switch result {
    case .success(let done):
      if let mirror = sources[source] { outages?.forget(mirror) }
      end(.finished(done))
      return
    case .failure(let failure):
      error = failure
    }
    if let failed = sources[source], let reason = Self.switchReason(error) {
      mirrorFailures.append((failed, reason))
      if Self.costsAWait(error) { outages?.record(failed, reason: reason, at: Date()) }
      if source + 1 < sources.count, let next = sources[source + 1] {
        source += 1
        queue.append(.mirrorFailed(failed, reason: reason, next: next))
        return
      }
    }
    if request.format == nil, let status = Self.missingStatus(error) {
      var tried = format
      var remaining: [BookFormat]
      if let editions {
        remaining = editions
      } else {
        // The first edition was the service's choice: the first of these.
        let all = await editionsToTry()
        tried = all.first
        remaining = Array(all.dropFirst())
      }
      if let tried, !remaining.isEmpty {
        let next = remaining.removeFirst()
        editions = remaining
        format = next
        // A mirror that stalled on this edition goes last for the next one.
        sources = sources.enumerated().sorted { left, right in
          let leftFailed = mirrorFailures.contains { $0.mirror.base == left.element?.base }
          let rightFailed = mirrorFailures.contains { $0.mirror.base == right.element?.base }
          return leftFailed == rightFailed ? left.offset < right.offset : !leftFailed
        }.map(\.element)
        source = 0
        mirrorFailures = []
        queue.append(.editionMissing(tried, status: status, next: next))
        return
      }
    }
    end(
      .failed(
        DownloadPlanFailure(
          error: error, format: format, destination: destination, waitingFor: waitingFor,
          mirrorFailures: sources.count > 1 ? mirrorFailures : [])))
  }

  private func end(_ event: DownloadPlanEvent) {
    queue.append(event)
    ended = true
  }

  /// The editions the book has, in the order a download without a format tries them.
  private func editionsToTry() async -> [BookFormat] {
    guard let book = try? await service.book(id: request.id).book else { return [] }
    return BookFormat.preference.filter { $0.pick(from: book.formats) != nil }
  }

  /// Why the mirror could not serve the file, when another mirror may: it has no such file
  /// (404, 410), fails (5xx), cannot be reached or stalls. Nil for the failures another mirror
  /// would not change (Ctrl-C, the disk, an existing file).
  static func switchReason(_ error: CatalogError) -> String? {
    guard case .download(let failure) = error else { return nil }
    switch failure {
    case .server(.http(let status, _, _)), .server(.serverError(let status, _)),
      .failedAfterRetries(.serverError(let status, _), _, _):
      return "HTTP \(status)"
    case .stalled(_, let after, _, _):
      return "nothing received for \(DownloadError.seconds(after))"
    case .server(.unreachable(_, let reason)),
      .failedAfterRetries(.unreachable(_, let reason), _, _):
      return reason
    case .notTheFile(_, let reason):
      return reason
    case .server, .failedAfterRetries, .lengthMismatch, .tooManyRedirects, .redirectRefused:
      return failure.description
    case .interrupted, .disk, .exists:
      return nil
    }
  }

  /// Whether the failure cost a wait worth not paying again (a stall, a timeout): only those
  /// are remembered across processes.
  static func costsAWait(_ error: CatalogError) -> Bool {
    guard case .download(let failure) = error else { return false }
    switch failure {
    case .stalled, .server(.timedOut), .failedAfterRetries(.timedOut, _, _),
      .server(.tooSlow), .failedAfterRetries(.tooSlow, _, _):
      return true
    default:
      return false
    }
  }

  /// `HTTP 404` or `HTTP 410` when the server has no such file; nil for any other failure.
  static func missingStatus(_ error: CatalogError) -> String? {
    guard case .download(.server(.http(let status, _, _))) = error, status == 404 || status == 410
    else { return nil }
    return "HTTP \(status)"
  }
}

/// The events and the end of one attempt, left from any thread (the download's callbacks, its
/// task) and taken by the plan's iterator, which waits here while there is nothing.
final class PlanInbox: Sendable {
  private struct State {
    var events: [DownloadEvent] = []
    var result: Result<DownloadOutcome, CatalogError>?
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = Mutex(State())

  /// An event of the attempt.
  func push(_ event: DownloadEvent) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.events.append(event)
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// The attempt's end.
  func finish(_ result: Result<DownloadOutcome, CatalogError>) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.result = result
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// The events so far (in order) and the end, once there is one.
  func take() -> ([DownloadEvent], Result<DownloadOutcome, CatalogError>?) {
    state.withLock { state in
      defer { state.events = [] }
      return (state.events, state.events.isEmpty ? state.result : nil)
    }
  }

  /// Returns once there is an event or the end.
  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if !state.events.isEmpty || state.result != nil { return true }
        state.waiter = continuation
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
