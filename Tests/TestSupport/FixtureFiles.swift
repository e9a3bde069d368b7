import Foundation

/// The fixture files of every test suite and the bench, each kept once in
/// `Tests/TestSupport/Fixtures` (see its README for what each holds).
public enum FixtureFiles {
  /// A fixture that is not there: a broken checkout or a typo in a test.
  public struct Missing: Error, CustomStringConvertible {
    /// The path asked for, under `Fixtures/`.
    public var path: String
    /// One line for the test report.
    public var description: String { "missing fixture \(path)" }
  }

  /// The `Fixtures` folder.
  public static func root() throws -> URL {
    guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
      throw Missing(path: "")
    }
    return url
  }

  /// The file at `path` under `Fixtures/` (e.g. `mirror-2024/ja__page_1.json`).
  public static func url(_ path: String) throws -> URL {
    let url = try root().appending(path: path)
    guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: path) }
    return url
  }

  /// The bytes of the file at `path` under `Fixtures/`.
  public static func data(_ path: String) throws -> Data {
    try Data(contentsOf: url(path))
  }

  /// The path of a recording by its short name: an era recording (`e4-2025-page1`) or a
  /// mirror page (`ja__page_1`, `mirror-2024-ja__page_1`).
  public static func recordingPath(_ name: String) -> String {
    var name = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    if name.hasPrefix("mirror-2024-") { name = String(name.dropFirst("mirror-2024-".count)) }
    if let first = name.first, first == "e", name.dropFirst().first?.isNumber == true {
      return "\(name).json"
    }
    return "mirror-2024/\(name).json"
  }

  /// The bytes of a recording by its short name (see ``recordingPath(_:)``).
  public static func recording(_ name: String) throws -> Data {
    try data(recordingPath(name))
  }
}
