import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of a text file: mapped read-only from disk, so a 50 MB book costs only the pages
/// that are shown, or copied from `Data` (small texts, tests).
///
/// A mapped file that another program cuts short cannot kill the reader: ``MappingGuard``
/// turns the pages past its new end into zeros, and ``change()`` tells the reader, which stops.
///
/// `@unchecked Sendable` is safe: the bytes are never written after `init` (a `PROT_READ`
/// mapping, a private copy nobody else holds, or a prefix of an ``EpubTextBuffer`` that is
/// only written past it; the guard's zero pages replace pages nobody could read), and they
/// live until `deinit` (the buffer a prefix is of is kept alive by it); the other properties
/// are `let`.
final class TextBytes: @unchecked Sendable {
  /// The first byte, nil when there are none.
  let base: UnsafePointer<UInt8>?
  /// How many bytes there are.
  let count: Int
  /// UTF-8, or Windows-1252 for a Latin-1 text (chosen from the bytes, see
  /// ``encoding(of:)``).
  let encoding: Encoding
  private let mapped: Bool
  /// What holds the bytes when these are a prefix of them (freed by it, not here).
  private let owner: AnyObject?
  /// The mapped file: its path, its descriptor (kept open to see its size) and its identity.
  private let file: (path: String, descriptor: Int32, device: UInt64, inode: UInt64)?

  /// A private copy of `data`.
  init(data: Data) {
    count = data.count
    mapped = false
    file = nil
    owner = nil
    guard count > 0 else {
      base = nil
      encoding = .utf8
      return
    }
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
    data.copyBytes(to: buffer, count: count)
    base = UnsafePointer(buffer)
    encoding = Self.encoding(of: UnsafeBufferPointer(start: buffer, count: count))
  }

  /// `buffer`, which is taken over (and freed with these bytes).
  init(adopting buffer: UnsafeMutableBufferPointer<UInt8>) {
    count = buffer.count
    mapped = false
    file = nil
    owner = nil
    guard let start = buffer.baseAddress, count > 0 else {
      buffer.deallocate()
      base = nil
      encoding = .utf8
      return
    }
    base = UnsafePointer(start)
    encoding = .utf8
  }

  /// The `count` UTF-8 bytes at `base`, which `owner` holds (and keeps while these live).
  init(prefix base: UnsafePointer<UInt8>?, count: Int, of owner: AnyObject) {
    self.base = count > 0 ? base : nil
    self.count = base == nil ? 0 : count
    self.owner = owner
    mapped = false
    file = nil
    encoding = .utf8
  }

  /// The file at `path`, mapped read-only.
  init(path: String) throws {
    // Without blocking, and only a regular file: a FIFO where the book was must not hang.
    let descriptor = try RegularFile.open(path, flags: O_RDONLY)
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw Self.failure(code)
    }
    count = Int(info.st_size)
    mapped = true
    file = (path, descriptor, UInt64(info.st_dev), UInt64(info.st_ino))
    owner = nil
    guard count > 0 else {
      base = nil
      encoding = .utf8
      return
    }
    guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != MAP_FAILED
    else {
      let code = errno
      close(descriptor)
      throw Self.failure(code)
    }
    MappingGuard.register(address, count: count)
    let start = address.assumingMemoryBound(to: UInt8.self)
    base = UnsafePointer(start)
    encoding = Self.encoding(of: UnsafeBufferPointer(start: start, count: count))
  }

  deinit {
    if let file { close(file.descriptor) }
    guard let base, owner == nil else { return }
    if mapped {
      MappingGuard.unregister(base)
      munmap(UnsafeMutableRawPointer(mutating: base), count)
    } else {
      UnsafeMutablePointer(mutating: base).deallocate()
    }
  }

  /// How the mapped file changed since it was opened, in a few words ("was cut short to 1,000
  /// of 450,000 bytes", "was replaced"), or nil when it did not (or the bytes are a copy).
  func change() -> String? {
    guard let file else { return nil }
    var info = stat()
    if fstat(file.descriptor, &info) == 0, Int(info.st_size) < count {
      return "was cut short to \(Int(info.st_size)) of \(count) bytes"
    }
    guard stat(file.path, &info) == 0 else { return "was removed" }
    if UInt64(info.st_dev) != file.device || UInt64(info.st_ino) != file.inode {
      return "was replaced"
    }
    return nil
  }

  /// The byte at `index` (which must be in `0..<count`).
  @inline(__always) subscript(index: Int) -> UInt8 { base.unsafelyUnwrapped[index] }

  /// The bytes in `range`, for decoding.
  func buffer(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    guard let base, !range.isEmpty else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
  }

  /// The bytes in `range` decoded as UTF-8 (invalid sequences become U+FFFD), or as
  /// Windows-1252 for a Latin-1 text.
  func string(_ range: Range<Int>) -> String {
    switch encoding {
    case .utf8: String(decoding: buffer(range), as: UTF8.self)
    case .windows1252: Self.decodeWindows1252(buffer(range))
    }
  }

  /// Tells the kernel the mapped pages in `range` are not needed now: one pass over a 50 MB
  /// book (the line index) then leaves them in the page cache, not in this process's memory.
  func release(_ range: Range<Int>) {
    guard mapped, let base else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let start = (range.lowerBound / page) * page
    let end = (range.upperBound / page) * page
    guard end > start else { return }
    madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, Int32(MADV_DONTNEED))
  }

  private static func failure(_ code: Int32) -> NSError {
    NSError(
      domain: NSPOSIXErrorDomain, code: Int(code),
      userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(code))])
  }
}
