import Catalog
import Foundation
import Gutendex

/// `gutenberg get`: books to disk, with progress, resume, and a row in the library.
extension GutenbergApp {
  /// Where one download goes.
  enum Target {
    /// Into this directory, under our own file name.
    case directory(URL)
    /// Exactly this file.
    case file(URL)
  }

  /// A download that did not finish: the message is printed, the status returned.
  struct GetFailure: Error {
    var status: ExitStatus
    var interrupted = false
  }

  /// `gutenberg get ID...`.
  public func get(_ request: GetRequest) async -> ExitStatus {
    var format: BookFormat?
    if let text = request.format {
      guard let parsed = BookFormat(argument: text) else {
        return fail(
          "--format: '\(Sanitizer.sanitize(text))' is not a format (epub, epub-noimages, txt, "
            + "html, mobi, or a MIME type such as text/plain)", .usage)
      }
      format = parsed
    }
    let mirror: DownloadMirror?
    switch downloadMirror(request.mirror) {
    case .success(let value): mirror = value
    case .failure(let failure): return failure.status
    }
    let target: Target
    switch downloadTarget(request.output, count: request.ids.count) {
    case .success(let value): target = value
    case .failure(let failure): return failure.status
    }
    let interrupts = InterruptHandler { _ in exit(130) }
    let signalSource = interrupts.install()
    defer { interrupts.uninstall(signalSource) }
    var status = ExitStatus.ok
    for id in request.ids {
      let result = await download(
        id: id, format: format, target: target, force: request.force, quiet: request.quiet,
        mirror: mirror, interrupts: interrupts)
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

  /// `--mirror`, else `GUTENBERG_MIRROR`, else none.
  func downloadMirror(_ text: String?) -> Result<DownloadMirror?, GetFailure> {
    let environment = options.environment["GUTENBERG_MIRROR"].flatMap { $0.isEmpty ? nil : $0 }
    guard let text = text ?? environment else { return .success(nil) }
    guard let mirror = DownloadMirror(text) else {
      return .failure(
        GetFailure(
          status: fail(
            "--mirror: '\(Sanitizer.sanitize(text))' is not an http(s) URL", .usage)))
    }
    return .success(mirror)
  }

  /// `-o` as a file or directory; several books need a directory.
  func downloadTarget(_ path: String?, count: Int) -> Result<Target, GetFailure> {
    let environment = options.environment["GUTENBERG_DOWNLOAD_DIR"].flatMap {
      $0.isEmpty ? nil : $0
    }
    guard let path = path ?? environment else {
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

  /// Downloads one book and records it in the library; failures are printed here.
  func download(
    id: Int, format: BookFormat?, target: Target, force: Bool, quiet: Bool,
    mirror: DownloadMirror?, interrupts: InterruptHandler?
  ) async -> Result<LibraryEntry, GetFailure> {
    let book: Book
    do {
      book = try await service.book(id: id).book
    } catch {
      return .failure(GetFailure(status: fail(error)))
    }
    let choice: BookFormat.Choice
    do {
      choice = try BookFormat.choose(format, for: book)
    } catch {
      return .failure(GetFailure(status: fail(error)))
    }
    let url = mirror?.rewrite(choice.url) ?? choice.url
    guard !options.offline, service.networkState != .simulatedOffline else {
      return .failure(
        GetFailure(
          status: fail(
            "offline: downloading book \(id) needs the network (without --offline)",
            .unavailable)))
    }
    let destination: URL
    switch target {
    case .directory(let directory):
      destination = directory.appendingPathComponent(
        DownloadNaming.fileName(id: id, title: book.title, choice: choice))
    case .file(let file):
      destination = file
    }
    let meter = ProgressMeter(output: output, name: destination.lastPathComponent, quiet: quiet)
    let downloader = Downloader(stallTimeout: downloadTimeout)
    let task = Task {
      try await downloader.download(
        from: url, to: destination, replace: force, progress: meter.report)
    }
    interrupts?.begin { task.cancel() }
    // In the interactive browser, Ctrl-C cancels the command's task: pass that on.
    let outcome = await withTaskCancellationHandler {
      await task.result
    } onCancel: {
      task.cancel()
    }
    interrupts?.end()
    switch outcome {
    case .success(let result):
      let entry = LibraryEntry(
        id: id, format: choice.format.description, title: Sanitizer.sanitize(book.title),
        path: result.path.path, size: result.size, fetchedAt: Date(),
        validator: result.validator, url: url.absoluteString)
      do {
        try await service.recordDownload(entry)
      } catch {
        output.printError("warning: not recorded in the library: \(error.description)")
      }
      if let line = meter.finish(size: result.size) {
        output.printError("Saved \(line)")
      }
      // Notes are for a person watching; a pipe gets only the path (on standard output).
      if !quiet, output.errorIsTerminal {
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
      return .success(entry)
    case .failure(let error):
      meter.clear()
      let failure = (error as? DownloadError) ?? .interrupted(kept: 0, resumable: false)
      return .failure(report(failure, id: id, format: format, destination: destination))
    }
  }

  /// How long a download may receive nothing: `--timeout`, else `GUTENBERG_TIMEOUT`, else 30 s.
  var downloadTimeout: Duration {
    let environment = options.environment["GUTENBERG_TIMEOUT"].flatMap(Double.init)
    let seconds = options.timeout ?? environment ?? 30
    return .milliseconds(Int64(seconds * 1000))
  }

  /// Prints why a download failed, and how to resume when a part was kept.
  func report(
    _ error: DownloadError, id: Int, format: BookFormat?, destination: URL
  ) -> GetFailure {
    var command = "gutenberg get \(id)"
    if let format { command += " --format \(format)" }
    let kept =
      error.resumable
      ? "; the partial file \(destination.path).part is kept: run `\(command)` to resume" : ""
    let text = Sanitizer.sanitize(error.description) + kept
    switch error {
    case .interrupted:
      // Ctrl-C: the shell's convention, so a script can tell it from a failed download.
      return GetFailure(status: fail(text, .interrupted), interrupted: true)
    case .server(let server):
      return GetFailure(status: fail(text, ExitStatus(CatalogError.server(server))))
    case .failedAfterRetries, .stalled, .redirectRefused, .tooManyRedirects:
      return GetFailure(status: fail(text, .unavailable))
    case .lengthMismatch:
      return GetFailure(status: fail(text, .dataError))
    case .disk, .exists:
      return GetFailure(status: fail(text, .failure))
    }
  }
}
