import CArchive
import Foundation

/// Writes `cache/epub/<id>/pg<id>.rdf` entries of a bzip2-compressed tar one at a time
/// (libarchive: bzip2 filter at level 9, ustar entries), as Project Gutenberg's feed is made,
/// so that a feed of any size is written without holding its records.
public final class FeedArchiveWriter {
  private let archive: OpaquePointer
  private let entry: OpaquePointer
  private let path: String
  private var closed = false

  /// Starts the archive at `path`.
  public init(path: String) throws {
    if let reason = gb_archive_load() { throw HarnessFailure(description: String(cString: reason)) }
    guard let archive = gb_archive_write_new() else {
      throw HarnessFailure(description: "libarchive could not start")
    }
    gb_archive_write_add_filter_bzip2(archive)
    gb_archive_write_set_format_ustar(archive)
    guard gb_archive_write_open_filename(archive, path) == ARCHIVE_OK,
      let entry = gb_archive_entry_new()
    else {
      gb_archive_write_free(archive)
      throw HarnessFailure(description: "cannot write \(path)")
    }
    self.archive = archive
    self.entry = entry
    self.path = path
  }

  deinit {
    gb_archive_entry_free(entry)
    gb_archive_write_free(archive)
  }

  /// Adds book `id`'s record.
  public func add(id: Int, _ bytes: Data) throws {
    gb_archive_entry_clear(entry)
    gb_archive_entry_set_pathname(entry, "cache/epub/\(id)/pg\(id).rdf")
    gb_entry_set_regular_file(entry, 0o644)
    gb_archive_entry_set_size(entry, la_int64_t(bytes.count))
    guard gb_archive_write_header(archive, entry) == ARCHIVE_OK,
      bytes.withUnsafeBytes({ gb_archive_write_data(archive, $0.baseAddress, $0.count) })
        == bytes.count
    else {
      let reason = gb_archive_error_string(archive).map { String(cString: $0) } ?? "?"
      throw HarnessFailure(description: "cannot write \(path): \(reason)")
    }
  }

  /// Ends the archive (its end blocks, the bzip2 stream's end).
  public func close() throws {
    guard !closed else { return }
    closed = true
    guard gb_archive_write_close(archive) == ARCHIVE_OK else {
      throw HarnessFailure(description: "cannot finish \(path)")
    }
  }
}
