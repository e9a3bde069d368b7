import Catalog
import Foundation

/// The library's own directory, `<data>/books`: where the browser's `d` and `read` (and the
/// `read` command) put the books they fetch, so a book is fetched once whichever asks.
package struct LibraryFiles: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// The book's file in `format` (its usual one when nil, which is `usual`): the library's
  /// when present (`wasThere`), else downloaded now into the library's directory.
  /// `ownsInterrupts`: take over Ctrl-C for the download (the browser's runner has its own).
  func file(
    id: Int, format: BookFormat?, usual: BookFormat? = nil, mirror mirrorText: String?,
    ownsInterrupts: Bool
  ) async -> Result<(entry: LibraryEntry, wasThere: Bool), BookDownload.Failure> {
    let known = (try? await service.downloads(id: id)) ?? []
    if let wanted = format ?? usual,
      let entry = known.first(where: { $0.format == wanted.description && $0.isPresent })
    {
      return .success((entry, true))
    }
    let mirrors: [DownloadMirror]
    switch GetRunner.mirrors(mirrorText.map { [$0] } ?? [], configuration: configuration) {
    case .success(let value): mirrors = value
    case .failure(let failure):
      return .failure(BookDownload.Failure(status: fail(failure.message, .usage)))
    }
    let directory = context.libraryDirectory
    let existed = FileManager.default.fileExists(atPath: directory.path)
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      return .failure(
        BookDownload.Failure(
          status: fail(
            "cannot create \(directory.path): \(InteractiveSession.reason(error))", .failure)))
    }
    let interrupts = ownsInterrupts ? InterruptHandler.stoppingWhenIdle() : nil
    let signalSource = interrupts?.install()
    defer { if let signalSource { interrupts?.uninstall(signalSource) } }
    // Our own directory: a file left there without a library row is ours to replace.
    let result = await BookDownload(context: context).run(
      id: id, format: format, target: .directory(directory), force: true, quiet: false,
      mirrors: mirrors, interrupts: interrupts)
    // A failed first download leaves no empty directory behind (rmdir keeps a non-empty one).
    if case .failure = result, !existed { rmdir(directory.path) }
    // Ctrl-C just after the download (before the pager): stop here, with 130.
    if case .success = result, interrupts?.pressedWhileIdle == true {
      return .failure(
        BookDownload.Failure(status: fail("interrupted", .interrupted), interrupted: true))
    }
    return result.map { ($0, false) }
  }

  /// How long the book's downloaded plain text is, at the configured reading speed
  /// (`GUTENBERG_WPM`): its words counted off the main actor; nil without such a download.
  func length(id: Int) async -> String? {
    let entries = (try? await service.downloads(id: id)) ?? []
    guard let text = entries.first(where: { $0.isPresent && $0.path.hasSuffix(".txt") }) else {
      return nil
    }
    let path = text.path
    let speed = configuration.wordsPerMinute
    return await Task.detached(priority: .userInitiated) {
      ReadingLength.of(file: path)?.text(wordsPerMinute: speed)
    }.value
  }

  /// `path` for each download of the book, `path (missing)` when the file is gone.
  func downloadLabels(id: Int) async -> [String] {
    ((try? await service.downloads(id: id)) ?? []).map {
      $0.isPresent ? $0.path : "\($0.path) (missing)"
    }
  }
}
