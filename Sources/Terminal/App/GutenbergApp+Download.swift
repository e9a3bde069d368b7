import Catalog
import Foundation
import Gutendex

/// `gutenberg get`: books to disk, with progress, resume, and a row in the library.
extension GutenbergApp {
  /// Where one download goes.
  typealias Target = DownloadTarget

  /// A download that did not finish: the message is printed, the status returned.
  struct GetFailure: Error {
    var status: ExitStatus
    var interrupted = false
  }

  /// `gutenberg get ID...`.
  package func get(_ request: GetRequest) async -> ExitStatus {
    var format: BookFormat?
    if let text = request.format {
      guard let parsed = BookFormat(argument: text) else {
        return fail(
          "--format: '\(Sanitizer.sanitize(text))' is not a format (epub, epub-noimages, txt, "
            + "html, mobi, or a MIME type such as text/plain)", .usage)
      }
      format = parsed
    }
    let mirrors: [DownloadMirror]
    switch downloadMirrors(request.mirrors) {
    case .success(let value): mirrors = value
    case .failure(let failure): return failure.status
    }
    let target: Target
    switch downloadTarget(request.output, count: request.ids.count) {
    case .success(let value): target = value
    case .failure(let failure): return failure.status
    }
    // Ctrl-C cancels the download in flight; between books it stops the command, which
    // returns 130 through the main loop (the stores are closed on the way out).
    let interrupts = InterruptHandler.stoppingWhenIdle()
    let signalSource = interrupts.install()
    defer { interrupts.uninstall(signalSource) }
    var status = ExitStatus.ok
    for id in request.ids {
      if interrupts.pressedWhileIdle { return fail("interrupted", .interrupted) }
      let result = await download(
        id: id, format: format, target: target, force: request.force, quiet: request.quiet,
        mirrors: mirrors, interrupts: interrupts)
      switch result {
      case .success(let entry):
        output.print(entry.path)
      case .failure(let failure):
        status = failure.status
        if failure.interrupted { return status }
      }
    }
    return status
  }

  /// Every `--mirror`, else `GUTENBERG_MIRRORS`, else `GUTENBERG_MIRROR`, else none.
  func downloadMirrors(_ texts: [String]) -> Result<[DownloadMirror], GetFailure> {
    var mirrors: [DownloadMirror] = []
    for text in texts {
      guard let mirror = DownloadMirror(text) else {
        return .failure(badMirror("--mirror", text))
      }
      mirrors.append(mirror)
    }
    return .success(mirrors.isEmpty ? configuration.mirrors : mirrors)
  }

  private func badMirror(_ name: String, _ text: String) -> GetFailure {
    GetFailure(
      status: fail("\(name): '\(Sanitizer.sanitize(text))' is not an http(s) URL", .usage))
  }

  /// `-o` as a file or directory; several books need a directory.
  func downloadTarget(_ path: String?, count: Int) -> Result<Target, GetFailure> {
    guard let path = path.map({ HomePath.expand($0) }) ?? configuration.downloadDirectory else {
      return .success(
        .directory(URL(fileURLWithPath: FileManager.default.currentDirectoryPath)))
    }
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if (exists && isDirectory.boolValue) || path.hasSuffix("/") {
      if !exists {
        do {
          try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true)
        } catch {
          return .failure(
            GetFailure(
              status: fail("cannot create \(path): \(InteractiveSession.reason(error))", .failure)))
        }
      }
      return .success(.directory(URL(fileURLWithPath: path, isDirectory: true)))
    }
    guard count == 1 else {
      return .failure(
        GetFailure(
          status: fail("-o must be a directory when getting several books (\(path))", .usage)))
    }
    let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      return .failure(
        GetFailure(status: fail("-o: the directory \(parent) does not exist", .usage)))
    }
    return .success(.file(URL(fileURLWithPath: path)))
  }

  /// Downloads one book through the service's intent and shows it happen: progress, notes,
  /// and the failure (printed here) with how to resume.
  func download(
    id: Int, format: BookFormat?, target: Target, force: Bool, quiet: Bool,
    mirrors: [DownloadMirror], interrupts: InterruptHandler?
  ) async -> Result<LibraryEntry, GetFailure> {
    // nil: Project Gutenberg itself, when no mirror is set.
    let sources: [DownloadMirror?] = mirrors.isEmpty ? [nil] : mirrors
    let minimumSpeed = configuration.minimumSpeed
    // Without --format, a file the server (or mirror) does not have (404, 410) hands over to
    // the next edition the book has, in the order of ``BookFormat/preference``. The editions
    // left are looked up on the first missing file only: most downloads never need them.
    // With several mirrors, each edition is asked of every mirror in turn before the next
    // edition: the preferred edition from any mirror beats a lesser one from the first.
    var editions: [BookFormat]?
    var current = format
    var watch: DownloadWatch
    var outcome: Result<DownloadOutcome, any Error>
    var source = 0
    var failures: [(mirror: DownloadMirror, reason: String)] = []
    while true {
      var building = DownloadRequest(
        id: id, format: current, target: target, replace: force, mirror: sources[source],
        stallTimeout: configuration.stallTimeout, minimumSpeed: minimumSpeed,
        // The file's requests (redirects included) go through the client's pipeline, whose
        // observer prints them with --verbose as it does the API's.
        cleanTitle: { Sanitizer.title($0) })
      building.otherSources = sources.enumerated().filter { $0.offset != source }.map(\.element)
      let request = building
      watch = DownloadWatch(output: output, quiet: quiet)
      let show = watch.show
      let task = Task { [service] in try await service.download(request, events: show) }
      interrupts?.begin { task.cancel() }
      // In the interactive browser, Ctrl-C cancels the command's task: pass that on.
      outcome = await withTaskCancellationHandler {
        await task.result
      } onCancel: {
        task.cancel()
      }
      interrupts?.end()
      if case .failure(let thrown) = outcome, let failed = sources[source],
        let reason = Self.switchReason(thrown)
      {
        failures.append((failed, reason))
        if source + 1 < sources.count {
          source += 1
          watch.meter?.clear()
          output.printError(
            "note: \(Sanitizer.sanitize(failed.base.redacted)) could not serve "
              + "\(watch.destination?.lastPathComponent ?? "book \(id)") (\(reason)); trying "
              + Sanitizer.sanitize(sources[source]?.base.redacted ?? ""))
          continue
        }
      }
      guard format == nil, case .failure(let thrown) = outcome, Self.isMissingFile(thrown)
      else { break }
      var tried = current
      var remaining: [BookFormat]
      if let editions {
        remaining = editions
      } else {
        // The first edition was the service's choice: the first of these.
        let all = await editionsToTry(id: id)
        tried = all.first
        remaining = Array(all.dropFirst())
      }
      guard !remaining.isEmpty, let tried else { break }
      let next = remaining.removeFirst()
      editions = remaining
      watch.meter?.clear()
      output.printError(
        "note: \(Self.who(mirrors)) has no \(tried) file of "
          + "book \(id) (\(Self.missingStatus(thrown))); trying \(next)")
      current = next
      source = 0
      failures = []
    }
    let progress = watch.meter
    switch outcome {
    case .success(let done):
      if let problem = done.recordProblem {
        output.printError("warning: not recorded in the library: \(problem.description)")
      }
      // The final line is made (and the progress line cleared) first; notes, for a person
      // watching, say how the file came to be (resumed, fetched again) before the line that
      // it is saved. A pipe gets only the path (on standard output).
      let saved = done.result.flatMap { progress?.finish(size: $0.size) }
      if !quiet, output.errorIsTerminal { printNote(done) }
      if let saved { output.printError("Saved \(saved)") }
      return .success(done.entry)
    case .failure(let thrown):
      progress?.clear()
      let error = CatalogError(thrown)
      if case .needsNetwork = error {
        // Offline: a mirror is reached over the network too, so the way on is the same.
        return .failure(
          GetFailure(
            status: fail(
              "\(Sanitizer.sanitize(error.description)); a --mirror is reached over the "
                + "network too", ExitStatus(error))))
      }
      guard case .download(let failure) = error else {
        return .failure(GetFailure(status: fail(error)))
      }
      let destination = watch.destination
      if case .interrupted = failure, let holder = watch.waitingFor {
        // Stopped before it began: nothing was written, nothing is kept.
        let status = fail("interrupted while waiting for \(holder); nothing written", .interrupted)
        return .failure(GetFailure(status: status, interrupted: true))
      }
      return .failure(
        report(
          failure, id: id, format: current, target: target, mirrors: mirrors,
          destination: destination, failures: sources.count > 1 ? failures : []))
    }
  }

  /// The editions book `id` has, in the order a download without `--format` tries them.
  private func editionsToTry(id: Int) async -> [BookFormat] {
    guard let book = try? await service.book(id: id).book else { return [] }
    return BookFormat.preference.filter { $0.pick(from: book.formats) != nil }
  }

  /// Who lacked a file, in the note that moves on to the next edition.
  static func who(_ mirrors: [DownloadMirror]) -> String {
    switch mirrors.count {
    case 0: "Project Gutenberg"
    case 1: "the mirror"
    default: "none of the \(mirrors.count) mirrors"
    }
  }

  /// Why the mirror could not serve the file, when another mirror may: it has no such file
  /// (404, 410), fails (5xx), cannot be reached or stalls. Nil for the failures another mirror
  /// would not change (Ctrl-C, the disk, an existing file).
  static func switchReason(_ thrown: any Error) -> String? {
    guard case .download(let failure) = CatalogError(thrown) else { return nil }
    switch failure {
    case .server(.http(let status, _, _)), .server(.serverError(let status, _)),
      .failedAfterRetries(.serverError(let status, _), _, _):
      return "HTTP \(status)"
    case .stalled(_, let after, _, _):
      return "nothing received for \(DownloadError.seconds(after))"
    case .server(.unreachable(_, let reason)),
      .failedAfterRetries(.unreachable(_, let reason), _, _):
      return Sanitizer.sanitize(reason)
    case .notTheFile(_, let reason):
      return Sanitizer.sanitize(reason)
    case .server, .failedAfterRetries, .lengthMismatch, .tooManyRedirects, .redirectRefused:
      return Sanitizer.sanitize(failure.description)
    case .interrupted, .disk, .exists:
      return nil
    }
  }

  /// True when the download failed because the server has no such file (404 or 410).
  static func isMissingFile(_ thrown: any Error) -> Bool {
    missingStatusCode(thrown) != nil
  }

  static func missingStatus(_ thrown: any Error) -> String {
    missingStatusCode(thrown).map { "HTTP \($0)" } ?? "missing"
  }

  private static func missingStatusCode(_ thrown: any Error) -> Int? {
    guard case .download(.server(.http(let status, _, _))) = CatalogError(thrown),
      status == 404 || status == 410
    else { return nil }
    return status
  }

  /// The note after a download, for a person watching.
  private func printNote(_ done: DownloadOutcome) {
    switch done.kind {
    case .adopted:
      output.printError(
        "note: an earlier download finished this file but stopped before recording it; "
          + "recorded it now")
    case .alreadyThere:
      output.printError("note: already downloaded")
    case .downloaded:
      guard let result = done.result else { return }
      switch result.restart {
      case .rangeNotSupported?:
        output.printError(
          "note: the server did not resume the partial download; fetched it again in full")
      case .validatorChanged?:
        output.printError(
          "note: the file changed on the server since the partial download; fetched it again")
      case nil:
        if result.resumedFrom > 0 {
          output.printError(
            "note: resumed at \(TextFormat.bytes(Int(result.resumedFrom))) of "
              + TextFormat.bytes(Int(result.size)))
        }
      }
    }
  }

  /// Prints why a download failed, and how to resume when a part was kept.
  func report(
    _ error: DownloadError, id: Int, format: BookFormat?, target: Target,
    mirrors: [DownloadMirror], destination: URL?,
    failures: [(mirror: DownloadMirror, reason: String)] = []
  ) -> GetFailure {
    let command = resumeCommand(id: id, format: format, target: target, mirrors: mirrors)
    // The command carries no password: it comes from ~/.netrc then.
    let credentials =
      mirrors.contains { $0.base.user != nil } ? " (with the mirror's login in ~/.netrc)" : ""
    let kept =
      if error.resumable, let destination {
        "; the partial file \(destination.path).part is kept: run `\(command)` to resume"
          + credentials
      } else { "" }
    // Every mirror failed: one line naming each and why; the file is unavailable (69).
    let head =
      failures.isEmpty
      ? Sanitizer.sanitize(error.description)
      : "no mirror could serve book \(id): "
        + failures.map { "\(Sanitizer.sanitize($0.mirror.base.redacted)) (\($0.reason))" }
        .joined(separator: ", ")
    let text = head + kept + Self.mirrorHint(error, mirror: mirrors.first)
    let status = fail(text, failures.isEmpty ? ExitStatus(error) : .unavailable)
    // Ctrl-C: the shell's convention, so a script can tell it from a failed download.
    return GetFailure(status: status, interrupted: status == .interrupted)
  }

  /// The `gutenberg get` line that resumes this download: every option that decides where the
  /// bytes come from and go (`--format`, `-o`, `--data-dir`, `--server`, every `--mirror` when
  /// they are not the environment's), quoted for a shell.
  func resumeCommand(id: Int, format: BookFormat?, target: Target, mirrors: [DownloadMirror])
    -> String
  {
    var words = ["gutenberg", "get", "\(id)"]
    if let format { words += ["--format", format.description] }
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardized.path
    switch target {
    case .directory(let directory):
      let path = directory.standardized.path
      if path != here { words += ["-o", path.hasSuffix("/") ? path : path + "/"] }
    case .file(let file):
      words += ["-o", file.path]
    }
    // The options that decide where the book's record and the library are: without them the
    // line would look in another data directory, or ask the default server (issue 27).
    if let directory = options.dataDirectory {
      words += ["--data-dir", URL(fileURLWithPath: directory).standardized.path]
    }
    if let server = options.server {
      words += ["--server", URL(string: server)?.withoutUserInfo.absoluteString ?? server]
    }
    if mirrors != configuration.mirrors {
      // Never a password on a line meant to be copied: ~/.netrc gives it again.
      for mirror in mirrors { words += ["--mirror", mirror.base.withoutUserInfo.absoluteString] }
    }
    return words.map(Self.shellQuoted).joined(separator: " ")
  }

  /// `word` as a shell reads it back: as is when it is plain, else in single quotes.
  static func shellQuoted(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
      $0.isASCII
        && (CharacterSet.alphanumerics.contains($0) || "@%+=:,./_-".unicodeScalars.contains($0))
    }
    if plain, !word.isEmpty { return word }
    return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
