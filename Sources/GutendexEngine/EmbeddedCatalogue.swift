import Foundation

/// The whole Project Gutenberg catalogue of August 2025, shipped inside the package.
///
/// The snapshot holds every book the real server served then, byte for byte as it served
/// them, except that `summaries` are empty. It is an index file (``CatalogueSnapshot``) that
/// ``load()`` maps into memory: opening it costs microseconds, and each query reads only what
/// it needs, so any query in a fresh process takes milliseconds.
public enum EmbeddedCatalogue {
  /// The month the catalogue was taken from Project Gutenberg.
  public static let snapshotDate = "2025-08"
  /// How many books the snapshot holds (checked against the file by the snapshot tests).
  public static let bookCount = 76_696
  /// Whether books from the snapshot carry their summaries (they do not: `"summaries":[]`).
  public static let hasSummaries = false
  /// The resource's file name inside the bundle's `Resources` folder.
  static let resourceName = "catalogue-2025-08"
  static let resourceExtension = "gdxindex"

  /// Where the snapshot resource lives, nil when the bundle lacks it.
  public static var resourceURL: URL? {
    Bundle.module.url(
      forResource: resourceName, withExtension: resourceExtension, subdirectory: "Resources")
  }

  /// Maps the snapshot and returns an engine over it.
  public static func load() throws -> GutendexEngine {
    guard let url = resourceURL else {
      throw EngineError.missingResource("\(resourceName).\(resourceExtension)")
    }
    return try CatalogueSnapshot.engine(mapping: url.path)
  }
}
