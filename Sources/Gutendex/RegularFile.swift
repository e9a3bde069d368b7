import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening a file the program names by path so that whatever lies there cannot hold or
/// mislead it: the open never blocks (`O_NONBLOCK`, so a FIFO or a device answers at once),
/// what was opened is checked with fstat(2) to be a regular file (a link swapped in between a
/// check and the open is caught too), and a file opened to write is never reached through a
/// symbolic link (`O_NOFOLLOW`). A refusal is one line naming the file and what it is.
package enum RegularFile {
  /// Why a file was not opened: the path, and the system's reason or ours.
  package struct Refusal: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The path as given.
    package var path: String
    /// Why, in a few words: ours ("is a FIFO, not a regular file") or the system's ("No such
    /// file or directory").
    package var reason: String
    /// True when nothing is at the path.
    package var isAbsent: Bool

    /// "PATH is a FIFO, not a regular file", "PATH: Permission denied".
    package var description: String {
      reason.hasPrefix("is ") ? "\(path) \(reason)" : "\(path): \(reason)"
    }

    /// The reason alone, for a line that names the file already ("cannot read X: ...").
    package var errorDescription: String? { reason }
  }

  /// Opens `path` with `flags` (and `mode` when it creates it): without blocking, then
  /// checked to be a regular file; `followingLinks: false` refuses a symbolic link at `path`
  /// (what writes must use). The descriptor is blocking again when returned.
  package static func open(
    _ path: String, flags: Int32, mode: mode_t = 0o644, followingLinks: Bool = true
  ) throws(Refusal) -> Int32 {
    let nofollow = followingLinks ? 0 : O_NOFOLLOW
    let fd = systemOpen(path, flags | nofollow | O_NONBLOCK | O_CLOEXEC, mode)
    guard fd >= 0 else {
      let code = errno
      if !followingLinks, code == ELOOP || code == EMLINK {
        throw Refusal(path: path, reason: "is a symbolic link; not following it", isAbsent: false)
      }
      throw Refusal(path: path, reason: message(code), isAbsent: code == ENOENT || code == ENOTDIR)
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      _ = close(fd)
      throw Refusal(path: path, reason: message(code), isAbsent: false)
    }
    if case .other(let kind) = DownloadFile.kind(mode: info.st_mode, size: 0) {
      _ = close(fd)
      throw Refusal(path: path, reason: "is \(kind), not a regular file", isAbsent: false)
    }
    let status = fcntl(fd, F_GETFL)
    if status >= 0 { _ = fcntl(fd, F_SETFL, status & ~O_NONBLOCK) }
    return fd
  }

  /// The whole file at `path` (at most `limit` bytes: a larger one is refused), nil when
  /// there is none.
  package static func read(_ path: String, limit: Int, followingLinks: Bool = true)
    throws(Refusal) -> Data?
  {
    let fd: Int32
    do {
      fd = try open(path, flags: O_RDONLY, followingLinks: followingLinks)
    } catch {
      if error.isAbsent { return nil }
      throw error
    }
    defer { _ = close(fd) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while data.count <= limit {
      let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count < 0 {
        throw Refusal(path: path, reason: message(errno), isAbsent: false)
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
    throw Refusal(path: path, reason: "is larger than \(limit) bytes", isAbsent: false)
  }

  static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}

// The system calls under other names: inside ``RegularFile`` its own `open` and `read` would
// hide them.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
