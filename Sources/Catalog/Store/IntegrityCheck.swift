import GRDB
import Synchronization

/// Makes a damaged database refuse writes as it refuses reads.
///
/// SQLite reports damage only on the pages a statement touches, so a file whose one page is
/// overwritten fails `favorites list` (which reads every row) yet accepts an insert (which
/// touches only the path to the last leaf), and the insert would then build on the damage. So
/// the first write of a process runs `PRAGMA quick_check` in its own transaction first, and any
/// read or write that meets damage marks the file damaged for the rest of the process.
final class IntegrityCheck: Sendable {
  private enum Verdict {
    case unknown, sound, damaged
  }

  private let verdict = Mutex(Verdict.unknown)

  /// Throws `corrupt` when the file is damaged; checks it (once per process) when not yet known.
  func checkBeforeWriting(_ db: Database, path: String) throws(StoreError) {
    switch verdict.withLock({ $0 }) {
    case .sound: return
    case .damaged: throw .corrupt(path: path)
    case .unknown: break
    }
    let sound: Bool
    do {
      let rows = try String.fetchAll(db, sql: "PRAGMA quick_check")
      sound = rows == ["ok"]
    } catch {
      let mapped = StoreDatabase.mapError(error, path: path)
      if case .corrupt = mapped { sound = false } else { throw mapped }
    }
    verdict.withLock { $0 = sound ? .sound : .damaged }
    if !sound { throw .corrupt(path: path) }
  }

  /// Remembers that `error` showed the file damaged.
  func note(_ error: StoreError) {
    if case .corrupt = error { verdict.withLock { $0 = .damaged } }
  }
}
