import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files replaced whole or not at all: written to a temporary name in the same directory,
/// synced, renamed over the old name, and the directory synced, so a crash, `kill -9` or a full
/// disk at any moment leaves either the old file or the new one, never a mix.
enum AtomicFile {
  /// Writes `data` to `url` atomically; `durable` also syncs it and its directory to disk
  /// (atomic alone is enough against a killed process: what it wrote is in the kernel's cache;
  /// only a power cut needs the syncs, each of which costs milliseconds to tens of them on a
  /// busy disk).
  static func write(_ data: Data, to url: URL, durable: Bool = true) throws(SyncFileError) {
    try write(to: url, durable: durable) { (emit) throws(SyncFileError) in
      try data.withFileBytes { (bytes) throws(SyncFileError) in try emit(bytes) }
    }
  }

  /// Writes the bytes `produce` hands to its function, in order, to `url` atomically (see
  /// ``write(_:to:durable:)``): a file made as a stream, never held whole.
  static func write(
    to url: URL, durable: Bool = true,
    _ produce: (_ emit: (UnsafeRawBufferPointer) throws(SyncFileError) -> Void)
      throws(SyncFileError) -> Void
  ) throws(SyncFileError) {
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .system("cannot create \(temporary.path)", errno) }
    var failure: SyncFileError?
    do {
      try produce { (bytes) throws(SyncFileError) in
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
          let wrote = systemWrite(descriptor, base + done, bytes.count - done)
          if wrote < 0, errno == EINTR { continue }
          guard wrote > 0 else { throw .system("cannot write \(url.path)", errno) }
          done += wrote
        }
      }
    } catch {
      failure = error
    }
    if failure == nil, durable, fsync(descriptor) != 0 {
      failure = .system("cannot sync \(url.path)", errno)
    }
    close(descriptor)
    if let failure {
      unlink(temporary.path)
      throw failure
    }
    guard rename(temporary.path, url.path) == 0 else {
      let code = errno
      unlink(temporary.path)
      throw .system("cannot replace \(url.path)", code)
    }
    if durable { syncDirectory(directory) }
  }

  /// The system's `write(2)` (the name `write` is taken inside these types).
  static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes, count)
    #else
      Darwin.write(descriptor, bytes, count)
    #endif
  }

  /// Makes a rename or unlink in `directory` durable.
  static func syncDirectory(_ directory: URL) {
    let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}

/// Why a file of the local catalogue could not be read or written.
public struct SyncFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, for callers to decide by (never by the text, which is for people).
  public enum Kind: Sendable, Hashable {
    /// Another process holds the data directory's sync lock: its pid, when it could be read.
    case locked(by: Int32?)
    /// The disk (or the user's quota) is full.
    case diskFull
    /// Any other failure to read or write.
    case other
  }

  /// One line: what failed and the system's reason.
  public var description: String
  /// What went wrong.
  public var kind: Kind = .other

  static func system(_ what: String, _ code: Int32) -> SyncFileError {
    SyncFileError(
      description: "\(what): \(String(cString: strerror(code)))",
      kind: code == ENOSPC || code == EDQUOT ? .diskFull : .other)
  }
}
