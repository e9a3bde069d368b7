import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Read-only bytes that stay at one address for the region's life: a file mapped into memory
/// (pages are read from disk only when touched), or a private copy of some data.
///
/// Besides the mapping, a file region keeps its descriptor, so that scattered small reads and
/// long scans can go through `pread` (``read(_:)``): a touched page of a
/// mapping counts in the process's resident size, and the kernel maps up to 15 neighbours with
/// each fault, so reading 32 scattered records through the mapping would add megabytes.
///
/// `@unchecked Sendable` is safe: the bytes are never written after `init` (the mapping is
/// `PROT_READ`, the copy is filled before `init` returns), `base`, `count` and `descriptor` are
/// `let`, `pread` is thread-safe (it takes its own offset), and the memory and descriptor are
/// released only in `deinit`, when no other reference can exist.
final class ByteRegion: @unchecked Sendable {
  /// The first byte; valid for `count` bytes while the region lives.
  let base: UnsafeRawPointer
  /// How many bytes the region holds.
  let count: Int
  /// The file's descriptor, nil for a copy.
  private let descriptor: Int32?
  private let release: (UnsafeRawPointer, Int) -> Void

  /// Maps the whole file at `path` read-only.
  init(mapping path: String) throws(EngineError) {
    // Without blocking, and only a regular file: a FIFO at `GUTENBERG_INDEX` must not hang
    // the program, nor a device be mapped.
    let descriptor: Int32
    do {
      descriptor = try RegularFile.open(path, flags: O_RDONLY)
    } catch {
      throw .badSnapshot(
        error.reason.hasPrefix("is ") ? error.description : "cannot open \(error.description)")
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw .badSnapshot("cannot read \(path): \(reason)")
    }
    let size = Int(info.st_size)
    guard size > 0 else {
      close(descriptor)
      throw .badSnapshot("\(path) is empty")
    }
    let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let mapped, mapped != MAP_FAILED else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw .badSnapshot("cannot map \(path): \(reason)")
    }
    base = UnsafeRawPointer(mapped)
    count = size
    self.descriptor = descriptor
    release = { pointer, length in
      munmap(UnsafeMutableRawPointer(mutating: pointer), length)
      close(descriptor)
    }
  }

  /// A private copy of `data`.
  init(copying data: Data) {
    let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, data.count), alignment: 16)
    data.withUnsafeBytes { source in
      if let address = source.baseAddress {
        memory.copyMemory(from: address, byteCount: source.count)
      }
    }
    base = UnsafeRawPointer(memory)
    count = data.count
    descriptor = nil
    release = { pointer, _ in UnsafeMutableRawPointer(mutating: pointer).deallocate() }
  }

  deinit { release(base, count) }

  /// The bytes as a buffer (valid while the region lives).
  var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

  /// A copy of the bytes in `range` (clamped to the region), read without touching the
  /// mapping.
  func read(_ range: Range<Int>) -> [UInt8] {
    let range = range.clamped(to: 0..<count)
    guard let descriptor else { return Array(buffer[range]) }
    var bytes = [UInt8](repeating: 0, count: range.count)
    let done = bytes.withUnsafeMutableBytes { target in
      Self.readFully(descriptor, target, at: range.lowerBound)
    }
    // The file shrank under us: serve what the mapping still shows rather than garbage.
    return done == range.count ? bytes : Array(buffer[range])
  }

  /// Reads `target.count` bytes at `offset`, retrying short reads; returns how many arrived.
  private static func readFully(
    _ descriptor: Int32, _ target: UnsafeMutableRawBufferPointer, at offset: Int
  )
    -> Int
  {
    guard let address = target.baseAddress else { return 0 }
    var done = 0
    while done < target.count {
      let got = pread(descriptor, address + done, target.count - done, off_t(offset + done))
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { break }
      done += got
    }
    return done
  }
}
