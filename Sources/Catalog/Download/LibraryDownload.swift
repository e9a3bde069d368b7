import Foundation
import Gutendex

/// One attempt at a book's file, with everything that keeps it safe: the edition and the file
/// name, the target's lock (one download per file at a time), the part files and their resume,
/// a file an earlier run published but did not record (adopted), and the library row. A
/// ``DownloadPlan`` runs one per mirror and edition it tries.
struct LibraryDownload: Sendable {
  let service: CatalogService

  /// Downloads book `request.id` and records it in the library.
  ///
  /// One download per target at a time: a second one waits for the first (reported once as
  /// ``DownloadEvent/waiting(pid:destination:)``) and then finds the file there. A file of the
  /// right size that an earlier run published but did not record (it was killed in between) is
  /// adopted instead of refused; so is a file the library already has at this path.
  func run(
    _ request: DownloadRequest, events: @escaping @Sendable (DownloadEvent) -> Void = { _ in }
  ) async throws(CatalogError) -> DownloadOutcome {
    let book = try await service.book(id: request.id).book
    let choice = try BookFormat.choose(request.format, for: book)
    let url = request.mirror?.rewrite(choice.url) ?? choice.url
    guard service.network.current != .simulatedOffline else {
      throw .needsNetwork("downloading book \(request.id)")
    }
    let destination: URL
    switch request.target {
    case .directory(let directory):
      destination = directory.appendingPathComponent(
        DownloadNaming.fileName(
          id: request.id, title: request.cleanTitle(book.title), choice: choice))
    case .file(let file):
      destination = file
    }
    let lock = try await LibraryDownload.lock(destination, events: events)
    defer { lock.release() }
    let entry = LibraryEntry(
      id: request.id, format: choice.format.description, title: request.cleanTitle(book.title),
      path: destination.path, size: 0, fetchedAt: service.now(), validator: nil,
      // Stored without credentials: the library is no place for a mirror's password.
      url: url.redacted)
    if !request.replace, let found = try await existing(entry, at: destination) {
      return found
    }
    let partial = PartialDownload(destination: destination)
    if case .regular = DownloadFile.kind(partial.infoURL.path),
      case .damaged(let reason) = partial.sidecar()
    {
      events(.sidecarIgnored(path: partial.infoURL.path, reason: reason))
      partial.remove()
    }
    // Through the client's pipeline: each request is in the log `status` shows and in
    // `--verbose`, as the pages' are.
    let downloader = Downloader(
      pipeline: service.client.pipeline.observed(by: request.observer),
      stallTimeout: request.stallTimeout, minimumSpeed: request.minimumSpeed)
    let result: DownloadResult
    do {
      result = try await downloader.download(
        from: url, to: destination, replace: request.replace, markPublished: true,
        sameFile: request.otherSources.map { $0?.rewrite(choice.url) ?? choice.url },
        // An HTML page or junk from a mirror is a failed mirror, not a saved book.
        expecting: ExpectedContent(mimeType: choice.mimeType)
      ) { events(.progress($0)) }
    } catch {
      throw .download(error)
    }
    var recorded = entry
    recorded.size = result.size
    recorded.validator = result.validator
    recorded.etag = result.etag
    recorded.lastModified = result.lastModified
    recorded.fetchedAt = service.now()
    return await record(recorded, kind: .downloaded, result: result, destination: destination)
  }

  /// The outcome for a file already at `destination`, when it is ours: published by a run that
  /// was killed before recording it (its mark has this URL and the file's size), or already in
  /// the library at this path with this size. Nil: someone else's file.
  /// Takes the download lock of `destination` (waiting for another process's download of
  /// it), saying so through `events`: started, waiting (with the holder's pid), acquired. The
  /// caller releases it.
  static func lock(
    _ destination: URL, events: @escaping @Sendable (DownloadEvent) -> Void
  ) async throws(CatalogError) -> DownloadLock {
    events(.started(destination: destination))
    let lock: DownloadLock
    do {
      lock = try await DownloadLock.acquire(for: destination) { pid in
        events(.waiting(pid: pid, destination: destination))
      }
    } catch {
      throw .download(error)
    }
    events(.lockAcquired)
    return lock
  }

  func existing(_ entry: LibraryEntry, at destination: URL) async throws(CatalogError)
    -> DownloadOutcome?
  {
    guard case .regular(let size) = DownloadFile.kind(destination.path) else { return nil }
    if let mark = PublishedMark.read(for: destination), mark.url == entry.url, mark.size == size {
      var adopted = entry
      adopted.size = size
      adopted.validator = mark.validator
      return await record(adopted, kind: .adopted, result: nil, destination: destination)
    }
    let rows = try await service.downloads(id: entry.id)
    if let row = rows.first(where: {
      $0.path == destination.path && $0.format == entry.format && $0.size == size
    }) {
      return DownloadOutcome(entry: row, kind: .alreadyThere)
    }
    return nil
  }

  /// Records `entry`, then removes the published mark; when recording fails the mark stays, so
  /// the next download of the target adopts the file.
  private func record(
    _ entry: LibraryEntry, kind: DownloadOutcome.Kind, result: DownloadResult?, destination: URL
  ) async -> DownloadOutcome {
    do {
      try await service.recordDownload(entry)
    } catch {
      return DownloadOutcome(entry: entry, kind: kind, result: result, recordProblem: error)
    }
    Downloader.confirmRecorded(destination)
    return DownloadOutcome(entry: entry, kind: kind, result: result)
  }
}
