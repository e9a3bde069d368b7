import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension StoreDoctor {
  /// Replaces the damaged store at `url` by a new one holding what can still be read, and
  /// keeps the old file beside it as `NAME.damaged-YYYYMMDD-HHMMSS` (never deleted).
  ///
  /// The new file is made through the normal creation path (migrations) under a temporary
  /// name, filled from a read-only connection to the old one, checked, synced, and renamed
  /// over the old name, so the path always holds a whole file. Two repairs never race: each
  /// takes an exclusive `flock` on the damaged file and looks again once it has it; and SQLite's
  /// write lock on the old file is held meanwhile, so a process that still has it open cannot
  /// commit to it. Returns nil when another repair replaced the file first.
  static func repair(_ url: URL, schema: StoreDatabase.Schema, now: Date) throws(StoreError)
    -> (tables: [StoreSalvage.Table], kept: URL)?
  {
    let path = url.path
    let directory = url.deletingLastPathComponent().path
    guard access(directory, W_OK) == 0 else { throw .notWritable(path: directory) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw .io(path: path, reason: "cannot open: \(StoreDatabase.systemMessage(errno))")
    }
    defer { close(descriptor) }
    // Released by close; another repair waits here until this one has swapped the file.
    if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK else {
        throw .io(path: path, reason: "cannot lock: \(StoreDatabase.systemMessage(errno))")
      }
      BusyWait.logWait()
      guard flock(descriptor, LOCK_EX) == 0 else {
        throw .io(path: path, reason: "cannot lock: \(StoreDatabase.systemMessage(errno))")
      }
    }
    var held = stat()
    var current = stat()
    guard fstat(descriptor, &held) == 0, stat(path, &current) == 0,
      held.st_dev == current.st_dev, held.st_ino == current.st_ino
    else { return nil }
    guard case .damaged = try StoreDatabase.health(path, schema: schema) else { return nil }
    let hadLog = ["-wal", "-shm"].map { StoreDatabase.exists(path + $0) }
    let lock = try StoreWriteLock.take(path, schema: schema)
    defer { lock?.release() }
    try refuseIfOpenElsewhere(descriptor, path: path)

    let temporary = "\(directory)/.\(url.lastPathComponent).\(UUID().uuidString).recovering"
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
    }
    let reader = try? StoreDatabase.readOnlyReader(path, schema: schema, salvaging: true)
    defer { try? reader?.close() }
    var tables: [StoreSalvage.Table] = []
    try StoreDatabase.build(
      at: temporary, schema: schema, busyWait: BusyWait(), reportedAs: path
    ) { db in
      // Nothing of the old file can be read when SQLite cannot open it: an empty store.
      guard let reader else { return }
      // No transaction around the reads: SQLite may fail the COMMIT of a read that met
      // damage, which would throw away the rows already copied.
      tables = try reader.inDatabase { source in try StoreSalvage.copy(from: source, into: db) }
    }
    guard case .sound = try StoreDatabase.health(temporary, schema: schema) else {
      throw .io(path: path, reason: "the recovered copy failed SQLite's integrity check")
    }
    try sync(temporary, reportedAs: path)

    // Looked at again just before the swap: the copy took a while, and a process may have
    // opened the file meanwhile.
    try refuseIfOpenElsewhere(descriptor, path: path)
    let kept = try keep(path, now: now)
    // The old file's WAL and shared memory go with it: left under the old name, SQLite would
    // read them as the new file's.
    for suffix in ["-wal", "-shm"] where StoreDatabase.exists(path + suffix) {
      if rename(path + suffix, kept.path + suffix) != 0 {
        throw .io(
          path: path + suffix, reason: "cannot move aside: \(StoreDatabase.systemMessage(errno))")
      }
    }
    guard rename(temporary, path) == 0 else {
      throw .io(path: path, reason: "cannot replace: \(StoreDatabase.systemMessage(errno))")
    }
    try sync(directory, reportedAs: directory)
    lock?.release()
    // The write lock's connection made these (empty) when the old file had none.
    for (suffix, had) in zip(["-wal", "-shm"], hadLog) where !had {
      unlink(kept.path + suffix)
    }
    return (tables, kept)
  }

  /// Throws when another process has the file open through SQLite. Such a process keeps
  /// reading and writing the old file after the swap (its writes lost with it), and when it
  /// closes, SQLite deletes `-wal` and `-shm` by name: by then the new file's. In WAL mode
  /// every open connection holds a read lock on SQLite's shared-lock range of the database
  /// file (`fcntl`, bytes 0x40000000 to 0x40000200), so one test of that range finds any such
  /// process, and names it. This process's own connections are not seen (`fcntl` locks are a
  /// process's), nor a read with `immutable=1`, which takes no lock and writes nothing.
  private static func refuseIfOpenElsewhere(_ descriptor: Int32, path: String)
    throws(StoreError)
  {
    let pendingByte: off_t = 0x4000_0000
    var probe = flock()
    probe.l_type = Int16(F_WRLCK)
    probe.l_whence = Int16(SEEK_SET)
    probe.l_start = pendingByte
    probe.l_len = 512
    guard fcntl(descriptor, F_GETLK, &probe) == 0 else {
      throw .io(path: path, reason: "cannot test its locks: \(StoreDatabase.systemMessage(errno))")
    }
    guard probe.l_type != Int16(F_UNLCK) else { return }
    throw .io(
      path: path,
      reason: "open in another process (pid \(probe.l_pid)); nothing was changed: close it "
        + "(a gutenberg browser, say), then run `gutenberg doctor --repair` again")
  }

  /// Links the damaged file to `NAME.damaged-YYYYMMDD-HHMMSS` (`-2`, `-3`... when taken): the
  /// old name keeps the file until the new one is renamed over it.
  private static func keep(_ path: String, now: Date) throws(StoreError) -> URL {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    let base = "\(path).damaged-\(formatter.string(from: now))"
    for attempt in 1...100 {
      let name = attempt == 1 ? base : "\(base)-\(attempt)"
      if link(path, name) == 0 { return URL(fileURLWithPath: name) }
      let code = errno
      if code == EEXIST { continue }
      throw .io(
        path: name, reason: "cannot keep the damaged file: \(StoreDatabase.systemMessage(code))")
    }
    throw .io(path: base, reason: "cannot keep the damaged file: too many copies already")
  }

  /// fsync of a file or directory, so the new file and its name survive a power loss.
  private static func sync(_ path: String, reportedAs reported: String) throws(StoreError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .io(path: reported, reason: "cannot open: \(StoreDatabase.systemMessage(errno))")
    }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw .io(
        path: reported, reason: "cannot flush to disk: \(StoreDatabase.systemMessage(errno))")
    }
  }
}
