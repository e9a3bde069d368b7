import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One download per target at a time: an advisory lock (flock(2)) on `<name>.part.lock`, held
/// for the whole download, its library row included, with the holder's PID written in it.
///
/// A second download of the same target waits for the first (it is told the holder's PID once)
/// and never touches the part meanwhile; a cancelled wait writes nothing. The holder removes the
/// lock file before letting go, so a waiter that then gets the lock on the removed file sees
/// that it is no longer the one at the name and opens it again. A lock left by a killed process
/// is released by the kernel; its file is harmless and reused.
package final class DownloadLock: Sendable {
  /// The lock file.
  let path: String
  private let descriptor: Mutex<Int32>

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = Mutex(descriptor)
  }

  deinit {
    release()
  }

  /// How often a waiter tries again: the holder's end is not signalled across processes.
  static let retryInterval = Duration.milliseconds(50)

  /// Takes the lock for `destination`, waiting for another holder; `waiting` is called once,
  /// with the holder's PID when it wrote one, when the lock is busy.
  package static func acquire(
    for destination: URL, waiting: @Sendable (Int32?) -> Void
  ) async throws(DownloadError) -> DownloadLock {
    let path = destination.path + ".part.lock"
    var told = false
    while true {
      let fd: Int32
      do {
        fd = try DownloadFile.openFile(path, flags: O_RDWR | O_CREAT)
      } catch {
        throw .disk(path: path, reason: error.reason, resumable: false)
      }
      while flock(fd, LOCK_EX | LOCK_NB) != 0 {
        let code = errno
        guard code == EWOULDBLOCK || code == EINTR else {
          _ = close(fd)
          throw .disk(path: path, reason: FileSink.message(code), resumable: false)
        }
        if !told {
          told = true
          waiting(holder(fd))
        }
        do {
          try await Task.sleep(for: retryInterval)
        } catch {
          _ = close(fd)
          throw .interrupted(kept: 0, resumable: false)
        }
      }
      guard isStillAt(path, fd) else {
        // The holder removed the file as it let go: lock the one at the name now.
        _ = close(fd)
        continue
      }
      let pid = Data("\(getpid())\n".utf8)
      _ = ftruncate(fd, 0)
      _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
      return DownloadLock(path: path, descriptor: fd)
    }
  }

  /// The PID written in the lock file by its holder.
  static func holder(_ fd: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[0..<count], as: UTF8.self)
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 > 0 ? $0 : nil }
  }

  /// True when `fd` is the file at `path` (not one removed meanwhile).
  static func isStillAt(_ path: String, _ fd: Int32) -> Bool {
    var opened = stat()
    var named = stat()
    guard fstat(fd, &opened) == 0, lstat(path, &named) == 0 else { return false }
    return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
  }

  /// Removes the lock file and lets go (again is harmless).
  package func release() {
    let fd = descriptor.withLock { fd in
      defer { fd = -1 }
      return fd
    }
    guard fd >= 0 else { return }
    if Self.isStillAt(path, fd) { unlink(path) }
    _ = close(fd)
  }
}
