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

  /// The values as parsed, which every check and the query go through.
  var values: QueryValues {
    QueryValues(
      search: search, languages: languages, topic: topic, authorYearStart: authorYearStart,
      authorYearEnd: authorYearEnd, copyright: copyright, ids: ids, mimeType: mimeType,
      sort: sort, page: page)
  }

  func validate() throws {
    try values.validate()
  }

  /// The codes `--language` names (see ``QueryValues/languageCodes(options:)``).
  func languageCodes(options: AppOptions) throws -> [String] {
    try values.languageCodes(options: options)
  }

  func idList() throws -> [Int] {
    try values.idList()
  }

  /// The query the filters ask for (see ``QueryValues/query(options:)``).
  func query(options: AppOptions) throws -> BookQuery {
    try values.query(options: options)
  }
}

/// `--copyright` values as people say them.
enum CopyrightChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
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
