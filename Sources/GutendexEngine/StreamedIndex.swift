import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An index of a whole catalogue built in bounded memory: each book, as it comes (in any
/// order), is appended to a nameless temporary file (``SpillFile``) and its id and place go to
/// an ``ExternalSorter``; ``write(to:keepingSummaries:onBook:)`` then reads the books back one
/// at a time in id order into ``IndexWriter``, which spills every section as it goes, and
/// writes the index file. Nothing held grows with the number of books but the distinct strings
/// the writer pools; the file is byte for byte what
/// ``CatalogueSnapshot/make(records:keepingSummaries:)`` makes of the same books.
///
/// A book added twice keeps its last copy (a feed that repeats a record: the later one wins).
/// The owner calls ``close()`` once, whatever happened (the temporary files then vanish).
struct StreamedIndex: Sendable {
  private var spill: SpillFile
  /// Per book added: its id and sequence number, where its bytes lie, its release date.
  private var entries: ExternalSorter<SpilledBook>
  /// The ids ``saw(_:)`` was told of (a feed's records, hidden books included).
  private var seen: ExternalSorter<UInt64>
  private var sequence: UInt32 = 0
  private let directory: URL

  /// How many entries are sorted in memory at once (1.5 MiB).
  static let sortCapacity = 1 << 16

  /// A builder whose temporary files go in `directory` (the data directory's catalogue): the
  /// books' file is created now, so a directory that cannot hold it fails before any reading.
  init(in directory: URL) throws(SyncFileError) {
    self.directory = directory
    spill = SpillFile(in: directory)
    try spill.create()
    entries = ExternalSorter(in: directory, capacity: Self.sortCapacity)
    seen = ExternalSorter(in: directory, capacity: IndexWriter.sortCapacity)
  }

  /// How many books were added (a repeated id counts each time).
  var addedCount: Int { entries.count }

  /// Adds a book (a later copy of the same id replaces it), with the release date the feed
  /// gives it (`YYYY-MM-DD`), which ``write(to:keepingSummaries:onBook:)`` hands back.
  /// `superseded`: a copy any other copy of the id replaces, whenever that one is added (the
  /// previous catalogue's books, under those a sync brings).
  mutating func add(
    _ record: BookRecord, issued: String? = nil, superseded: Bool = false
  ) throws(SyncFileError) {
    let bytes = record.spilled
    let offset = try spill.append(bytes)
    let rank = (superseded ? 0 : UInt64(1) << 31) | UInt64(sequence & 0x7FFF_FFFF)
    try entries.append(
      SpilledBook(
        key: UInt64(UInt32(truncatingIfNeeded: record.id)) << 32 | rank,
        offset: UInt64(offset), count: UInt32(bytes.count), issued: SpilledBook.pack(issued)))
    sequence &+= 1
  }

  /// Notes that the feed has a record for `id` (one it could read, even a hidden book's).
  mutating func saw(_ id: Int) throws(SyncFileError) {
    try seen.append(UInt64(UInt32(truncatingIfNeeded: id)))
  }

  /// Calls `body` with each id ``saw(_:)`` was told of, ascending, once each.
  mutating func forEachSeenID(_ body: (Int) throws -> Void) throws {
    var last: UInt64?
    try seen.forEachSorted { id in
      guard id != last else { return }
      last = id
      try body(Int(id))
    }
  }

  /// Writes the index of every book added to `url` (created; synced to disk); returns how many
  /// books it holds. `onBook` hears each book written, in id order, with its release date. A
  /// failure removes what it wrote of `url`.
  @discardableResult
  mutating func write(
    to url: URL, keepingSummaries: Bool,
    onBook: (_ id: Int, _ issued: String?) throws -> Void = { _, _ in }
  ) throws -> Int {
    try spill.flush()
    var writer = try IndexWriter(keepingSummaries: keepingSummaries, in: directory)
    defer { writer.close() }
    var bytes: [UInt8] = []
    let books = spill
    func emit(_ entry: SpilledBook) throws {
      try books.read(at: Int(entry.offset), count: Int(entry.count), into: &bytes)
      let record = try BookRecord(spilled: bytes)
      try writer.add(record)
      try onBook(record.id, entry.issuedDate)
    }
    // Sorted by id, then by the order added: the last of each id's run is its latest copy.
    var held: SpilledBook?
    var rank = 0
    try entries.forEachSorted { entry in
      // Ctrl-C ends a rebuild of the whole catalogue within a moment, not at its end.
      if rank % 4096 == 0 { try Task.checkCancellation() }
      rank += 1
      if let previous = held, previous.id != entry.id { try emit(previous) }
      held = entry
    }
    if let held { try emit(held) }

    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SyncFileError.system("cannot create \(url.path)", errno) }
    var finished = false
    defer {
      SpillFile.close(descriptor)
      if !finished { unlink(url.path) }
    }
    // Pieces are gathered into writes of a megabyte.
    var pending: [UInt8] = []
    pending.reserveCapacity(SpillFile.largeBuffer)
    func drain() throws {
      try SpillFile.writeAll(descriptor, pending, what: url.path)
      pending.removeAll(keepingCapacity: true)
    }
    try writer.write { piece in
      pending.append(contentsOf: piece)
      if pending.count >= SpillFile.largeBuffer { try drain() }
    }
    try drain()
    guard fsync(descriptor) == 0 else {
      throw SyncFileError.system("cannot sync \(url.path)", errno)
    }
    finished = true
    return writer.bookCount
  }

  /// Closes the temporary files (their space is freed).
  func close() {
    spill.close()
    entries.close()
    seen.close()
  }
}

/// A book in a ``StreamedIndex``'s spill, as its sorter holds it: sorted by id, then by the
/// order the books were added.
struct SpilledBook: BitwiseCopyable, Comparable, Sendable {
  /// The id (high 32 bits), then whether the copy is not superseded (bit 31) and the sequence
  /// number (low 31 bits).
  var key: UInt64
  var offset: UInt64
  var count: UInt32
  /// The release date as `YYYYMMDD` plus one, 0 for none.
  var issued: UInt32

  var id: Int { Int(key >> 32) }

  static func < (left: SpilledBook, right: SpilledBook) -> Bool { left.key < right.key }
  static func == (left: SpilledBook, right: SpilledBook) -> Bool { left.key == right.key }

  /// `YYYY-MM-DD` as `YYYYMMDD`; 0 for nil or any other text (which ``Arrival`` would not
  /// read back either).
  static func pack(_ issued: String?) -> UInt32 {
    guard let issued, Arrival.isIssuedDate(issued) else { return 0 }
    let digits = issued.utf8.filter { $0 != UInt8(ascii: "-") }
    return digits.reduce(0) { $0 * 10 + UInt32($1 - UInt8(ascii: "0")) } + 1
  }

  /// The release date given when the book was added.
  var issuedDate: String? {
    guard issued != 0 else { return nil }
    let text = String(issued - 1)
    let padded = String(repeating: "0", count: max(0, 8 - text.count)) + text
    let digits = Array(padded)
    return String(digits[0..<4]) + "-" + String(digits[4..<6]) + "-" + String(digits[6..<8])
  }
}
