import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open file that downloaded bytes are appended to, written straight through with write(2)
/// so nothing piles up in memory, and failures keep the system's reason (ENOSPC, EFBIG).
final class FileSink: Sendable {
  /// A failed write or sync: the system's message.
  struct Failure: Error, Sendable {
    var reason: String
  }

  let path: String
  private let descriptor = Mutex<Int32>(-1)

  /// Opens `path` for appending, creating it (mode 0644); `truncate` empties it first.
  /// A symbolic link or anything but a regular file at `path` is refused (`O_NOFOLLOW`, then
  /// fstat(2)), so nothing is ever written through a link.
  init(path: String, truncate: Bool) throws(Failure) {
    self.path = path
    let flags = O_WRONLY | O_CREAT | O_APPEND
    let fd: Int32
    do {
      fd = try DownloadFile.openFile(path, flags: flags)
    } catch {
      throw Failure(reason: error.reason)
    }
    // Truncated only once it is known to be a regular file (O_TRUNC would empty a FIFO's
    // writer or a device before the check).
    if truncate, ftruncate(fd, 0) != 0 {
      let code = errno
      _ = close(fd)
      throw Failure(reason: Self.message(code))
    }
    descriptor.withLock { $0 = fd }
  }

  deinit {
    closeFile()
  }

  /// Appends all of `data`.
  func append(_ data: Data) throws(Failure) {
    let fd = descriptor.withLock { $0 }
    let failure = DownloadFile.writeAll(data, to: fd)
    if failure != 0 { throw Failure(reason: Self.message(failure)) }
  }

  /// Flushes the file to the disk.
  func sync() throws(Failure) {
    let fd = descriptor.withLock { $0 }
    if fsync(fd) != 0 { throw Failure(reason: Self.message(errno)) }
  }

  /// Closes the file (again is harmless).
  func closeFile() {
    let fd = descriptor.withLock { fd in
      defer { fd = -1 }
      return fd
    }
    if fd >= 0 { _ = close(fd) }
  }

  static func message(_ code: Int32) -> String {
    switch code {
    case ENOSPC: "no space left on the device"
    case EFBIG: "file too large for this file system or limit"
    default: String(cString: strerror(code))
    }
  }

  /// Flushes a directory, so a rename into it survives power loss.
  static func syncDirectory(_ path: String) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    _ = close(fd)
  }
}
