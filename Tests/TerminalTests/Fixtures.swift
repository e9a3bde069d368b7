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
  static let names = [
    "en__page_775", "fr__page_102", "hu__page_10", "fr__page_9", "en__page_536", "en__page_512",
    "de__page_17", "en__page_87", "ja__page_1", "zh__page_1", "ar__page_1", "ru__page_1",
    "de__page_1", "en__page_1835", "el__page_1", "e4-2025-page1",
    "e2-2022-search-great-expectations", "e2-2022-no-results",
  ]

  /// Every book of every recording.
  static func allBooks() throws -> [Book] {
    try names.flatMap { try page($0).results }
  }
}
