import Catalog
import Foundation

/// `gutenberg sync`: brings the local catalogue up to date (new books, your books; the feed
/// when due or asked for), showing its progress on a terminal, then prints one line (or JSON).
package struct SyncRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// `gutenberg sync`: brings the local catalogue up to date and prints one line (or JSON).
  /// `feed` (`--feed`, or `--full`, which means the feed) refreshes from Project Gutenberg's
  /// feed whatever its age; `feedURL` and `feedMaxAge` are `--feed-url` and `--feed-max-age`.
  package func run(
    full: Bool, feed: Bool = false, feedURL: String? = nil, feedMaxAge: String? = nil,
    pgURL: String? = nil, format: ListFormat
  ) async -> ExitStatus {
    let policy: FeedOptions
    let sources: SyncSources
    do {
      sources = try AppConfiguration.syncSources(options, pgURL: pgURL)
      policy = try AppConfiguration.feedOptions(
        options.environment, url: feedURL, maxAge: feedMaxAge, force: feed || full,
        siteFeed: sources.siteFeed)
    } catch {
      return fail(error.message, error.status)
    }
    let service = self.service
    let progress = SyncProgress()
    let task = Task { () -> Result<SyncReport, CatalogError> in
      do throws(CatalogError) {
        return .success(
          try await service.syncCatalogue(feed: policy, sources: sources, events: progress.record))
      } catch {
        return .failure(error)
      }
    }
    // Ctrl-C cancels the request in flight; what arrived is kept for the next sync.
    let interrupts = InterruptHandler {}
    interrupts.begin { task.cancel() }
    let signalSource = interrupts.install()
    defer { interrupts.uninstall(signalSource) }
    let meter = showSyncProgress(progress)
    let result = await task.value
    meter?.cancel()
    await meter?.value
    output.clearProgress()
    let run: SyncReport
    switch result {
    case .success(let value): run = value
    case .failure(let error): return fail(error)
    }
    switch format {
    case .json:
      var object = SyncText.object(run)
      let counts = service.syncCounts()
      object["books"] = counts?.books ?? NSNull()
      object["feed"] = SyncText.feedObject(run.feed)
      object["base_books"] = counts?.baseBooks ?? NSNull()
      object["added_books"] = counts?.addedBooks ?? NSNull()
      object["synced_books"] = counts?.syncedBooks ?? NSNull()
      object["removed_ids"] = run.removedIDs
      if let found = await service.arrivals(of: run) {
        object["new"] = [
          "books": found.total, "by_authors_you_keep": found.byAuthorsYouKeep,
          "in_subjects_you_keep": found.inSubjectsYouKeep,
        ]
      }
      output.print(JSONText.object(object))
    case .automatic:
      // On standard error, so standard output stays the one summary line scripts read.
      if let line = SyncText.feedLine(run.feed) {
        output.printError(line.isError ? "error: \(line.text)" : line.text)
      }
      if run.result == .failed {
        output.printError("error: sync failed: \(Sanitizer.sanitize(run.note ?? "unknown"))")
      } else {
        output.print(SyncText.summary(run))
        if let note = run.note { output.printError("note: \(Sanitizer.sanitize(note))") }
        // What arrived, on standard error: standard output stays the one summary line.
        if let found = await service.arrivals(of: run),
          let line = NewRunner.arrivalLine(found, hint: "gutenberg new")
        {
          output.printError(line)
        }
      }
    }
    if let feed = run.feed, feed.result == .failed, policy.force, Self.status(of: run) == .ok {
      // The feed was asked for and could not be had: the walk's success does not hide it.
      var failed = run
      failed.cause = feed.cause ?? .unavailable
      return Self.status(of: failed)
    }
    return Self.status(of: run)
  }

  /// On a terminal, redraws `sync: 12 pages · 384 books · 3.1 pages/s` (or the feed's bytes
  /// and books) on standard error every quarter second until cancelled (the caller then erases
  /// it); nothing when piped.
  func showSyncProgress(_ progress: SyncProgress) -> Task<Void, Never>? {
    guard output.errorIsTerminal else { return nil }
    let output = self.output
    let started = ContinuousClock.now
    return Task.detached(priority: .utility) {
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(250))
        if Task.isCancelled { break }
        let seconds = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
        output.showProgress(SyncProgress.text(progress.current, seconds: seconds))
      }
    }
  }

  /// The exit status of a sync: 0 when it went well, else by what stopped it.
  nonisolated static func status(of run: SyncReport) -> ExitStatus {
    switch run.cause {
    case nil: run.result == .ok ? .ok : .failure
    case .cancelled?: .interrupted
    case .unavailable?, .rateLimited?: .unavailable
    case .badData?: .dataError
    case .files?, .busy?: .failure
    }
  }

}
