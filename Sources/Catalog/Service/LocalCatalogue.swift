import Foundation
import Gutendex
import GutendexEngine
import Synchronization

/// A Gutendex-compatible catalogue on this machine (the embedded snapshot), loaded on first use.
///
/// It answers through a typed ``CatalogueStore`` opened on first use, so commands that never
/// need it never pay for mapping it.
public final class LocalCatalogue: Sendable {
  /// How the front names it, e.g. "embedded catalogue of 2025-08".
  public var name: String { opened.withLock { $0.name } }
  /// Whether its books carry summaries (the embedded snapshot leaves them out).
  public let hasSummaries: Bool
  /// The data directory's synced catalogue files, nil for a catalogue that is never synced.
  public let files: LocalCatalogueFiles?
  /// When it answers first and when it syncs (see ``SyncPolicy``).
  public let policy: SyncPolicy
  /// The sync state of the catalogue in use (nil: never synced, or unreadable).
  public var openedState: SyncState? { opened.withLock { $0.state } }
  private let openEngine: @Sendable () throws -> GutendexEngine
  /// Set when a damaged local catalogue was replaced by the embedded one (see
  /// ``takeDamageNote()``).
  private let damage = DamageNote()

  /// The note, shared with the opening closure (a `Mutex` cannot be copied into it).
  private final class DamageNote: Sendable {
    let note = Mutex<String?>(nil)
  }
  private let loaded = Mutex<CatalogueStore?>(nil)
  /// The name and state of the catalogue in use; ``reload()`` replaces them after a sync.
  private let opened: Mutex<(name: String, state: SyncState?)>

  /// A local catalogue called `name`, over the engine `open` makes on first use (tests).
  init(
    name: String, hasSummaries: Bool, open: @escaping @Sendable () throws -> GutendexEngine
  ) {
    opened = Mutex((name, nil))
    self.hasSummaries = hasSummaries
    openEngine = open
    files = nil
    policy = SyncPolicy(maxAge: nil)
  }

  /// The data directory's local catalogue: the embedded snapshot with the synced books
  /// upserted (just the snapshot before the first sync), mapped on first use.
  public init(dataDirectory: URL, policy: SyncPolicy) {
    let files = LocalCatalogueFiles(dataDirectory: dataDirectory)
    self.files = files
    self.policy = policy
    // A damaged state file is reported by `status` and `sync`; browsing uses the snapshot.
    let state = try? files.readState()
    opened = Mutex((Self.name(for: state), state))
    hasSummaries = false
    let damage = self.damage
    openEngine = {
      do {
        return try files.openEngine()
      } catch {
        // A damaged index or state file: the embedded catalogue answers (the next sync
        // rebuilds the local one), and the front says so once. When the embedded catalogue
        // cannot be opened either (it is the local one's base, so it may be what failed), that
        // is the one line said: no note about a local catalogue it cannot stand in for.
        let embedded: GutendexEngine
        do {
          embedded = try EmbeddedCatalogue.load()
        } catch {
          throw EmbeddedUnavailable(reason: "\(error)")
        }
        let note =
          "the local catalogue is damaged (\(error)); the embedded catalogue answers until the "
          + "next sync rebuilds it"
        damage.note.withLock { $0 = note }
        return embedded
      }
    }
  }

  /// The embedded catalogue could not be opened, so nothing can answer locally.
  struct EmbeddedUnavailable: Error, CustomStringConvertible {
    var reason: String
    var description: String {
      "cannot open the embedded catalogue (\(EmbeddedCatalogue.fileName)): \(reason)"
    }
  }

  /// Why the embedded catalogue answers in place of a damaged local one, once: nil after the
  /// first call, and when nothing is damaged.
  public func takeDamageNote() -> String? {
    damage.note.withLock { note in
      defer { note = nil }
      return note
    }
  }

  /// The embedded snapshot alone, never synced (`--offline` with no data directory's catalogue).
  public static func embedded() -> LocalCatalogue {
    LocalCatalogue(
      name: "\(embeddedNamePrefix) of \(EmbeddedCatalogue.snapshotDate)",
      hasSummaries: EmbeddedCatalogue.hasSummaries, open: { try EmbeddedCatalogue.load() })
  }

  /// How the name of a catalogue that is still the embedded snapshot begins.
  public static let embeddedNamePrefix = "embedded catalogue"

  static func name(for state: SyncState?) -> String {
    guard let state, state.indexFile != nil || state.deltaFile != nil else {
      return "\(embeddedNamePrefix) of \(EmbeddedCatalogue.snapshotDate)"
    }
    return "local catalogue (\(state.snapshotDate) + \(state.syncedBooks) synced)"
  }

  /// Reads the state again and opens the catalogue anew on next use (after a sync).
  public func reload() {
    guard let files else { return }
    let state = try? files.readState()
    opened.withLock { $0 = (Self.name(for: state), state) }
    loaded.withLock { $0 = nil }
  }

  /// Whether answers come from here first: a sync went well within ``SyncPolicy/maxAge``.
  public func isFresh(at date: Date) -> Bool {
    guard let maxAge = policy.maxAge, let last = openedState?.lastSuccess else { return false }
    return date.timeIntervalSince(last) < maxAge
  }

  /// Every language code some book of it has, the synced books' too, sorted; empty when it
  /// cannot be opened. Opens it on the first call: the codes are precomputed in the mapped index
  /// and delta, so this reads two small tables, never the books.
  public var languageCodes: [String] {
    (try? store().languageCodes) ?? []
  }

  /// The store over the catalogue (opening it on the first call).
  func store() throws(CatalogError) -> CatalogueStore {
    if let store = loaded.withLock({ $0 }) { return store }
    let engine: GutendexEngine
    do {
      engine = try openEngine()
    } catch let error as EmbeddedUnavailable {
      throw .localCatalogueUnavailable(error.description)
    } catch {
      throw .localCatalogueUnavailable("cannot open the \(name): \(error)")
    }
    // Two first callers may both open it (mapping is cheap); one store is kept.
    return loaded.withLock { loaded in
      if let loaded { return loaded }
      let store = CatalogueStore(engine: engine)
      loaded = store
      return store
    }
  }
}
