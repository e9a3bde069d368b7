import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Catalog

/// Real recorded pages, and scratch directories that are removed afterwards.
enum StoreFixtures {
  /// The raw bytes of a recording (kept once in `TestSupport`).
  static func data(_ name: String) throws -> Data {
    try FixtureFiles.recording(name)
  }

  static func page(_ name: String) throws -> BookPage {
    try BookPage.decode(from: data(name))
  }

  /// gutendex.com page 1 (E4): Frankenstein, Moby Dick, Romeo and Juliet, Pride and Prejudice…
  static func e4() throws -> [Book] { try page("e4-2025-page1").results }
  /// Mirror 2024, English page 87: accents (Zola, Émile) and a 958-character title.
  static func english() throws -> [Book] { try page("en__page_87").results }
  /// Mirror 2024, Japanese page 1: non-ASCII titles.
  static func japanese() throws -> [Book] { try page("ja__page_1").results }

  /// The book with `id` from a fixture.
  static func book(_ id: Int, in books: [Book]) throws -> Book {
    try #require(books.first { $0.id == id })
  }

  /// A copy of `book` as the server would send it with another title.
  static func retitled(_ book: Book, _ title: String) throws -> Book {
    var object = try #require(
      try JSONSerialization.jsonObject(with: book.rawJSON) as? [String: Any])
    object["title"] = title
    return try Book.decode(from: JSONSerialization.data(withJSONObject: object, options: []))
  }

  /// A fixed, round date (whole seconds) `seconds` after 2025-06-01T00:00:00Z.
  static func date(_ seconds: Double = 0) -> Date {
    Date(timeIntervalSince1970: 1_748_736_000 + seconds)
  }
}

/// Runs `body` with a fresh directory under the temporary directory, removed afterwards.
func withScratchDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("catalog-store-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try body(url)
}

/// The async variant of ``withScratchDirectory(_:)``.
func withAsyncScratchDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("catalog-store-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try await body(url)
}

/// The names in a directory, sorted.
func directoryListing(_ url: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
}

/// The `StoreError` thrown by `body`, or nil (recorded as an issue) if it did not throw one.
func storeError<T>(_ body: () throws(StoreError) -> T) -> StoreError? {
  do {
    _ = try body()
    Issue.record("expected a StoreError, but the call succeeded")
    return nil
  } catch {
    return error
  }
}
