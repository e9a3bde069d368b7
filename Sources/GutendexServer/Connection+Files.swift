import Foundation

extension Connection {
  /// Bytes written per socket write when streaming a file.
  static let fileChunkSize = 256 * 1024

  /// A chunk and a period more of the generated pattern, sliced for any offset.
  static let generatedPattern = ServedFile.generatedBytes(
    offset: 0, count: fileChunkSize + ServedFile.period)

  /// Answers a files-mode request: a redirect, or the file (whole, a range, or 416), with the
  /// plan's delivery faults applied to its bytes.
  func respond(
    to route: LoopbackServer.FileRoute, head: RequestHead, plan: FaultPlan, keepAlive: Bool
  ) async throws -> Ending {
    let isHead = head.method == "HEAD"
    switch route {
    case .redirect(let redirect):
      var response = ResponseHead(status: redirect.status)
      response.add("Location", redirect.location)
      response.add("Content-Length", "0")
      response.add("Connection", keepAlive ? "keep-alive" : "close")
      try await socket.write(response.encoded)
      return keepAlive ? .keepAlive : .close
    case .file(let file):
      return try await send(file, head: head, plan: plan, isHead: isHead, keepAlive: keepAlive)
    }
  }

  private func send(
    _ file: ServedFile, head: RequestHead, plan: FaultPlan, isHead: Bool, keepAlive: Bool
  ) async throws -> Ending {
    let size = file.size
    var rangeHeader = file.supportsRanges ? head.header("range") : nil
    // If-Range: the range only holds if the client's validator is still the current one.
    if let condition = head.header("if-range"), condition != file.etag,
      condition != file.lastModified
    {
      rangeHeader = nil
    }
    // A conditional GET whose validator is still current: 304, no body (RFC 9110 13.1.1-2:
    // If-None-Match first; If-Modified-Since only without it).
    let unchanged: Bool
    if let match = head.header("if-none-match") {
      unchanged = match == "*" || (file.etag.map { match.contains($0) } ?? false)
    } else if let since = head.header("if-modified-since") {
      unchanged = since == file.lastModified
    } else {
      unchanged = false
    }
    if unchanged {
      var response = ResponseHead(status: 304)
      if let etag = file.etag { response.add("ETag", etag) }
      if let lastModified = file.lastModified { response.add("Last-Modified", lastModified) }
      response.add("Connection", keepAlive ? "keep-alive" : "close")
      try await socket.write(response.encoded)
      return keepAlive ? .keepAlive : .close
    }
    var response = ResponseHead(status: 200)
    response.add("Content-Type", file.contentType)
    if let etag = file.etag { response.add("ETag", etag) }
    if let lastModified = file.lastModified { response.add("Last-Modified", lastModified) }
    if file.supportsRanges { response.add("Accept-Ranges", "bytes") }
    var range = ByteRange(first: 0, last: size - 1)
    switch ByteRange.resolve(rangeHeader, size: size) {
    case .whole:
      break
    case .partial(let asked):
      range = asked
      response.status = 206
      response.add("Content-Range", "bytes \(asked.first)-\(asked.last)/\(size)")
    case .unsatisfiable:
      response.status = 416
      response.add("Content-Range", "bytes */\(size)")
      response.add("Content-Length", "0")
      response.add("Connection", keepAlive ? "keep-alive" : "close")
      try await socket.write(response.encoded)
      return keepAlive ? .keepAlive : .close
    }
    let count = max(0, range.count)
    let faulty = plan.truncateBody || plan.resetMidBody || plan.stallMidBody
    response.add("Content-Length", String(count))
    response.add("Connection", keepAlive && !faulty ? "keep-alive" : "close")
    try await socket.write(response.encoded)
    if isHead { return keepAlive ? .keepAlive : .close }
    if plan.stallAfterHeaders {
      await stall()
      return .close
    }
    let sent = faulty ? count / 2 : count
    try await stream(file, from: range.first, count: sent, rate: plan.bodyBytesPerSecond)
    if plan.stallMidBody {
      await stall()
      return .close
    }
    if plan.resetMidBody { return .abort }
    if plan.truncateBody { return .close }
    return keepAlive ? .keepAlive : .close
  }

  /// Writes `count` bytes of `file` from `offset`, a chunk at a time; with a `rate`, a tenth of
  /// it every tenth of a second.
  private func stream(_ file: ServedFile, from offset: Int, count: Int, rate: Int?) async throws {
    var handle: FileHandle?
    if case .file(let url) = file.content {
      handle = try FileHandle(forReadingFrom: url)
      try handle?.seek(toOffset: UInt64(offset))
    }
    defer { try? handle?.close() }
    var position = offset
    let end = offset + count
    while position < end {
      try Task.checkCancellation()
      let piece = rate.map { max(1, $0 / 10) } ?? Self.fileChunkSize
      let length = min(piece, Self.fileChunkSize, end - position)
      if rate != nil, position > offset { try await Task.sleep(for: .milliseconds(100)) }
      let chunk: Data
      switch file.content {
      case .bytes(let data):
        chunk = data.subdata(in: position..<position + length)
      case .generated:
        let start = position % ServedFile.period
        chunk = Self.generatedPattern.subdata(in: start..<start + length)
      case .file:
        chunk = try handle?.read(upToCount: length) ?? Data()
        if chunk.isEmpty { return }  // The file shrank while being sent.
      }
      try await writeBody(chunk)
      position += chunk.count
    }
  }
}
