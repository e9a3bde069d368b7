import ArgumentParser
import Gutendex
import Terminal

/// The filters' values, as ``QueryOptions`` parsed them or ``QuickCommandLine`` read them: one
/// type for both, so the two paths check and build the query the same way.
struct QueryValues: Equatable, Sendable {
  var search: String?
  var languages: [String] = []
  var topic: String?
  var authorYearStart: Int?
  var authorYearEnd: Int?
  var copyright: [CopyrightChoice] = []
  var ids: String?
  var mimeType: String?
  var sort: BookSort = .popular
  var page = 1

  /// What `QueryOptions.validate()` refuses, with the same messages.
  func validate() throws {
    guard page >= 1 else { throw ValidationError("--page must be 1 or more") }
    if let search, search.trimmingCharacters(in: .whitespaces).isEmpty {
      throw ValidationError("--search needs at least one word")
    }
    if let from = authorYearStart, let to = authorYearEnd, from > to {
      throw ValidationError("--author-year-start (\(from)) is after --author-year-end (\(to))")
    }
    _ = try idList()
  }

  /// The codes `--language` names, resolved against the catalogue of the data directory in
  /// `options` (it needs the global options, so the commands call it from their `validate()`).
  func languageCodes(options: AppOptions) throws -> [String] {
    do throws(CatalogueLanguages.UnknownLanguage) {
      return try CatalogueLanguages.codes(for: languages, options: options)
    } catch {
      throw ValidationError("--language: \(error.message)")
    }
  }

  func idList() throws -> [Int] {
    guard let ids else { return [] }
    return try ids.split(separator: ",").map {
      guard let id = Int($0.trimmingCharacters(in: .whitespaces)), id > 0 else {
        throw ValidationError("--ids: '\($0)' is not a book id")
      }
      return id
    }
  }

  /// The query the filters ask for, its languages resolved as ``languageCodes(options:)`` does.
  func query(options: AppOptions) throws -> BookQuery {
    let languageCodes = try languageCodes(options: options)
    let words = search.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    return BookQuery(
      search: words, languages: languageCodes, topic: topic, authorYearStart: authorYearStart,
      authorYearEnd: authorYearEnd, copyright: Set(copyright.map(\.status)),
      ids: (try? idList()) ?? [], mimeType: mimeType, sort: sort, page: page)
  }
}
