import Foundation
import Testing

@testable import Gutendex

/// Every recording from every era of the server decodes, with real values where they matter.
@Suite struct RecordingDecodingTests {
  static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

  static func recordings() throws -> [URL] {
    let files = FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)!
    return files.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
      .sorted { $0.path < $1.path }
  }

  @Test func everyRecordingDecodes() throws {
    let files = try Self.recordings()
    #expect(files.count == 45)
    for file in files {
      let data = try Data(contentsOf: file)
      let page = try BookPage.decode(from: data)
      #expect(page.count >= page.results.count, "\(file.lastPathComponent)")
      for book in page.results {
        #expect(!book.rawJSON.isEmpty)
        #expect(try Book.decode(from: book.rawJSON) == book)
      }
    }
  }
}
