import Catalog
import Foundation

/// `gutenberg get ID...`: books to disk, each through its download plan, with progress,
/// resume, and a row in the library; each saved path on standard output.
package struct GetRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Downloads every book asked for, stopping at Ctrl-C.
  package func run(_ request: GetRequest) async -> ExitStatus {
    var format: BookFormat?
    if let text = request.format {
      guard let parsed = BookFormat(argument: text) else {
        return fail(
          "--format: '\(Sanitizer.sanitize(text))' is not a format (epub, epub-noimages, txt, "
            + "html, mobi, or a MIME type such as text/plain)", .usage)
      }
      format = parsed
    }
    var mirrors: [DownloadMirror]
    switch Self.mirrors(request.mirrors, configuration: configuration) {
    case .success(let value): mirrors = value
    case .failure(let failure): return fail(failure.message, .usage)
    }
    // Project Gutenberg asks that bulk downloads go to its mirrors, not to www; one book may.
    if mirrors.isEmpty, Set(request.ids).count > 1 {
      mirrors = DownloadMirror.bulkDefault
      if !request.quiet {
        let hosts = mirrors.compactMap { $0.base.host }.joined(separator: ", ")
        output.printError(
          "note: \(Set(request.ids).count) books: their files come from Project Gutenberg's "
            + "mirror \(hosts), as PG asks of bulk downloads (--mirror names another)")
      }
    }
    let target: DownloadTarget
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
      let result = await BookDownload(context: context).run(
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

  /// Every `--mirror` given, else the configuration's (`GUTENBERG_MIRRORS`,
  /// `GUTENBERG_MIRROR`), else none.
  static func mirrors(_ texts: [String], configuration: AppConfiguration) -> Result<
    [DownloadMirror], ConfigurationError
  > {
    var mirrors: [DownloadMirror] = []
    for text in texts {
      guard let mirror = DownloadMirror(text) else {
        return .failure(ConfigurationError("--mirror", text, isNot: "an http(s) URL"))
      }
      mirrors.append(mirror)
    }
    return .success(mirrors.isEmpty ? configuration.mirrors : mirrors)
  }

  /// `-o` as a file or directory (else `GUTENBERG_DOWNLOAD_DIR`, else the current directory);
  /// several books need a directory.
  private func downloadTarget(_ path: String?, count: Int) -> Result<
    DownloadTarget, BookDownload.Failure
  > {
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
            BookDownload.Failure(
              status: fail("cannot create \(path): \(InteractiveSession.reason(error))", .failure)
            ))
        }
      }
      return .success(.directory(URL(fileURLWithPath: path, isDirectory: true)))
    }
    guard count == 1 else {
      return .failure(
        BookDownload.Failure(
          status: fail("-o must be a directory when getting several books (\(path))", .usage)))
    }
    let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      return .failure(
        BookDownload.Failure(status: fail("-o: the directory \(parent) does not exist", .usage)))
    }
    return .success(.file(URL(fileURLWithPath: path)))
  }
}
