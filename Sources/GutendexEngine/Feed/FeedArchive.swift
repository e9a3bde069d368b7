import CArchive
import Foundation

/// Project Gutenberg's feed, `rdf-files.tar.bz2`, read as a stream: the bytes come from a pull
/// source (a download in progress, or a file), are decompressed by ``ParallelBzip2`` (the
/// bzip2 blocks on two threads) and read as a tar by libarchive, and each
/// `cache/epub/<id>/pg<id>.rdf` entry is handed over once, expanded in a reused buffer. The
/// archive is never expanded as a whole, in memory or on disk. A feed that is not bzip2 goes
/// through libarchive's own filters (gzip, xz, a plain tar) on one thread.
final class FeedArchive {
  /// The largest record accepted (real ones are a few kB; a larger one is skipped as broken).
  static let recordLimit = 8 << 20

  /// What failed reading the archive itself (not one record).
  struct Failure: Error, Sendable {
    var reason: String
    /// The source's own failure (the network), when that is what stopped the archive.
    var source: (any Error)?
    /// True when libarchive or libxml2 could not be loaded: the archive was never read.
    var libraryMissing = false
  }

  private let next: () throws -> Data?
  private let isCancelled: () -> Bool
  private var chunk: UnsafeMutableRawBufferPointer
  private var sourceFailure: (any Error)?
  // The first piece, read to tell bzip2 from the rest, when libarchive must still be given it.
  private var peeked: Data?
  private var bzip2: ParallelBzip2?

  /// What the bzip2 decompression found (nil for a feed that is not bzip2), once read.
  var bzip2Counts: ParallelBzip2.Counts? { bzip2?.counts }

  /// Reads from `next`, which returns the next piece of the compressed file, nil at its end;
  /// `isCancelled` is checked between blocks (a bomb's blocks need no more input to go on).
  init(next: @escaping () throws -> Data?, isCancelled: @escaping () -> Bool = { false }) {
    self.next = next
    self.isCancelled = isCancelled
    chunk = .allocate(byteCount: 1 << 16, alignment: 16)
  }

  deinit {
    chunk.deallocate()
  }

  /// Calls `body` with each record's id and bytes, in archive order; other entries (the feed
  /// has none today) are passed over. `oversized` is called for a record beyond the limit.
  func forEachRecord(
    oversized: (Int) -> Void, _ body: (Int, UnsafeRawBufferPointer) throws -> Void
  ) throws {
    // libbz2, libarchive and libxml2 are opened here, by the one command that reads the feed
    // (libbz2 first: libarchive needs it too, so a missing one is named as itself).
    if let reason = ParallelBzip2.loadFailure ?? gb_archive_load() ?? FeedRecordReader.loadFailure {
      throw Failure(reason: String(cString: reason), libraryMissing: true)
    }
    // PG's feed is bzip2 (its first bytes say so): decompressed here, block by block on two
    // threads, so libarchive reads the tar with no filter.
    let first: Data
    do {
      first = try firstPiece()
    } catch {
      throw Failure(reason: "\(error)", source: error)
    }
    if ParallelBzip2.isBzip2(first) {
      do {
        bzip2 = try ParallelBzip2(first: first, next: next, isCancelled: isCancelled)
      } catch {
        throw Failure(reason: error.reason)
      }
    } else {
      peeked = first
    }
    defer { bzip2?.close() }
    guard let archive = gb_archive_read_new() else {
      throw Failure(reason: "libarchive could not start (out of memory)")
    }
    defer { gb_archive_read_free(archive) }
    if bzip2 == nil { gb_archive_read_support_filter_all(archive) }
    gb_archive_read_support_format_tar(archive)
    gb_archive_read_support_format_gnutar(archive)
    let context = Unmanaged.passUnretained(self).toOpaque()
    let opened = gb_archive_read_open(
      archive, context, nil,
      { archive, context, buffer in
        let feed = Unmanaged<FeedArchive>.fromOpaque(context!).takeUnretainedValue()
        return feed.fill(archive, buffer)
      }, nil)
    guard opened == ARCHIVE_OK else { throw failure(archive) }

    var record = [UInt8](repeating: 0, count: 64 << 10)
    var entry: OpaquePointer?
    while true {
      let status = gb_archive_read_next_header(archive, &entry)
      if status == ARCHIVE_EOF { break }
      guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
        throw failure(archive)
      }
      guard gb_entry_is_regular_file(entry) != 0,
        let path = gb_archive_entry_pathname(entry), let id = Self.recordID(String(cString: path))
      else { continue }
      let announced =
        gb_archive_entry_size_is_set(entry) != 0 ? Int(gb_archive_entry_size(entry)) : 0
      if announced > Self.recordLimit {
        oversized(id)
        continue
      }
      var length = 0
      while true {
        if length == record.count {
          guard record.count < Self.recordLimit else { break }
          record.append(contentsOf: repeatElement(0, count: record.count))
        }
        let read = record.withUnsafeMutableBytes {
          gb_archive_read_data(archive, $0.baseAddress! + length, $0.count - length)
        }
        if read == 0 { break }
        guard read > 0 else { throw failure(archive) }
        length += read
      }
      if length == record.count, record.count >= Self.recordLimit {
        oversized(id)
        continue
      }
      try record.withUnsafeBytes { try body(id, UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }
    // The tar ended: the rest of the bzip2 stream is read to its end, so that a stream cut
    // off or damaged after the archive's last entry is not taken for a whole one.
    do {
      try bzip2?.finish()
    } catch let failure as ParallelBzip2.Failure {
      throw Failure(reason: failure.reason)
    } catch {
      throw Failure(reason: "\(error)", source: error)
    }
  }

  /// The first piece of the file that is not empty (an empty one at its end).
  private func firstPiece() throws -> Data {
    while let piece = try next() {
      if !piece.isEmpty { return piece }
    }
    return Data()
  }

  /// `cache/epub/<id>/pg<id>.rdf` (any leading folders) → id; nil for any other entry.
  static func recordID(_ path: String) -> Int? {
    let parts = path.split(separator: "/")
    guard parts.count >= 2, let folder = parts.dropLast().last, let id = Int(folder), id >= 0,
      String(folder) == String(id), parts.last == "pg\(id).rdf"
    else { return nil }
    return id
  }

  private func fill(
    _ archive: OpaquePointer?, _ buffer: UnsafeMutablePointer<UnsafeRawPointer?>?
  ) -> la_ssize_t {
    if let bzip2 {
      do {
        guard let bytes = try bzip2.read() else { return 0 }
        buffer?.pointee = bytes.baseAddress
        return la_ssize_t(bytes.count)
      } catch let failure as ParallelBzip2.Failure {
        gb_archive_set_error_string(archive, failure.reason)
        return -1
      } catch {
        sourceFailure = error
        gb_archive_set_error_string(archive, "\(error)")
        return -1
      }
    }
    do {
      var piece = Data()
      if let peeked {
        piece = peeked
        self.peeked = nil
      }
      while piece.isEmpty {
        guard let more = try next() else { return 0 }
        piece = more
      }
      if piece.count > chunk.count {
        chunk.deallocate()
        chunk = .allocate(byteCount: piece.count, alignment: 16)
      }
      piece.copyBytes(to: chunk)
      buffer?.pointee = UnsafeRawPointer(chunk.baseAddress)
      return la_ssize_t(piece.count)
    } catch {
      sourceFailure = error
      gb_archive_set_error_string(archive, "\(error)")
      return -1
    }
  }

  private func failure(_ archive: OpaquePointer) -> Failure {
    let text = gb_archive_error_string(archive).map { String(cString: $0) } ?? "unreadable"
    return Failure(reason: text, source: sourceFailure)
  }
}
