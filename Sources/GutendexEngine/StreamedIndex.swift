import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An index of a whole catalogue built without holding its books: each book, as it comes (in
/// any order), is appended to a nameless temporary file (``SpillFile``) and only its id and
/// place are kept; ``write(to:keepingSummaries:)`` then reads them back one at a time in id
/// order through ``IndexWriter``, its records section going to a second temporary file, and
/// writes the index file. Memory stays at the columns and pools (tens of MB for 77,000 books)
/// whatever the books' texts weigh; the file is byte for byte what
/// ``CatalogueSnapshot/make(records:keepingSummaries:)`` makes of the same books.
///
/// A book added twice keeps its last copy (a feed that repeats a record: the later one wins).
/// The owner calls ``close()`` once, whatever happened (the temporary files then vanish).
struct StreamedIndex: Sendable {
  private var spill: SpillFile
  /// Per book added: its id, and where its bytes lie in the spill file.
  private var entries: [Entry] = []
  /// The ids added.
  private(set) var ids: Set<Int> = []
  private let directory: URL

  private struct Entry: Sendable {
    var id: Int
    var offset: Int
    var count: Int
  }

  /// A builder whose temporary files go in `directory` (the data directory's catalogue).
  init(in directory: URL) throws(SyncFileError) {
    self.directory = directory
    spill = try SpillFile(in: directory)
  }

  /// How many distinct books the index will hold.
  var bookCount: Int { ids.count }

  /// Adds a book (a later copy of the same id replaces it).
  mutating func add(_ record: BookRecord) throws(SyncFileError) {
    let bytes = record.spilled
    let offset = try spill.append(bytes)
    entries.append(Entry(id: record.id, offset: offset, count: bytes.count))
    ids.insert(record.id)
  }

  /// Writes the index of every book added to `url` (created; synced to disk); returns how many
  /// books it holds. A failure removes what it wrote of `url`.
  @discardableResult
  mutating func write(to url: URL, keepingSummaries: Bool) throws -> Int {
    try spill.flush()
    // A stable sort: among copies of one id, the last added comes last and is the one kept.
    let order = entries.indices.sorted {
      entries[$0].id != entries[$1].id ? entries[$0].id < entries[$1].id : $0 < $1
    }
    var writer = IndexWriter(keepingSummaries: keepingSummaries)
    var records = try SpillFile(in: directory)
    defer { records.close() }
    var bytes: [UInt8] = []
    for (rank, number) in order.enumerated() {
      // Ctrl-C ends a rebuild of the whole catalogue within a moment, not at its end.
      if rank % 4096 == 0 { try Task.checkCancellation() }
      if rank + 1 < order.count, entries[order[rank + 1]].id == entries[number].id { continue }
      let entry = entries[number]
      try spill.read(at: entry.offset, count: entry.count, into: &bytes)
      try records.append(try writer.add(try BookRecord(spilled: bytes)))
    }
    try records.flush()

    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SyncFileError.system("cannot create \(url.path)", errno) }
    var finished = false
    defer {
      SpillFile.close(descriptor)
      if !finished { unlink(url.path) }
    }
    // Small sections are gathered into one buffer; the records section is copied across.
    var pending: [UInt8] = []
    func drain() throws {
      try SpillFile.writeAll(descriptor, pending, what: url.path)
      pending.removeAll(keepingCapacity: true)
    }
    let copy = records
    try writer.write(
      records: IndexWriter.Records(
        count: copy.size, checksum: copy.checksum,
        write: { _ in
          try drain()
          try copy.copy(to: descriptor)
        })
    ) { piece in
      pending.append(contentsOf: piece)
      if pending.count >= 1 << 20 { try drain() }
    }
    try drain()
    guard fsync(descriptor) == 0 else {
      throw SyncFileError.system("cannot sync \(url.path)", errno)
    }
    finished = true
    return writer.bookCount
  }

  /// Closes the temporary file (its space is freed).
  func close() {
    spill.close()
  }
}
