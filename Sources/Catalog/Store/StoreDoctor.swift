import Foundation
import GutendexEngine

/// `gutenberg doctor`: checks every file of the data directory the program owns and, when
/// asked, replaces each damaged store by a new one holding what could still be read.
///
/// The look is read only (see ``StoreDatabase/health(_:schema:)``): a damaged file stays byte
/// for byte as it was until a repair is asked for, and a repair never deletes it.
public enum StoreDoctor {
  /// Checks the favourites file, the page cache and the local catalogue of `location`; with
  /// `repair`, replaces each damaged store (see ``StoreDoctor/repair(_:schema:now:)``).
  public static func examine(_ location: StoreLocation, repair: Bool, now: Date = Date())
    -> [DoctorFinding]
  {
    let stores: [(URL, StoreDatabase.Schema)] = [
      (location.favoritesDatabase, FavoritesSchema.schema),
      (location.cacheDatabase, PageCache.schema),
    ]
    var findings = stores.map { url, schema in
      examine(url, schema: schema, in: location.dataDirectory, repair: repair, now: now)
    }
    findings.append(catalogue(location.dataDirectory))
    findings.append(embeddedCatalogue())
    return findings
  }

  /// One store file's line.
  static func examine(
    _ url: URL, schema: StoreDatabase.Schema, in dataDirectory: URL, repair: Bool, now: Date
  ) -> DoctorFinding {
    let url = url.standardizedFileURL
    let name = displayName(url, in: dataDirectory)
    do {
      // A repair that finds the file swapped under it by another one looks again (bounded:
      // each swap leaves a sound file, so the second look finds it so).
      for _ in 0..<3 {
        switch try StoreDatabase.health(url.path, schema: schema) {
        case .absent:
          return DoctorFinding(name: name, state: .ok, detail: "ok (not created yet)")
        case .sound:
          return DoctorFinding(name: name, state: .ok, detail: "ok")
        case .damaged(let reason):
          guard repair else {
            return DoctorFinding(name: name, state: .damaged, detail: "damaged (\(reason))")
          }
          guard let repaired = try self.repair(url, schema: schema, now: now) else { continue }
          return DoctorFinding(
            name: name, state: .repaired,
            detail: summary(repaired, schema: schema, reason: reason))
        }
      }
      throw StoreError.io(path: url.path, reason: "replaced again and again during the repair")
    } catch {
      let error = StoreDatabase.mapError(error, path: url.path)
      return DoctorFinding(name: name, state: .failed, detail: error.description)
    }
  }

  /// The local catalogue's line: its state file and index files, opened as `list` opens them
  /// and then checked whole (every section's checksum, every book's record).
  static func catalogue(_ dataDirectory: URL) -> DoctorFinding {
    let files = LocalCatalogueFiles(dataDirectory: dataDirectory)
    do {
      guard let state = try files.readState() else {
        return DoctorFinding(
          name: "catalogue", state: .ok,
          detail: "ok (not synced yet: the embedded catalogue answers)")
      }
      // A base that is the embedded file is checked on its own line.
      try files.openEngine().verify(base: state.indexFile != nil)
      return DoctorFinding(
        name: "catalogue", state: .ok, detail: "ok (\(state.bookCount) books)")
    } catch {
      // What the program already does: the embedded catalogue answers, and the next sync
      // rebuilds the local one (keeping the books pending); nothing here is lost.
      return DoctorFinding(
        name: "catalogue", state: .damaged,
        detail: "damaged (\(error)); the embedded catalogue answers until the next "
          + "`gutenberg sync` rebuilds it")
    }
  }

  /// The embedded catalogue's line (the file `GUTENBERG_INDEX` names, or the installed one):
  /// opened and checked whole; nothing here can repair it, a good copy can.
  static func embeddedCatalogue() -> DoctorFinding {
    do {
      let engine = try EmbeddedCatalogue.load()
      try engine.verify()
      return DoctorFinding(
        name: "embedded catalogue", state: .ok, detail: "ok (\(engine.bookCount) books)")
    } catch EngineError.missingResource(let reason) {
      // Not installed: the program says so where it needs it, and the server answers.
      return DoctorFinding(name: "embedded catalogue", state: .ok, detail: "absent (\(reason))")
    } catch {
      let path = EmbeddedCatalogue.resourceURL?.path ?? EmbeddedCatalogue.fileName
      return DoctorFinding(
        name: "embedded catalogue", state: .damaged,
        detail: "damaged (\(path): \(error)); install a good copy (`make install`) or set "
          + "GUTENBERG_INDEX to one")
    }
  }

  /// "recovered 7 of 9 favourites, 2 of 2 bookmarks; the damaged file is kept as NAME".
  static func summary(
    _ repaired: (tables: [StoreSalvage.Table], kept: URL), schema: StoreDatabase.Schema,
    reason: String
  ) -> String {
    let kept = "the damaged file is kept as \(repaired.kept.lastPathComponent)"
    let counted = repaired.tables.compactMap { table -> (Int, String)? in
      guard let noun = nouns[table.name] else { return nil }
      // The first table of each store (favourites, pages) is always named; others when held.
      let always = table.name == "favorite" || table.name == "page"
      guard always || table.recovered > 0 || (table.held ?? 0) > 0 else { return nil }
      let of = table.held.map { " of \($0)" } ?? ""
      return (always ? 0 : 1, "\(table.recovered)\(of) \(noun)")
    }
    .sorted { $0.0 < $1.0 }.map(\.1)
    if repaired.tables.allSatisfy({ $0.recovered == 0 && $0.held == nil }) {
      return "nothing could be read (\(reason)); started an empty store; \(kept)"
    }
    return "recovered \(counted.joined(separator: ", ")); \(kept)"
  }

  /// How each table's rows are called in the summary (tables not listed are not counted).
  static let nouns = [
    "favorite": "favourites", "bookmark": "bookmarks", "download": "library entries",
    "reading_position": "reading positions", "page": "cached pages",
  ]

  static func displayName(_ url: URL, in dataDirectory: URL) -> String {
    let directory = dataDirectory.standardizedFileURL.path
    let path = url.path
    guard path.hasPrefix(directory + "/") else { return path }
    return String(path.dropFirst(directory.count + 1))
  }
}
