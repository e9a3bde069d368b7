import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Read-only bytes that stay at one address for the region's life: a file mapped into memory
/// (pages are read from disk only when touched), or a private copy of some data.
///
/// `@unchecked Sendable` is safe: the bytes are never written after `init` (the mapping is
/// `PROT_READ`, the copy is filled before `init` returns), `base` and `count` are `let`, and the
/// memory is released only in `deinit`, when no other reference can exist.
final class ByteRegion: @unchecked Sendable {
  /// The first byte; valid for `count` bytes while the region lives.
  let base: UnsafeRawPointer
  /// How many bytes the region holds.
  let count: Int
  private let release: (UnsafeRawPointer, Int) -> Void

  /// Maps the whole file at `path` read-only.
  init(mapping path: String) throws(EngineError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .badSnapshot("cannot open \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw .badSnapshot("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    let size = Int(info.st_size)
    guard size > 0 else { throw .badSnapshot("\(path) is empty") }
    let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let mapped, mapped != MAP_FAILED else {
      throw .badSnapshot("cannot map \(path): \(String(cString: strerror(errno)))")
    }
    base = UnsafeRawPointer(mapped)
    count = size
    release = { pointer, length in munmap(UnsafeMutableRawPointer(mutating: pointer), length) }
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
    release = { pointer, _ in UnsafeMutableRawPointer(mutating: pointer).deallocate() }
  }

  deinit { release(base, count) }

  /// The bytes as a buffer (valid while the region lives).
  var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
