import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One sync per data directory at a time: an exclusive `flock` on `sync.lock`, released when
/// the process ends however it ends (the kernel drops the lock with the descriptor).
struct SyncLock {
  private let descriptor: Int32

  /// Takes the lock, or throws at once when another sync holds it.
  init(_ url: URL) throws(SyncFileError) {
    let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .system("cannot open \(url.path)", errno) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      throw SyncFileError(description: "another sync of this data directory is running")
    }
    self.descriptor = descriptor
  }

  func release() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
