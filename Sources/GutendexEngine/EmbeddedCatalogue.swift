import Foundation

/// The whole Project Gutenberg catalogue of August 2025, shipped inside the package.
///
/// The snapshot holds every book the real server served then, byte for byte as it served
/// them, except that `summaries` are empty. It is read only when ``load()`` is called.
public enum EmbeddedCatalogue {
  /// The month the catalogue was taken from Project Gutenberg.
  public static let snapshotDate = "2025-08"
  /// Whether books from the snapshot carry their summaries (they do not: `"summaries":[]`).
  public static let hasSummaries = false
  /// The resource's file name inside the bundle's `Resources` folder.
  static let resourceName = "catalogue-2025-08"
  static let resourceExtension = "gdxsnap"

  /// Where the snapshot resource lives, nil when the bundle lacks it.
  public static var resourceURL: URL? {
    Bundle.module.url(
      forResource: resourceName, withExtension: resourceExtension, subdirectory: "Resources")
  }

  /// Reads the snapshot and builds an engine over its books (a fraction of a second in
  /// release builds; call once and keep the engine).
  public static func load() throws -> GutendexEngine {
    guard let url = resourceURL else {
      throw EngineError.missingResource("\(resourceName).\(resourceExtension)")
    }
    return try CatalogueSnapshot.engine(from: Data(contentsOf: url))
  }
}
