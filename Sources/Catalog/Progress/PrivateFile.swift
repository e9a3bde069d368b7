import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The small files of progress sync (the account with its key, the state of each book): read
/// without following a link or opening anything but a regular file, and replaced whole (a
/// temporary file of mode 0600 in the same directory, fsync, rename), so no other user can
/// read the key at any moment and a crash leaves the old file or the new one.
enum PrivateFile {
  /// The largest file read: these are a few kilobytes.
  static let limit = 4 * 1_048_576

  /// The file's bytes; nil when there is no file; throws when it is not a regular file the
  /// program can read. A `secret` (the key's file) is also refused, as ssh refuses a private
  /// key, when its mode lets other users read or change it (a `chmod`, a copy, a restore from
  /// a backup may have widened it): one line saying so and how to fix it.
  static func read(_ url: URL, secret: Bool = false) throws(ProgressSyncError) -> Data? {
    let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if descriptor < 0, errno == ENOENT { return nil }
    guard descriptor >= 0 else { throw .file(path: url.path, reason: message(errno)) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw .file(path: url.path, reason: "not a regular file")
    }
    // Checked on the descriptor read, not the path: the file read is the file checked.
    if secret, info.st_mode & 0o077 != 0 {
      throw .file(path: url.path, reason: openToOthers(mode: info.st_mode, path: url.path))
    }
    guard info.st_size <= limit else {
      throw .file(path: url.path, reason: "larger than \(limit) bytes")
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw .file(path: url.path, reason: message(errno)) }
      if count == 0 { break }
      data.append(contentsOf: buffer[..<count])
      guard data.count <= limit else {
        throw .file(path: url.path, reason: "larger than \(limit) bytes")
      }
    }
    return data
  }

  /// Replaces the file with `data`, mode 0600, making its directory (0700) when needed.
  static func write(_ data: Data, to url: URL) throws(ProgressSyncError) {
    let path = url.path
    let directory = url.deletingLastPathComponent().path
    if mkdir(directory, 0o700) != 0, errno != EEXIST {
      throw .file(path: directory, reason: message(errno))
    }
    var existing = stat()
    if lstat(path, &existing) == 0, existing.st_mode & S_IFMT != S_IFREG {
      throw .file(path: path, reason: "not a regular file; nothing was written")
    }
    let temporary = "\(directory)/.\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .file(path: directory, reason: message(errno)) }
    var renamed = false
    var closed = false
    defer {
      if !closed { close(descriptor) }
      if !renamed { unlink(temporary) }
    }
    // The umask cannot widen it, but a umask of 0 must not either: set it outright.
    fchmod(descriptor, 0o600)
    var written = 0
    while written < data.count {
      let count = data[written...].withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw .file(path: path, reason: message(errno)) }
      written += count
    }
    guard fsync(descriptor) == 0 else { throw .file(path: path, reason: message(errno)) }
    closed = true
    guard close(descriptor) == 0 else { throw .file(path: path, reason: message(errno)) }
    guard rename(temporary, path) == 0 else { throw .file(path: path, reason: message(errno)) }
    renamed = true
    let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  /// Removes the file; true when there was one.
  static func remove(_ url: URL) throws(ProgressSyncError) -> Bool {
    if unlink(url.path) == 0 { return true }
    if errno == ENOENT { return false }
    throw .file(path: url.path, reason: message(errno))
  }

  /// Runs `body` holding an exclusive `flock` on `lock` (made when needed), so two processes
  /// never interleave a read and a replacement of the state.
  static func locked<T>(_ lock: URL, _ body: () throws(ProgressSyncError) -> T)
    throws(ProgressSyncError) -> T
  {
    let directory = lock.deletingLastPathComponent().path
    if mkdir(directory, 0o700) != 0, errno != EEXIST {
      throw .file(path: directory, reason: message(errno))
    }
    let descriptor = open(lock.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .file(path: lock.path, reason: message(errno)) }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw .file(path: lock.path, reason: message(errno)) }
    }
    return try body()
  }

  /// `mode 0644 lets other users read or change the key it holds: chmod 600 PATH`.
  static func openToOthers(mode: mode_t, path: String) -> String {
    let octal = String(mode & 0o7777, radix: 8)
    let padded = String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    return "mode \(padded) lets other users read or change the key it holds: chmod 600 \(path)"
  }

  static func message(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
