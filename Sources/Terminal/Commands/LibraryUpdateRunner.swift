import Catalog
import Foundation
import Gutendex
import Synchronization

/// `gutenberg library update [ID...]`: asks the mirror, one conditional request at a time and
/// at most two a second, whether each downloaded file changed, replaces the ones that did
/// (atomically: the old file stays whole until the new one is complete), keeps their bookmarks
/// and highlights, and prints one summary line (or JSON).
package struct LibraryUpdateRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// What happened to one file, for the summary and `--json`.
  struct Checked {
    var entry: LibraryEntry
    var outcome: LibraryUpdateOutcome?
    var error: String?
    var status: ExitStatus = .ok
    var bookmarks = Bookmarks()
  }

  /// The bookmarks of an updated book: kept; highlights found again moved to their words.
  struct Bookmarks {
    /// Bookmarks (and highlights not found again) that may now point elsewhere.
    var mayHaveMoved = 0
    /// Highlights whose words were found again, at another offset, and moved there.
    var highlightsMoved = 0
  }

  /// Checks every download (or those of `ids`) against `mirrors` (none: the configured ones,
  /// else Project Gutenberg's bulk mirror); `dryRun` asks but writes nothing.
  package func run(ids: [Int], mirrors texts: [String], dryRun: Bool, format: ListFormat) async
    -> ExitStatus
  {
    var mirrors: [DownloadMirror]
    switch GetRunner.mirrors(texts, configuration: configuration) {
    case .success(let value): mirrors = value
    case .failure(let failure): return fail(failure.message, .usage)
    }
    let pause: Duration
    do throws(SyncSourcesError) {
      // The same pause as the daily sync's records (GUTENBERG_PG_PAUSE, 0.5 s by default).
      let variable = options.environment["GUTENBERG_PG_PAUSE"].flatMap { $0.isEmpty ? nil : $0 }
      pause = try SyncSources.pause(variable)
    } catch {
      return fail(Sanitizer.sanitize(error.message), .usage)
    }
    let entries: [LibraryEntry]
    do {
      entries = try await service.downloads()
    } catch {
      return fail(error)
    }
    var checked: [Checked] = []
    let wanted = Set(ids)
    let chosen = ids.isEmpty ? entries : entries.filter { wanted.contains($0.id) }
    let held = Set(entries.map(\.id))
    for id in ids where !held.contains(id) {
      // Every id the library lacks is one line, and a failed check, after the others are done.
      checked.append(
        Checked(
          entry: LibraryEntry(
            id: id, format: "", title: "", path: "", size: 0, fetchedAt: Date(), validator: nil,
            url: ""),
          error: "\(id) is not in the library", status: .failure))
    }
    for missing in checked { report(missing, dryRun: dryRun, quiet: format == .json) }
    if mirrors.isEmpty, !chosen.isEmpty {
      // A series of downloads: PG's robot rules send them to its mirrors, not to www.
      mirrors = DownloadMirror.bulkDefault
      if format != .json {
        let hosts = mirrors.compactMap { $0.base.host }.joined(separator: ", ")
        output.printError(
          "note: the files are checked at Project Gutenberg's mirror \(hosts), as PG asks of "
            + "bulk downloads (--mirror names another)")
      }
    }
    let requests = Mutex(0)
    let pacer = RequestPacer(pause: pause)
    let interrupts = InterruptHandler.stoppingWhenIdle()
    let signalSource = interrupts.install()
    defer { interrupts.uninstall(signalSource) }
    var interrupted = false
    for (number, entry) in chosen.enumerated() {
      if interrupts.pressedWhileIdle {
        interrupted = true
        break
      }
      let request = LibraryUpdateRequest(
        entry: entry, mirrors: mirrors, dryRun: dryRun, pacer: pacer,
        stallTimeout: configuration.stallTimeout, minimumSpeed: configuration.minimumSpeed,
        observer: { _ in requests.withLock { $0 += 1 } })
      var result = await check(request, number: number + 1, of: chosen.count, interrupts)
      if case .updated? = result.outcome?.kind {
        result.bookmarks = await keepBookmarks(of: entry)
      }
      report(result, dryRun: dryRun, quiet: format == .json)
      checked.append(result)
      if result.status == .interrupted {
        interrupted = true
        break
      }
    }
    let summary = Summary(checked: checked, requests: requests.withLock { $0 }, dryRun: dryRun)
    switch format {
    case .json: output.print(summary.json)
    case .automatic: output.print(summary.line)
    }
    if interrupted { return fail("interrupted; every library file is whole", .interrupted) }
    return summary.status
  }

  /// One file's check, with the progress line on a terminal; Ctrl-C stops it (the old file
  /// stays whole).
  private func check(
    _ request: LibraryUpdateRequest, number: Int, of count: Int, _ interrupts: InterruptHandler
  ) async -> Checked {
    let watch = DownloadWatch(output: output, quiet: false)
    let service = self.service
    let task = Task { () -> Result<LibraryUpdateOutcome, LibraryUpdateFailure> in
      do throws(LibraryUpdateFailure) {
        return .success(try await service.updateDownload(request) { watch.show($0) })
      } catch {
        return .failure(error)
      }
    }
    interrupts.begin { task.cancel() }
    let result = await task.value
    interrupts.end()
    watch.meter?.clear()
    var checked = Checked(entry: request.entry)
    switch result {
    case .success(let outcome):
      checked.outcome = outcome
    case .failure(let failure):
      let error = failure.error
      var status = ExitStatus(error)
      if case .download(let download) = error, case .interrupted = download {
        status = .interrupted
      }
      if case .cancelled = error { status = .interrupted }
      let head =
        failure.mirrorFailures.isEmpty
        ? Sanitizer.sanitize(error.description)
        : "no mirror could serve it: " + BookDownload.mirrorList(failure.mirrorFailures)
      checked.error = head
      checked.status = status
    }
    return checked
  }

  /// The line for one file on standard error: what changed, or why it could not be checked.
  private func report(_ checked: Checked, dryRun: Bool, quiet: Bool) {
    let entry = checked.entry
    let name = "\(entry.id) \(Sanitizer.sanitize(entry.format))"
    if let error = checked.error {
      guard checked.status != .interrupted else { return }
      guard !entry.path.isEmpty else {
        output.printError("error: \(error)")
        return
      }
      output.printError("error: book \(name): \(error); the old file is kept")
      return
    }
    guard !quiet, let outcome = checked.outcome else { return }
    let path = Sanitizer.sanitize(entry.path)
    switch outcome.kind {
    case .updated:
      output.printError(
        "updated: \(name) \(path) (\(TextFormat.bytes(Int(outcome.before.size))) → "
          + "\(TextFormat.bytes(Int(outcome.after.size))))")
    case .wouldUpdate:
      output.printError("would update: \(name) \(path)")
    case .sameBytes:
      output.printError(
        "note: \(name): the mirror sent the file though it had not changed (the same bytes); "
          + "its validators are kept for next time")
    case .unchanged:
      break
    }
  }
}
