import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file all-or-nothing: a temporary file in the same directory, fsync, then rename.
enum StoreFileWriter {
  /// Replaces `url` with `data`; on failure throws ``StoreError/exportFailed(path:reason:)``
  /// and leaves neither a partial file nor the temporary file behind.
  static func writeAtomically(_ data: Data, to url: URL) throws(StoreError) {
    try writeAtomically(to: url) { (write) throws(StoreError) in try write([UInt8](data)) }
  }

  /// Replaces `url` with the bytes `produce` hands to the writer it is given, a piece at a
  /// time; the same guarantees as ``writeAtomically(_:to:)``, whatever `produce` throws.
  static func writeAtomically(
    to url: URL,
    produce: (_ write: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) -> Void
  ) throws(StoreError) {
    let path = url.standardizedFileURL.path
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    func failure(_ what: String, _ code: Int32) -> StoreError {
      .exportFailed(path: path, reason: "\(what): \(StoreDatabase.systemMessage(code))")
    }
    // Renaming over a device, a directory or a socket would replace it (as root, even
    // /dev/full): only a regular file, or nothing, may stand at the target.
    var existing = stat()
    if lstat(path, &existing) == 0, existing.st_mode & S_IFMT != S_IFREG {
      throw .exportFailed(path: path, reason: "not a regular file; nothing was written")
    }
    let temporary = "\(directory)/.\(name).\(UUID().uuidString).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw failure("cannot create a file in \(directory)", errno) }
    var closed = false
    var renamed = false
    defer {
      if !closed { close(descriptor) }
      if !renamed { unlink(temporary) }
    }
    try produce { (bytes: [UInt8]) throws(StoreError) in
      var written = 0
      while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { buffer in
          write(descriptor, buffer.baseAddress, buffer.count)
        }
        if count < 0 {
          if errno == EINTR { continue }
          throw failure("cannot write", errno)
        }
        written += count
      }
    }
    // The data must be on disk before the rename makes it visible under the final name.
    guard fsync(descriptor) == 0 else { throw failure("cannot flush to disk", errno) }
    closed = true
    guard close(descriptor) == 0 else { throw failure("cannot close", errno) }
    guard rename(temporary, path) == 0 else { throw failure("cannot replace", errno) }
    renamed = true
    // Make the rename itself durable; failing here loses nothing already written.
    let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }
}
