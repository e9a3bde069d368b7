import Foundation
import Testing

/// The layers keep their doors: the front reaches data only through `CatalogService` and the
/// view models, and the view models only through the service. A line that names a store type or
/// imports the store (or GRDB) where it does not belong fails here, with the file and line.
@Suite struct LayeringTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  /// The names that mean "the store itself", not its value types.
  static let forbidden = [
    "FavoritesStore", "PageCache", "Library(", "StoreDatabase", "StoreFile", "import GRDB",
    "import CatalogStore",
  ]

  /// Every `(file, line number, line)` under `folder` that names one of ``forbidden``.
  static func violations(in folder: String) throws -> [String] {
    let root = sources.appendingPathComponent(folder)
    let files = try #require(
      FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
    var found: [String] = []
    for case let file as URL in files where file.pathExtension == "swift" {
      let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
      for (number, line) in lines.enumerated() {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { continue }
        for name in forbidden where code.contains(name) {
          found.append("\(folder)/\(file.lastPathComponent):\(number + 1): \(code)")
        }
      }
    }
    return found
  }

  @Test(arguments: ["Terminal", "gutenberg", "Catalog/ViewModels"])
  func noStoreTypeBeyondTheService(folder: String) throws {
    let found = try Self.violations(in: folder)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// The check itself can fail: the service, which does use the stores, is found.
  @Test func theCheckFindsTheStoresWhereTheyAreUsed() throws {
    #expect(try !Self.violations(in: "Catalog/Service").isEmpty)
  }
}
