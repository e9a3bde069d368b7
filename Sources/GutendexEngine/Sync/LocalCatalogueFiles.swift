import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The local catalogue's files in the data directory (`<data>/catalogue/`).
///
/// `state.json` names the current index file (`local-<token>.gdxindex`: the embedded books
/// with the synced ones upserted); both are replaced atomically, the state last, so the state's
/// rename is the one moment a sync takes effect and any crash before it leaves the previous
/// catalogue answering. `pending.jsonl` holds the books a sync fetched but has not merged yet
/// and `cursor` the page it would fetch next, so an interrupted sync resumes where it stopped.
public struct LocalCatalogueFiles: Sendable {
  /// `<data>/catalogue`.
  public let directory: URL

  /// The files under `dataDirectory`.
  public init(dataDirectory: URL) {
    directory = dataDirectory.appendingPathComponent("catalogue", isDirectory: true)
  }

  var stateURL: URL { directory.appendingPathComponent("state.json") }
  var pendingURL: URL { directory.appendingPathComponent("pending.jsonl") }
  var cursorURL: URL { directory.appendingPathComponent("cursor") }
  var lockURL: URL { directory.appendingPathComponent("sync.lock") }
  var syncedIDsURL: URL { directory.appendingPathComponent("synced-ids.json") }

  /// The ids of books whose record came from the server.
  func readSyncedIDs() -> Set<Int> {
    guard let data = Self.contents(of: syncedIDsURL),
      let ids = try? JSONDecoder().decode([Int].self, from: data)
    else { return [] }
    return Set(ids)
  }

  func writeSyncedIDs(_ ids: Set<Int>) throws(SyncFileError) {
    let data = (try? JSONEncoder().encode(ids.sorted())) ?? Data("[]".utf8)
    try AtomicFile.write(data, to: syncedIDsURL)
  }

  /// The recorded state, nil when no sync ever ran here.
  public func readState() throws(SyncFileError) -> SyncState? {
    let data: Data
    do {
      // Not blocking on a FIFO, nor reading a device: only a regular file is a state.
      guard let read = try RegularFile.read(stateURL.path, limit: Self.readLimit) else {
        return nil
      }
      data = read
    } catch {
      throw SyncFileError(description: "cannot read \(stateURL.path): \(error.reason)")
    }
    do {
      return try SyncState.decoder.decode(SyncState.self, from: data)
    } catch {
      throw SyncFileError(description: "\(stateURL.path) is damaged (not a sync state)")
    }
  }

  /// The synced index file named by `state`, nil when there is none yet.
  public func indexURL(_ state: SyncState?) -> URL? {
    state?.indexFile.map { directory.appendingPathComponent($0) }
  }

  /// The delta index file named by `state`, nil when there is none.
  public func deltaURL(_ state: SyncState?) -> URL? {
    state?.deltaFile.map { directory.appendingPathComponent($0) }
  }

  /// An engine over the local catalogue: the base (the index a feed refresh or an older sync
  /// wrote, else the embedded snapshot) with the delta of synced books merged into every
  /// answer. A file that cannot be read throws (it is never silently replaced by older data).
  public func openEngine() throws -> GutendexEngine {
    let state = try readState()
    do {
      return try engine(for: state)
    } catch {
      // A sync committed between reading the state and mapping its files: read it once more.
      let again = try readState()
      guard again != state else { throw error }
      return try engine(for: again)
    }
  }

  private func engine(for state: SyncState?) throws -> GutendexEngine {
    guard let base = indexURL(state)?.path ?? EmbeddedCatalogue.resourceURL?.path else {
      return try EmbeddedCatalogue.load()
    }
    guard let delta = deltaURL(state) else { return try CatalogueSnapshot.engine(mapping: base) }
    return try CatalogueSnapshot.engine(mapping: base, delta: delta.path)
  }

  func createDirectory() throws(SyncFileError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw SyncFileError(
        description: "cannot create \(directory.path): \(error.localizedDescription)")
    }
  }

  /// Writes `state` alone (a run logged, the index unchanged).
  func write(_ state: SyncState) throws(SyncFileError) {
    let data: Data
    do {
      data = try SyncState.encoder.encode(state)
    } catch {
      throw SyncFileError(description: "cannot encode the sync state: \(error)")
    }
    try AtomicFile.write(data, to: stateURL)
  }

  /// A fresh file name for an index of `kind` (`local` for a base, `delta`).
  func freshName(_ kind: String) -> String {
    "\(kind)-\(UInt64(Date().timeIntervalSince1970 * 1000))-\(getpid()).gdxindex"
  }

  /// Makes the index file `name` in the catalogue directory (complete and synced to disk:
  /// ``StreamedIndex`` wrote it: a whole new base holding every book of the catalogue, the
  /// delta's included, from a feed refresh) the new base: the state naming it, with no delta,
  /// is renamed over the old one (the moment the new catalogue takes effect), then index files
  /// no state names are removed (this one too, when the state cannot be written).
  func commit(baseNamed name: String, bookCount: Int, state: SyncState) throws(SyncFileError) {
    var state = state
    AtomicFile.syncDirectory(directory)
    state.indexFile = name
    state.deltaFile = nil
    state.bookCount = bookCount
    state.baseBooks = bookCount
    state.addedBooks = 0
    do {
      try write(state)
    } catch {
      unlink(directory.appendingPathComponent(name).path)
      throw error
    }
    removeStaleIndexes(keeping: state)
  }

  /// Makes the delta index file `name` in the catalogue directory (complete and synced to
  /// disk: ``DeltaBuilder`` wrote it) the delta: the state naming it is renamed over the old
  /// one (the moment the synced books take effect), then index files no state names are
  /// removed. The base is not touched.
  func commit(deltaNamed name: String, state: SyncState) throws(SyncFileError) {
    var state = state
    AtomicFile.syncDirectory(directory)
    state.deltaFile = name
    try write(state)
    removeStaleIndexes(keeping: state)
  }

  /// Makes the index file at `url` (written by the index writer, e.g. by a feed refresh) the
  /// local catalogue's new base, atomically: it is moved into the catalogue directory under a
  /// new name, the delta keeps only the books the new base lacks (the base's copies are the
  /// newer), and the state naming both is renamed over the old one. The caller holds the sync
  /// lock (``CatalogueSync`` does). Returns the state written.
  @discardableResult
  public func installBase(indexAt url: URL) throws -> SyncState {
    try createDirectory()
    let base = try CatalogueSnapshot.engine(mapping: url.path)
    let previous = try openEngine()
    let kept = try previous.deltaRecords().filter { !base.baseHolds($0.id) }
    let name = freshName("local")
    let target = directory.appendingPathComponent(name)
    guard rename(url.path, target.path) == 0 else {
      throw SyncFileError.system("cannot move \(url.path) to \(target.path)", errno)
    }
    var state =
      try readState() ?? SyncState(snapshotDate: EmbeddedCatalogue.snapshotDate, bookCount: 0)
    state.indexFile = name
    state.deltaFile = nil
    if !kept.isEmpty {
      let deltaName = freshName("delta")
      try AtomicFile.write(
        try CatalogueSnapshot.make(records: kept, keepingSummaries: true),
        to: directory.appendingPathComponent(deltaName))
      state.deltaFile = deltaName
    }
    state.baseBooks = base.bookCount
    state.addedBooks = kept.count
    state.bookCount = base.bookCount + kept.count
    state.syncedBooks = kept.count
    try write(state)
    AtomicFile.syncDirectory(directory)
    removeStaleIndexes(keeping: state)
    return state
  }

  /// Deletes index files `state` does not name (left by a sync killed before its state was
  /// written, or replaced by a newer one; a process that mapped one keeps reading it until it
  /// unmaps).
  func removeStaleIndexes(keeping state: SyncState?) {
    let kept = [state?.indexFile, state?.deltaFile]
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for file in names
    where (file.hasPrefix("local-") || file.hasPrefix("delta-")) && file.hasSuffix(".gdxindex")
      && !kept.contains(file)
    {
      unlink(directory.appendingPathComponent(file).path)
    }
  }

  /// The most a file of the catalogue's directory is read up to (a larger one is not ours).
  static let readLimit = 1 << 30

  /// The bytes of one of the catalogue's files, nil when it is absent or is not a regular
  /// file (read without blocking: a FIFO put there is passed over, see ``RegularFile``).
  static func contents(of url: URL) -> Data? {
    (try? RegularFile.read(url.path, limit: readLimit)) ?? nil
  }

  // MARK: - Pending books and the cursor of an unfinished sync

  /// Appends books (one JSON object per line) and syncs the file, so they survive a crash.
  func appendPending(_ books: [Data], durable: Bool = true) throws(SyncFileError) {
    guard !books.isEmpty else { return }
    var bytes = [UInt8]()
    bytes.reserveCapacity(books.reduce(books.count) { $0 + $1.count })
    for book in books {
      // A line break inside a book would split it; the server's compact JSON has none. Copied
      // as whole buffers: a byte-by-byte filter of `Data` cost a sync of 1,000 books ~0.1 s.
      book.withUnsafeBytes { raw in
        let buffer = raw.bindMemory(to: UInt8.self)
        if buffer.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
          bytes.append(contentsOf: buffer.lazy.filter { $0 != 0x0A && $0 != 0x0D })
        } else {
          bytes.append(contentsOf: buffer)
        }
      }
      bytes.append(0x0A)
    }
    let descriptor: Int32
    do {
      // Never written through a link, never a FIFO (see ``RegularFile``).
      descriptor = try RegularFile.open(
        pendingURL.path, flags: O_RDWR | O_CREAT | O_APPEND, followingLinks: false)
    } catch {
      throw SyncFileError(description: "cannot open \(pendingURL.path): \(error.reason)")
    }
    defer { close(descriptor) }
    // A line cut short by a crash or a full disk is cut off, so the next line starts clean.
    let size = Self.wholeLinesSize(descriptor)
    if size < lseek(descriptor, 0, SEEK_END) { _ = ftruncate(descriptor, size) }
    let wrote = bytes.withUnsafeBytes {
      AtomicFile.systemWrite(descriptor, $0.baseAddress, $0.count)
    }
    guard wrote == bytes.count else {
      let code = wrote < 0 ? errno : ENOSPC
      _ = ftruncate(descriptor, size)
      throw .system("cannot write \(pendingURL.path)", code)
    }
    guard !durable || fsync(descriptor) == 0 else {
      throw .system("cannot sync \(pendingURL.path)", errno)
    }
  }

  /// The length of the file up to and including its last line break.
  private static func wholeLinesSize(_ descriptor: Int32) -> off_t {
    var end = lseek(descriptor, 0, SEEK_END)
    var byte: UInt8 = 0
    while end > 0 {
      guard pread(descriptor, &byte, 1, end - 1) == 1 else { return 0 }
      if byte == 0x0A { return end }
      end -= 1
    }
    return 0
  }

  /// Keeps books the server sent in normal use for the next sync to merge. Skipped (no error)
  /// while a sync runs, since it is about to replace the pending list, and once the list holds
  /// ``seenLimit`` bytes: browsing for months without a sync (or a server sending huge books)
  /// must not fill the disk, and the next sync fetches what was not kept.
  public func upsertSeen(_ books: [Data]) throws(SyncFileError) {
    try createDirectory()
    guard let lock = try? SyncLock(lockURL) else { return }
    defer { lock.release() }
    var info = stat()
    if stat(pendingURL.path, &info) == 0, Int(info.st_size) >= Self.seenLimit { return }
    try appendPending(books, durable: false)
  }

  /// The size past which books seen in normal use are no longer kept pending: 16 MiB, some
  /// 8,000 books.
  static let seenLimit = 16 << 20

  /// The newest copy of book `id` among the books seen since the last sync, if any.
  public func seenBook(id: Int) -> Data? {
    let key = Data("{\"id\":\(id),".utf8)
    return readPending().last { $0.starts(with: key) }
  }

  /// Calls `body` with each pending book, whole lines only (a line cut by a crash is dropped),
  /// read a piece at a time: the list is never held whole.
  func forEachPending(_ body: (ArraySlice<UInt8>) throws -> Void) rethrows {
    guard var reader = FileReader(path: pendingURL.path) else { return }
    defer { reader.close() }
    try reader.forEachLine { line in
      if !line.isEmpty { try body(line) }
    }
  }

  /// The pending books, whole lines only (a line cut by a crash is dropped).
  func readPending() -> [Data] {
    guard let data = Self.contents(of: pendingURL) else { return [] }
    // Line ends are found in the raw buffer: `Data`'s own iterator costs a call per byte.
    let ends: [Int] = data.withUnsafeBytes { raw in
      raw.indices.filter { raw[$0] == 0x0A }
    }
    var lines: [Data] = []
    lines.reserveCapacity(ends.count)
    var start = 0
    for end in ends {
      if end > start { lines.append(data[(data.startIndex + start)..<(data.startIndex + end)]) }
      start = end + 1
    }
    return lines
  }

  /// The `next` link an unfinished walk would fetch, nil when none was left.
  func readCursor() -> String? {
    guard let data = Self.contents(of: cursorURL) else { return nil }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? nil : text
  }

  /// Not synced to disk: a cursor or pending books lost to a power cut only cost requests (the
  /// walk goes on until a wholly known page, so it refetches what was lost).
  func writeCursor(_ next: String?) throws(SyncFileError) {
    try AtomicFile.write(Data((next ?? "").utf8), to: cursorURL, durable: false)
  }

  /// Forgets the pending books and the cursor, once they are merged into a committed index;
  /// `durable` makes that survive a power cut (not needed when the pending books are ones the
  /// index already holds: merged again, they change nothing).
  func clearPending(keepingCursor: Bool = false, durable: Bool = true) {
    unlink(pendingURL.path)
    if !keepingCursor { unlink(cursorURL.path) }
    if durable { AtomicFile.syncDirectory(directory) }
  }
}
