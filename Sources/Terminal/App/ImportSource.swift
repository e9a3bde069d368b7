import Catalog
import Foundation
import Gutendex

/// Reads an import document, never more than one byte past the service's import limit, so a
/// huge file costs at most the limit in memory (the service then refuses it whole).
enum ImportSource {
  /// An import document as it is handed to the service.
  enum Document {
    /// Standard input's bytes, read whole.
    case bytes(Data)
    /// A regular file, open to read (the service streams it; the caller closes it).
    case file(Int32)
  }

  /// `path` opened (a regular file, without blocking), or standard input read (`-`).
  static func open(_ path: String) async throws -> Document {
    guard path != "-" else { return .bytes(try await read(path)) }
    return .file(try RegularFile.open(path, flags: O_RDONLY))
  }

  /// The bytes of `path` (`-`: standard input), at most ``FavoritesTransfer/importLimit`` + 1.
  static func read(_ path: String) async throws -> Data {
    let limit = FavoritesTransfer.importLimit + 1
    if path == "-" {
      return await withCheckedContinuation { continuation in
        // A blocking read must not hold a thread of the cooperative pool.
        Thread.detachNewThread {
          continuation.resume(returning: readUpTo(limit, from: .standardInput))
        }
      }
    }
    // Without blocking, and only a regular file (a FIFO is read as `-` is, from a pipe).
    let handle = FileHandle(
      fileDescriptor: try RegularFile.open(path, flags: O_RDONLY), closeOnDealloc: true)
    defer { try? handle.close() }
    return readUpTo(limit, from: handle)
  }

  private static func readUpTo(_ limit: Int, from handle: FileHandle) -> Data {
    var data = Data()
    // Room for the limit at once (untouched pages cost nothing): growing by copies would hold
    // two buffers of a large document at the same moment.
    data.reserveCapacity(limit)
    while data.count < limit {
      guard let piece = try? handle.read(upToCount: min(1 << 20, limit - data.count)),
        !piece.isEmpty
      else { break }
      data.append(piece)
    }
    return data
  }
}
