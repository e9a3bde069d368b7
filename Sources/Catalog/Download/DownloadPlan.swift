import Foundation
import Gutendex
import Synchronization

/// One book's download across the mirrors and editions it may come from, as a sequence of
/// events the front only prints: each attempt's own events (the file named, a wait for another
/// process, progress), a mirror that could not serve and the next one tried, an edition the
/// server lacks and the next one tried, and the end (``DownloadPlanEvent/finished(_:)`` or
/// ``DownloadPlanEvent/failed(_:)``), after which the sequence ends.
///
/// The order: without a format, each edition of ``BookFormat/preference`` the book has, and for
/// each every mirror in turn (the preferred edition from any mirror beats a lesser one from the
/// first). A mirror that could not be reached or stalled, here or in another process a few
/// minutes ago, is tried last (``MirrorOutage``), so one dead mirror does not cost a stall per
/// edition on every command.
///
/// Cancelling the task that iterates (Ctrl-C) stops the download in flight; the sequence then
/// still delivers the failure that says what was kept, and ends.
public struct DownloadPlan: AsyncSequence, Sendable {
  /// One event of the plan.
  public typealias Element = DownloadPlanEvent

  let service: CatalogService
  let request: DownloadPlanRequest

  /// Iterates the plan, one attempt at a time.
  public func makeAsyncIterator() -> Iterator {
    Iterator(run: DownloadPlanRun(service: service, request: request))
  }

  /// The plan's events in order.
  public struct Iterator: AsyncIteratorProtocol {
    let run: DownloadPlanRun

    /// The next event, nil once the plan has ended.
    public mutating func next() async -> DownloadPlanEvent? {
      await run.next()
    }
  }
}

/// What happened during a ``DownloadPlan``.
public enum DownloadPlanEvent: Sendable {
  /// An event of the attempt in flight.
  case attempt(DownloadEvent)
  /// `mirror` could not serve the file (`reason`); `next` is tried.
  case mirrorFailed(DownloadMirror, reason: String, next: DownloadMirror)
  /// `mirror` failed a few minutes ago (`reason`): it is tried after the others.
  case mirrorPutLast(DownloadMirror, reason: String)
  /// The edition `format` is not on the server (`status`, e.g. `HTTP 404`); `next` is tried.
  case editionMissing(BookFormat, status: String, next: BookFormat)
  /// The book is on disk (and in the library, unless the outcome says otherwise).
  case finished(DownloadOutcome)
  /// The plan ended without the book.
  case failed(DownloadPlanFailure)
}

/// Why a ``DownloadPlan`` ended without the book: the last attempt's error, the edition it
/// asked for, where the file was to go, and, when several mirrors were tried, why each failed.
public struct DownloadPlanFailure: Error, Sendable {
  /// The last attempt's error.
  public var error: CatalogError
  /// The edition asked for last.
  public var format: BookFormat?
  /// The file the last attempt wrote to, once named.
  public var destination: URL?
  /// Who held the file's lock when the attempt was stopped while waiting for it.
  public var waitingFor: String?
  /// Each mirror and why it could not serve, when more than one was tried; empty otherwise.
  public var mirrorFailures: [(mirror: DownloadMirror, reason: String)]

  /// A failure with `error`, nothing else known.
  public init(
    error: CatalogError, format: BookFormat? = nil, destination: URL? = nil,
    waitingFor: String? = nil, mirrorFailures: [(mirror: DownloadMirror, reason: String)] = []
  ) {
    self.error = error
    self.format = format
    self.destination = destination
    self.waitingFor = waitingFor
    self.mirrorFailures = mirrorFailures
  }
}

/// What a ``DownloadPlan`` is asked for.
public struct DownloadPlanRequest: Sendable {
  /// The Project Gutenberg number.
  public var id: Int
  /// The edition; nil: the preferred one the book has, then the next ones when it is missing.
  public var format: BookFormat?
  /// The directory or file to save into.
  public var target: DownloadTarget
  /// Replace an existing file.
  public var replace: Bool
  /// The mirrors to fetch from, in order; empty: Project Gutenberg itself.
  public var mirrors: [DownloadMirror]
  /// A transfer that receives nothing for this long fails as stalled.
  public var stallTimeout: Duration
  /// The slowest a transfer may go (nil: no minimum).
  public var minimumSpeed: MinimumSpeed?
  /// Cleans the title before it names the file (the front's sanitizer).
  public var cleanTitle: @Sendable (String) -> String
  /// Where mirrors that failed recently are remembered across processes; nil: not remembered.
  public var mirrorMemory: URL?

  /// A request for book `id`.
  public init(
    id: Int, format: BookFormat? = nil, target: DownloadTarget, replace: Bool = false,
    mirrors: [DownloadMirror] = [], stallTimeout: Duration = .seconds(30),
    minimumSpeed: MinimumSpeed? = .standard,
    cleanTitle: @escaping @Sendable (String) -> String = { $0 }, mirrorMemory: URL? = nil
  ) {
    self.id = id
    self.format = format
    self.target = target
    self.replace = replace
    self.mirrors = mirrors
    self.stallTimeout = stallTimeout
    self.minimumSpeed = minimumSpeed
    self.cleanTitle = cleanTitle
    self.mirrorMemory = mirrorMemory
  }
}

extension CatalogService {
  /// The download of one book across its mirrors and editions, as events (see
  /// ``DownloadPlan``).
  public func downloadPlan(_ request: DownloadPlanRequest) -> DownloadPlan {
    DownloadPlan(service: self, request: request)
  }
}
