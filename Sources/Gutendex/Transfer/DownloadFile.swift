import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// File operations for a download's own files (`.part`, `.part.info`, `.part.lock`, `.done`)
/// that never follow a symbolic link: what a careless user or another program put at those
/// names is refused, never written through.
package enum DownloadFile {
  /// A file operation that failed: the system's reason, or ours.
  struct Failure: Error, Sendable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
  }

  /// What is at a path (not following a link).
  package enum Kind: Sendable, Hashable {
    case absent
    case regular(size: Int64)
    /// A symbolic link, a directory, a FIFO, ...: named for the error message.
    case other(String)
  }

  /// What a read found.
  enum ReadResult: Sendable {
    case missing
    case contents(Data)
    case failed(String)
  }

  /// lstat(2): the path itself, never a link's target.
  package static func kind(_ path: String) -> Kind {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      return errno == ENOENT || errno == ENOTDIR ? .absent : .other(message(errno))
    }
    return kind(mode: info.st_mode, size: Int64(info.st_size))
  }

  static func kind(mode: mode_t, size: Int64) -> Kind {
    switch mode & S_IFMT {
    case S_IFREG: .regular(size: size)
    case S_IFLNK: .other("a symbolic link")
    case S_IFDIR: .other("a directory")
    case S_IFIFO: .other("a FIFO")
    case S_IFSOCK: .other("a socket")
    default: .other("a device")
    }
  }

  /// Opens `path` with `O_NOFOLLOW` (and without blocking) and checks with fstat(2) that what
  /// was opened is a regular file (see ``RegularFile``).
  static func openFile(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(Failure) -> Int32
  {
    do {
      return try RegularFile.open(path, flags: flags, mode: mode, followingLinks: false)
    } catch {
      // The system's reason alone, as before; ours name the file.
      throw Failure(reason: error.reason.hasPrefix("is ") ? error.description : error.reason)
    }
  }

  /// The whole of a small file, without following a link; at most `limit` bytes.
  static func readSmall(_ path: String, limit: Int) -> ReadResult {
    let fd: Int32
    do {
      fd = try openFile(path, flags: O_RDONLY | O_NONBLOCK)
    } catch {
      return kind(path) == .absent ? .missing : .failed(error.reason)
    }
    defer { _ = close(fd) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while data.count <= limit {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count < 0 { return .failed(message(errno)) }
      if count == 0 { return .contents(data) }
      data.append(contentsOf: buffer[0..<count])
    }
    return .failed("larger than \(limit) bytes")
  }

  /// Writes `data` to a new temporary file beside `path`, then renames it over `path`: rename(2)
  /// replaces a link instead of writing through it, and the file is never half there.
  static func writeAtomically(_ data: Data, to path: String) throws(Failure) {
    let temporary = path + ".tmp-\(getpid())"
    unlink(temporary)
    let fd = try openFile(temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
    let failure = writeAll(data, to: fd)
    _ = close(fd)
    guard failure == 0, rename(temporary, path) == 0 else {
      let code = failure != 0 ? failure : errno
      unlink(temporary)
      throw Failure(reason: message(code))
    }
  }

  /// Writes all of `data` to `fd` with write(2), again after EINTR; 0, or the errno it failed
  /// with.
  static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
    var failure: Int32 = 0
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
      guard var pointer = buffer.baseAddress else { return }
      var remaining = buffer.count
      while remaining > 0 {
        let written = write(fd, pointer, remaining)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        pointer += written
        remaining -= written
      }
    }
    return failure
  }

  /// Deletes `path` when it is a regular file; a link or anything else is left alone.
  static func removeRegular(_ path: String) {
    if case .regular = kind(path) { unlink(path) }
  }

  static func message(_ code: Int32) -> String {
    FileSink.message(code)
  }

  /// True when the regular files at `left` and `right` hold the same bytes (read a piece at a
  /// time, neither followed if a link); false when either cannot be read.
  package static func sameBytes(_ left: String, _ right: String) -> Bool {
    guard let one = try? RegularFile.open(left, flags: O_RDONLY, followingLinks: false) else {
      return false
    }
    defer { close(one) }
    guard let other = try? RegularFile.open(right, flags: O_RDONLY, followingLinks: false) else {
      return false
    }
    defer { close(other) }
    let size = 256 << 10
    var first = [UInt8](repeating: 0, count: size)
    var second = [UInt8](repeating: 0, count: size)
    var offset: off_t = 0
    while true {
      let read = first.withUnsafeMutableBytes { pread(one, $0.baseAddress, size, offset) }
      let got = second.withUnsafeMutableBytes { pread(other, $0.baseAddress, size, offset) }
      guard read >= 0, read == got else { return false }
      if read == 0 { return true }
      guard first[0..<read] == second[0..<read] else { return false }
      offset += off_t(read)
    }
  }
}
