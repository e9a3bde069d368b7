import ArgumentParser
import Gutendex
import Terminal

/// The filters of a listing, one option per Gutendex parameter.
struct QueryOptions: ParsableArguments {
  @Option(name: [.short, .long], help: "Words that must all be in the title or an author's name.")
  var search: String?

  @Option(
    name: [.short, .customLong("language")],
    help: "Language code or name, e.g. en, french, deutsch; repeat or comma-separate for several.",
    completion: .list(CatalogueLanguages.completionWords))
  var languages: [String] = []

  @Option(help: "Subject or bookshelf containing this text, e.g. 'science fiction'.")
  var topic: String?

  // `.unconditional` so that a BCE year such as -750 is read as the value, not as an option.
  @Option(parsing: .unconditional, help: "Some author alive in or after this year (-750 is BCE).")
  var authorYearStart: Int?

  @Option(parsing: .unconditional, help: "Some author alive in or before this year (-750 is BCE).")
  var authorYearEnd: Int?

  @Option(help: "Copyright status: yes, no or unknown; repeat for several.")
  var copyright: [CopyrightChoice] = []

  @Option(help: "Only these Project Gutenberg ids (comma-separated).")
  var ids: String?

  @Option(help: "Only books with a format whose MIME type starts with this, e.g. audio/.")
  var mimeType: String?

  @Option(help: "Order: popular, ascending or descending (by id).")
  var sort: BookSort = .popular

  // `.unconditional` so that `--page -1` is read as a (refused) value, not as a missing one.
  @Option(parsing: .unconditional, help: "Page number (32 books a page).")
  var page = 1

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

/// `--copyright` values as people say them.
enum CopyrightChoice: String, ExpressibleByArgument, CaseIterable {
  case yes, no, unknown

  var status: CopyrightStatus {
    switch self {
    case .yes: .copyrighted
    case .no: .publicDomain
    case .unknown: .unknown
    }
  }
}

extension BookSort: ExpressibleByArgument {}
