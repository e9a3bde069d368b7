import Foundation

/// Files mode: the server also serves files (memory, disk or generated) at chosen paths, with
/// `Range`, validators and redirects, for download tests and benchmarks.
extension LoopbackServer {
  /// Serves `file` at `path` (`/files/84.epub`); the handler no longer sees that path.
  public func serve(_ file: ServedFile, at path: String) {
    state.withLock { $0.files[path] = file }
  }

  /// Stops serving the file at `path`.
  public func removeFile(at path: String) {
    state.withLock { _ = $0.files.removeValue(forKey: path) }
  }

  /// Serves every regular file in `directory` (not recursively) at `prefix` + its name.
  public func serveDirectory(_ directory: URL, under prefix: String) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    for name in names.sorted() {
      let url = directory.appendingPathComponent(name)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      let base = prefix.hasSuffix("/") ? prefix : prefix + "/"
      serve(ServedFile(content: .file(url)), at: base + name)
    }
  }

  /// Answers `path` with `status` (302 by default) and `Location: location`.
  public func redirect(_ path: String, to location: String, status: Int = 302) {
    state.withLock { $0.redirects[path] = Redirect(status: status, location: location) }
  }

  /// The `Range` header of every file request so far, in order (nil: the request had none).
  public var fileRangeHeaders: [String?] { state.withLock { $0.fileRanges } }

  /// Every request files mode answered so far (redirects and files), in order.
  public var fileRequests: [FileRequest] { state.withLock { $0.fileRequests } }

  /// The redirect or file for a request path, logging the request (and a file request's
  /// `Range`).
  func fileRoute(_ path: String, head: RequestHead) -> FileRoute? {
    state.withLock { state in
      let logged = FileRequest(
        path: path, range: head.header("range"), ifNoneMatch: head.header("if-none-match"),
        ifModifiedSince: head.header("if-modified-since"), userAgent: head.header("user-agent"))
      if let redirect = state.redirects[path] {
        state.fileRequests.append(logged)
        return .redirect(redirect)
      }
      guard let file = state.files[path] else { return nil }
      state.fileRanges.append(logged.range)
      state.fileRequests.append(logged)
      return .file(file)
    }
  }

  /// What answers a path in files mode.
  enum FileRoute: Sendable {
    case redirect(Redirect)
    case file(ServedFile)
  }
}
