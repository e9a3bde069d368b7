import Foundation

/// The whole Project Gutenberg catalogue of August 2025, shipped beside the program.
///
/// The snapshot holds every book the real server served then, byte for byte as it served
/// them, except that `summaries` are empty. It is an index file (``CatalogueSnapshot``) that
/// ``load()`` maps into memory: opening it costs microseconds, and each query reads only what
/// it needs, so any query in a fresh process takes milliseconds.
///
/// The file is found by path (``CatalogueLocation``), not through SwiftPM's generated resource
/// accessor, which kills the process when the build folder it was compiled for is gone.
public enum EmbeddedCatalogue {
  /// The month the catalogue was taken from Project Gutenberg.
  public static let snapshotDate = "2025-08"
  /// How many books the snapshot holds (checked against the file by the snapshot tests).
  public static let bookCount = 76_696
  /// Whether books from the snapshot carry their summaries (they do not: `"summaries":[]`).
  public static let hasSummaries = false
  /// The snapshot's file name, the same in the source tree, the build tree and an install.
  public static let fileName = "catalogue-2025-08.gdxindex"

  /// Where the snapshot lives, nil when none of the places the program looks holds it.
  public static var resourceURL: URL? {
    CatalogueLocation.current().found.map { URL(fileURLWithPath: $0) }
  }

  /// Maps the snapshot and returns an engine over it.
  public static func load() throws -> GutendexEngine {
    let location = CatalogueLocation.current()
    guard let path = location.found else {
      throw EngineError.missingResource(location.missingDescription)
    }
    return try CatalogueSnapshot.engine(mapping: path)
  }
}
