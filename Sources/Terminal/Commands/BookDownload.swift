import Catalog
import Foundation
import Gutendex

/// One book fetched through its ``DownloadPlan`` (mirrors, then editions), shown as it goes:
/// the progress line, a note for each mirror or edition passed over, and at the end the saved
/// line or one error line saying what was kept and the command that resumes it. `get`, `read`
/// and the browser's `d` all download this way.
package struct BookDownload: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// A download that did not finish: the message is printed, the status returned.
  struct Failure: Error {
    var status: ExitStatus
    var interrupted = false
  }

  /// Downloads book `id` (its preferred edition when `format` is nil) into `target`, from
  /// `mirrors` in turn (none: Project Gutenberg). `interrupts`: Ctrl-C stops the download in
  /// flight (in the browser, cancelling the command's task does).
  func run(
    id: Int, format: BookFormat?, target: DownloadTarget, force: Bool, quiet: Bool,
    mirrors: [DownloadMirror], interrupts: InterruptHandler?
  ) async -> Result<LibraryEntry, Failure> {
    let request = DownloadPlanRequest(
      id: id, format: format, target: target, replace: force, mirrors: mirrors,
      stallTimeout: configuration.stallTimeout, minimumSpeed: configuration.minimumSpeed,
      cleanTitle: { Sanitizer.title($0) },
      mirrorMemory: configuration.location.dataDirectory.appendingPathComponent("mirrors-down"))
    let plan = service.downloadPlan(request)
    let watch = DownloadWatch(output: output, quiet: quiet)
    let output = self.output
    let task = Task { () -> Result<DownloadOutcome, DownloadPlanFailure> in
      for await event in plan {
        switch event {
        case .attempt(let event):
          watch.show(event)
        case .mirrorFailed(let failed, let reason, let next):
          watch.meter?.clear()
          output.printError(
            "note: \(Sanitizer.sanitize(failed.base.redacted)) could not serve "
              + "\(watch.destination?.lastPathComponent ?? "book \(id)") "
              + "(\(Sanitizer.sanitize(reason))); trying \(Sanitizer.sanitize(next.base.redacted))")
        case .mirrorPutLast(let mirror, let reason):
          guard !quiet else { continue }
          output.printError(
            "note: \(Sanitizer.sanitize(mirror.base.redacted)) failed a few minutes ago "
              + "(\(Sanitizer.sanitize(reason))); it is tried last")
        case .editionMissing(let tried, let status, let next):
          watch.meter?.clear()
          output.printError(
            "note: \(Self.who(mirrors)) has no \(tried) file of book \(id) (\(status)); "
              + "trying \(next)")
        case .finished(let done):
          return .success(done)
        case .failed(let failure):
          return .failure(failure)
        }
      }
      return .failure(
        DownloadPlanFailure(
          error: .cancelled, format: format, destination: nil, waitingFor: nil, mirrorFailures: []))
    }
    interrupts?.begin { task.cancel() }
    let outcome = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    interrupts?.end()
    switch outcome {
    case .success(let done):
      if let problem = done.recordProblem {
        output.printError("warning: not recorded in the library: \(problem.description)")
      }
      // The final line is made (and the progress line cleared) first; notes, for a person
      // watching, say how the file came to be (resumed, fetched again) before the line that
      // it is saved. A pipe gets only the path (on standard output).
      let saved = done.result.flatMap { watch.meter?.finish(size: $0.size) }
      if !quiet, output.errorIsTerminal { DownloadNotes.print(done, to: output) }
      if let saved { output.printError("Saved \(saved)") }
      return .success(done.entry)
    case .failure(let failure):
      watch.meter?.clear()
      return .failure(report(failure, id: id, target: target, mirrors: mirrors))
    }
  }

  /// Who lacked a file, in the note that moves on to the next edition.
  nonisolated static func who(_ mirrors: [DownloadMirror]) -> String {
    switch mirrors.count {
    case 0: "Project Gutenberg"
    case 1: "the mirror"
    default: "none of the \(mirrors.count) mirrors"
    }
  }

  /// Prints why the plan failed, and how to resume when a part was kept.
  private func report(
    _ failure: DownloadPlanFailure, id: Int, target: DownloadTarget, mirrors: [DownloadMirror]
  ) -> Failure {
    let error = failure.error
    if case .needsNetwork = error {
      // Offline: a mirror is reached over the network too, so the way on is the same.
      return Failure(
        status: fail(
          "\(Sanitizer.sanitize(error.description)); a --mirror is reached over the network too",
          ExitStatus(error)))
    }
    guard case .download(let download) = error else { return Failure(status: fail(error)) }
    if case .interrupted = download, let holder = failure.waitingFor {
      // Stopped before it began: nothing was written, nothing is kept.
      let status = fail("interrupted while waiting for \(holder); nothing written", .interrupted)
      return Failure(status: status, interrupted: true)
    }
    let command = ResumeCommand(configuration: configuration).line(
      id: id, format: failure.format, target: target, mirrors: mirrors)
    // The command carries no password: it comes from ~/.netrc then.
    let credentials =
      mirrors.contains { $0.base.user != nil } ? " (with the mirror's login in ~/.netrc)" : ""
    let kept =
      if download.resumable, let destination = failure.destination {
        "; the partial file \(destination.path).part is kept: run `\(command)` to resume"
          + credentials
      } else { "" }
    // Every mirror failed: one line naming each and why; the file is unavailable (69).
    let head =
      failure.mirrorFailures.isEmpty
      ? Sanitizer.sanitize(download.description)
      : "no mirror could serve book \(id): " + Self.mirrorList(failure.mirrorFailures)
    let text = head + kept + Self.mirrorHint(download, mirror: mirrors.first)
    let status = fail(text, failure.mirrorFailures.isEmpty ? ExitStatus(download) : .unavailable)
    // Ctrl-C: the shell's convention, so a script can tell it from a failed download.
    return Failure(status: status, interrupted: status == .interrupted)
  }

  /// Each mirror that failed and why, sanitized (the address without its password):
  /// `http://a/ (timed out), http://b/ (404)`.
  nonisolated static func mirrorList(_ failures: [(mirror: DownloadMirror, reason: String)])
    -> String
  {
    failures.map {
      "\(Sanitizer.sanitize($0.mirror.base.redacted)) (\(Sanitizer.sanitize($0.reason)))"
    }.joined(separator: ", ")
  }

  /// ` (--mirror URL …)` after a download that failed because the file's server could not be
  /// reached or would not serve; empty when a mirror was used or the failure was not the
  /// server's.
  nonisolated static func mirrorHint(_ error: DownloadError, mirror: DownloadMirror?) -> String {
    guard mirror == nil else { return "" }
    switch error {
    case .server(let server), .failedAfterRetries(let server, _, _):
      guard server.isUnavailable else { return "" }
      return " (--mirror URL fetches the files from a Project Gutenberg mirror instead)"
    default:
      return ""
    }
  }
}
