import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One sync per data directory at a time: an exclusive `flock` on `sync.lock`, released when
/// the process ends however it ends (the kernel drops the lock with the descriptor). The
/// holder writes its pid there, so a refused sync can say whose lock it met.
struct SyncLock {
  private let descriptor: Int32

  /// Takes the lock, or throws at once when another sync holds it.
  init(_ url: URL) throws(SyncFileError) {
    let descriptor: Int32
    do {
      descriptor = try RegularFile.open(url.path, flags: O_RDWR | O_CREAT, followingLinks: false)
    } catch {
      throw SyncFileError(description: "cannot open \(url.path): \(error.reason)")
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let holder = Self.pid(in: descriptor)
      close(descriptor)
      throw SyncFileError(
        description: "another sync of this data directory is running", kind: .locked(by: holder))
    }
    self.descriptor = descriptor
    // Best effort: the lock itself is the flock, the pid only names its holder.
    let pid = Array("\(getpid())\n".utf8)
    if ftruncate(descriptor, 0) == 0 { _ = pwrite(descriptor, pid, pid.count, 0) }
  }

  /// The pid a holder wrote, nil when there is none (a lock taken by an older version).
  private static func pid(in descriptor: Int32) -> Int32? {
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = pread(descriptor, &bytes, bytes.count, 0)
    guard count > 0 else { return nil }
    return Int32(
      String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines))
  }

  func release() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
