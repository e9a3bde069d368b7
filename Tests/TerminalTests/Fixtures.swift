import Foundation
import Gutendex
import TestSupport

/// Real server recordings copied from /work/shared/gutendex (see Fixtures/README.md).
enum Fixtures {
  enum Failure: Error, CustomStringConvertible {
    case missing(String)
    case noBook(id: Int, file: String)

    var description: String {
      switch self {
      case .missing(let name): "fixture \(name).json is missing"
      case .noBook(let id, let file): "no book \(id) in \(file).json"
      }
    }
  }

  static func data(_ name: String) throws -> Data {
    try FixtureFiles.recording(name)
  }

  static func page(_ name: String) throws -> BookPage {
    try BookPage.decode(from: data(name))
  }

  static func book(_ id: Int, in name: String) throws -> Book {
    guard let book = try page(name).results.first(where: { $0.id == id }) else {
      throw Failure.noBook(id: id, file: name)
    }
    return book
  }

  /// Every recording copied here.
  static let names = RecordedGutendex.recordings

  /// Every book of every recording.
  static func allBooks() throws -> [Book] {
    try names.flatMap { try page($0).results }
  }
}
