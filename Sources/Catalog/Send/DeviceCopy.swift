import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Copies a book onto a mounted e-reader all or nothing: the bytes go into a file with no name
/// yet (Linux's `O_TMPFILE`, so a copy killed half-way leaves nothing at all), are synced, and
/// only then get the book's name. On a file system without unnamed files (FAT, as most
/// e-readers have), a hidden `.NAME.gutenberg-PID.part` stands in, renamed when complete; one
/// a killed copy left is removed by the next copy of that book into the directory.
public enum DeviceCopy {
  /// Why a copy failed: one line.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, naming the file.
    public var description: String
    /// True when the target exists and was kept (no `--force`).
    public var exists = false
  }

  /// How a copy ended.
  public enum Outcome: Sendable, Hashable {
    /// The file is there now.
    case copied(path: String)
    /// The same file was there already (same size and bytes); nothing was written.
    case alreadyThere(path: String)
  }

  /// The size of each piece copied.
  static let piece = 4 * 1_048_576

  /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), a macro Swift does not import.
  static let tmpfileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

  /// glibc's `copy_file_range` (the kernel copies, as `cp` does), which the Glibc module does
  /// not declare; nil where the C library has none (then the bytes pass through a buffer).
  static let copyFileRange:
    (
      @convention(c) (
        Int32, UnsafeMutablePointer<off_t>?, Int32, UnsafeMutablePointer<off_t>?, Int, UInt32
      ) -> Int
    )? = {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range") else {
        return nil
      }
      return unsafeBitCast(
        symbol,
        to: (@convention(c) (
          Int32, UnsafeMutablePointer<off_t>?, Int32, UnsafeMutablePointer<off_t>?, Int, UInt32
        ) -> Int).self)
    }()

  /// Copies the file at `source` to `directory/name`; an existing different file is replaced
  /// only with `replace`.
  public static func copy(source: String, to directory: String, name: String, replace: Bool)
    throws(Failure) -> Outcome
  {
    let target = (directory as NSString).appendingPathComponent(name)
    func fail(_ what: String, _ code: Int32 = errno) -> Failure {
      Failure(description: "\(what): \(String(cString: strerror(code)))")
    }
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw fail("cannot read \(source)") }
    defer { close(input) }
    var info = stat()
    guard fstat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw Failure(description: "\(source) is not a regular file")
    }
    let size = Int(info.st_size)
    let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { throw fail("cannot open the folder \(directory)") }
    defer { close(folder) }
    var existing = stat()
    if fstatat(folder, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 {
      guard existing.st_mode & S_IFMT == S_IFREG else {
        throw Failure(description: "\(target) exists and is not a regular file; nothing was copied")
      }
      if Int(existing.st_size) == size, sameBytes(input, folder: folder, name: name, size: size) {
        return .alreadyThere(path: target)
      }
      guard replace else {
        throw Failure(
          description: "\(target) exists (another file); --force replaces it", exists: true)
      }
    }
    let stale = ".\(name).gutenberg-"
    removeStale(folder: folder, prefix: stale)
    var temporary: String?
    var output = open(directory, tmpfileFlag | O_WRONLY | O_CLOEXEC, 0o644)
    if output < 0 {
      // No unnamed files here (FAT, exFAT, a network share): a hidden name stands in.
      let hidden = "\(stale)\(getpid()).part"
      output = openat(folder, hidden, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      guard output >= 0 else { throw fail("cannot write in \(directory)") }
      temporary = hidden
    }
    var done = false
    defer {
      close(output)
      if !done, let temporary { unlinkat(folder, temporary, 0) }
    }
    try pour(input, into: output, size: size, target: target)
    guard fsync(output) == 0 else { throw fail("cannot flush \(target) to the device") }
    if let temporary {
      guard renameat(folder, temporary, folder, name) == 0 else {
        throw fail("cannot name \(target)")
      }
    } else {
      let handle = "/proc/self/fd/\(output)"
      if linkat(AT_FDCWD, handle, folder, name, AT_SYMLINK_FOLLOW) != 0 {
        guard errno == EEXIST else { throw fail("cannot name \(target)") }
        // Replacing: a hidden name first, then a rename over the old file (never half of one).
        let hidden = "\(stale)\(getpid()).part"
        guard linkat(AT_FDCWD, handle, folder, hidden, AT_SYMLINK_FOLLOW) == 0 else {
          throw fail("cannot name \(target)")
        }
        guard renameat(folder, hidden, folder, name) == 0 else {
          unlinkat(folder, hidden, 0)
          throw fail("cannot name \(target)")
        }
      }
    }
    // The bytes were synced before the name was given, so a crash leaves the whole file or
    // none; the folder is not synced too (cp syncs nothing, and the name needs no more).
    done = true
    return .copied(path: target)
  }

  /// Copies `size` bytes, a piece at a time (the kernel's `copy_file_range` when it can).
  private static func pour(_ input: Int32, into output: Int32, size: Int, target: String)
    throws(Failure)
  {
    let hold = ProcessInfo.processInfo.environment["GUTENBERG_TEST_SEND_HOLD"]
    var copied = 0
    var buffer: [UInt8] = []
    var kernel = true
    while copied < size {
      let count = min(piece, size - copied)
      var moved = -1
      if kernel, let copyRange = Self.copyFileRange {
        var from = off_t(copied)
        moved = copyRange(input, &from, output, nil, count, 0)
        if moved < 0, [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF].contains(errno) {
          kernel = false
        }
      } else {
        kernel = false
      }
      if !kernel, buffer.isEmpty { buffer = [UInt8](repeating: 0, count: piece) }
      if !kernel {
        moved = buffer.withUnsafeMutableBytes { pread(input, $0.baseAddress, count, off_t(copied)) }
        if moved > 0 {
          var written = 0
          while written < moved {
            let step = buffer.withUnsafeBytes {
              Glibc.write(output, $0.baseAddress! + written, moved - written)
            }
            if step < 0, errno == EINTR { continue }
            guard step > 0 else {
              throw Failure(
                description: "cannot write \(target): \(String(cString: strerror(errno)))")
            }
            written += step
          }
        }
      }
      if moved < 0, errno == EINTR { continue }
      guard moved > 0 else {
        let reason = moved == 0 ? "the book's file got shorter" : String(cString: strerror(errno))
        throw Failure(description: "cannot copy to \(target): \(reason)")
      }
      copied += moved
      if let hold, copied < size {
        // Tests: say a piece is out, then wait to be killed half-way.
        _ = FileManager.default.createFile(atPath: hold, contents: Data("copying\n".utf8))
        while true { pause() }
      }
    }
  }

  /// Whether the file `name` in `folder` holds the same `size` bytes as `input`.
  private static func sameBytes(_ input: Int32, folder: Int32, name: String, size: Int) -> Bool {
    let other = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard other >= 0 else { return false }
    defer { close(other) }
    var left = [UInt8](repeating: 0, count: 1_048_576)
    var right = left
    var offset = 0
    while offset < size {
      let count = min(left.count, size - offset)
      let a = left.withUnsafeMutableBytes { pread(input, $0.baseAddress, count, off_t(offset)) }
      let b = right.withUnsafeMutableBytes { pread(other, $0.baseAddress, count, off_t(offset)) }
      guard a == count, b == count, left[..<count] == right[..<count] else { return false }
      offset += count
    }
    return true
  }

  /// Removes what a killed copy left in the folder (`.NAME.gutenberg-PID.part`).
  private static func removeStale(folder: Int32, prefix: String) {
    let duplicate = dup(folder)
    guard duplicate >= 0, let listing = fdopendir(duplicate) else { return }
    defer { closedir(listing) }
    var stale: [String] = []
    while let entry = readdir(listing) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name.hasPrefix(prefix), name.hasSuffix(".part") { stale.append(name) }
    }
    for name in stale { unlinkat(folder, name, 0) }
  }
}
