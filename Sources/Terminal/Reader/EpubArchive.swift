import CArchive
import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An EPUB's zip, read by libarchive through its central directory (libarchive seeks on the
/// file's descriptor, so an entry not read costs nothing), one entry at a time in the zip's
/// order. What the entries expand to is bounded: an entry that expands past ``entryLimit``
/// is refused as it is read, whatever its header announced, so a zip bomb costs no memory.
struct EpubArchive {
  /// The most bytes one entry may expand to.
  static let entryLimit = 32 << 20
  /// The most entries an EPUB may have.
  static let entryCountLimit = 20_000
  /// Bytes read from the file and expanded at a time.
  static let blockSize = 64 << 10

  /// The file.
  let path: String

  /// One entry while it is read: its path in the zip and its bytes, a block at a time.
  struct Entry {
    let path: String
    fileprivate let archive: OpaquePointer
    fileprivate let buffer: UnsafeMutableRawBufferPointer

    /// Calls `body` with each block of the entry's bytes, in order; fails past `limit` bytes
    /// (at most ``EpubArchive/entryLimit``) and on a block libarchive cannot expand.
    func read(limit: Int = EpubArchive.entryLimit, _ body: (UnsafeRawBufferPointer) throws -> Void)
      throws
    {
      var total = 0
      while true {
        let count = gb_archive_read_data(archive, buffer.baseAddress, buffer.count)
        if count == 0 { return }
        guard count > 0 else { throw EpubError.damaged(EpubArchive.reason(archive)) }
        total += count
        guard total <= min(limit, EpubArchive.entryLimit) else {
          throw EpubError.tooLarge(path, limit: min(limit, EpubArchive.entryLimit))
        }
        try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
      }
    }

    /// The entry's bytes whole (at most `limit`).
    func bytes(limit: Int) throws -> [UInt8] {
      var bytes: [UInt8] = []
      try read(limit: limit) { bytes.append(contentsOf: $0) }
      return bytes
    }
  }

  /// Calls `body` with each regular file of the zip, in the zip's order.
  func forEachEntry(_ body: (Entry) throws -> Void) throws {
    if let reason = gb_archive_load() { throw EpubError.library(String(cString: reason)) }
    let descriptor: Int32
    do {
      descriptor = try RegularFile.open(path, flags: O_RDONLY)
    } catch {
      throw EpubError.unreadable(error.description)
    }
    defer { close(descriptor) }
    guard let archive = gb_archive_read_new() else {
      throw EpubError.damaged("libarchive could not start (out of memory)")
    }
    defer { gb_archive_read_free(archive) }
    gb_archive_read_support_format_zip_seekable(archive)
    guard gb_archive_read_open_fd(archive, descriptor, Self.blockSize) == ARCHIVE_OK else {
      throw EpubError.notZip(Self.reason(archive))
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.blockSize, alignment: 16)
    defer { buffer.deallocate() }
    var entries = 0
    var entry: OpaquePointer?
    while true {
      let status = gb_archive_read_next_header(archive, &entry)
      if status == ARCHIVE_EOF { return }
      guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
        throw EpubError.damaged(Self.reason(archive))
      }
      entries += 1
      guard entries <= Self.entryCountLimit else {
        throw EpubError.damaged("it has more than \(Self.entryCountLimit) files")
      }
      guard gb_entry_is_regular_file(entry) != 0, let name = gb_archive_entry_pathname(entry)
      else { continue }
      try body(Entry(path: String(cString: name), archive: archive, buffer: buffer))
    }
  }

  /// libarchive's words for what failed.
  fileprivate static func reason(_ archive: OpaquePointer) -> String {
    gb_archive_error_string(archive).map { String(cString: $0) } ?? "unreadable"
  }
}

/// Why an EPUB could not be read, in words for one error line.
package enum EpubError: Error, Sendable, Equatable, CustomStringConvertible {
  /// libarchive or libxml2 could not be loaded (the loader's line, naming the package).
  case library(String)
  /// The file could not be opened.
  case unreadable(String)
  /// Not a zip, or one cut short (its central directory, at the end, is missing).
  case notZip(String)
  /// A zip libarchive could not read to the end (a bad checksum, a broken entry).
  case damaged(String)
  /// An entry that expands past the limit.
  case tooLarge(String, limit: Int)
  /// A zip that is not an EPUB as the standard lays it out.
  case notEpub(String)

  /// The reason, for `error: cannot read book N's EPUB: …`.
  package var description: String {
    switch self {
    case .library(let line): line
    case .unreadable(let reason): reason
    case .notZip(let reason):
      "it is not a whole zip archive (cut short, or not a zip: \(reason))"
    case .damaged(let reason): "it is damaged (\(reason))"
    case .tooLarge(let path, let limit):
      "its file \(Sanitizer.sanitize(path)) expands past \(limit >> 20) MiB (damaged, or a zip "
        + "bomb); refused"
    case .notEpub(let reason): "it is not an EPUB (\(reason))"
    }
  }

  /// The exit status: bad data, but for a library that is not installed.
  var status: ExitStatus {
    switch self {
    case .library: .unavailable
    case .unreadable: .failure
    default: .dataError
    }
  }
}
