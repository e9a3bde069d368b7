import Catalog
import Foundation
import GutendexEngine

extension GutenbergApp {
  /// The local-first and background-sync policy from the options and the environment.
  static func syncPolicy(_ options: AppOptions, source: AppOptions.Source) throws(AppStartError)
    -> SyncPolicy
  {
    let environment = options.environment
    func seconds(_ given: Double?, _ variable: String, _ flag: String) throws(AppStartError)
      -> Double?
    {
      if let given { return given }
      guard let text = environment[variable], !text.isEmpty else { return nil }
      guard let value = SyncText.duration(text) else {
        throw AppStartError(
          message: "\(variable): '\(Sanitizer.sanitize(text))' is not a duration like \(flag)",
          status: .usage)
      }
      return value
    }
    let maxAge = try seconds(options.maxAge, "GUTENBERG_MAX_AGE", "7d") ?? SyncPolicy.defaultMaxAge
    let interval =
      try seconds(options.syncInterval, "GUTENBERG_SYNC_INTERVAL", "24h")
      ?? SyncPolicy.defaultInterval
    return SyncPolicy(
      maxAge: source == .auto ? maxAge : nil, interval: interval,
      backgroundSync: !options.offline && (source == .auto || source == .server))
  }

  /// `gutenberg sync`: brings the local catalogue up to date and prints one line (or JSON).
  public func sync(full: Bool, format: ListFormat) async -> ExitStatus {
    if full {
      do {
        let requests = try await service.fullSyncEstimate()
        output.printError(
          "Full refresh: about \(TextFormat.plural(requests, "request")), one at a time")
      } catch {
        return fail(error)
      }
    }
    let service = self.service
    let task = Task { () -> Result<SyncRun, CatalogError> in
      do throws(CatalogError) {
        return .success(try await service.syncCatalogue(full: full))
      } catch {
        return .failure(error)
      }
    }
    // Ctrl-C cancels the request in flight; what arrived is kept for the next sync.
    let interrupts = InterruptHandler { _ in }
    interrupts.begin { task.cancel() }
    let signalSource = interrupts.install()
    defer { interrupts.uninstall(signalSource) }
    let run: SyncRun
    switch await task.value {
    case .success(let value): run = value
    case .failure(let error): return fail(error)
    }
    switch format {
    case .json:
      var object = SyncText.object(run)
      let state = try? service.syncState()
      object["books"] = state?.bookCount ?? NSNull()
      object["synced_books"] = state?.syncedBooks ?? NSNull()
      output.print(Self.json(object))
    case .automatic:
      if run.result == .failed {
        output.printError("error: sync failed: \(Sanitizer.sanitize(run.note ?? "unknown"))")
      } else {
        output.print(SyncText.summary(run))
        if let note = run.note { output.printError("note: \(Sanitizer.sanitize(note))") }
      }
    }
    return Self.status(of: run)
  }

  /// The exit status of a sync: 0 when it went well, else by what stopped it.
  static func status(of run: SyncRun) -> ExitStatus {
    switch run.cause {
    case nil: run.result == .ok ? .ok : .failure
    case .cancelled?: .interrupted
    case .unavailable?, .rateLimited?: .unavailable
    case .badData?: .dataError
    case .files?, .busy?: .failure
    }
  }

  /// `gutenberg sync --log`: the last 20 syncs, oldest first.
  public func syncLog(format: ListFormat) async -> ExitStatus {
    let state: SyncState?
    do {
      state = try service.syncState()
    } catch {
      return fail(error)
    }
    let runs = state?.runs ?? []
    switch format {
    case .json:
      let objects = runs.map(SyncText.object)
      let data =
        (try? JSONSerialization.data(
          withJSONObject: objects, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]))
        ?? Data("[]".utf8)
      output.print(String(decoding: data, as: UTF8.self))
    case .automatic:
      if runs.isEmpty { output.printError("No sync yet: `gutenberg sync` makes the first.") }
      for run in runs { output.print(SyncText.logLine(run, timeZone: .current)) }
    }
    return .ok
  }
}
