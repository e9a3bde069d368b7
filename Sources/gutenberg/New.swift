import ArgumentParser
import Catalog
import Terminal

struct New: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the books syncs added that you have not seen, those by authors you keep first.",
    discussion: """
      The books syncs added to the local catalogue that `new` has not shown you yet, whatever \
      syncs came in between (or those since --since), the first \
      32 unless --all: those by an author of one of your favourites first, then those in a subject or on a bookshelf of \
      one, each with its reason, then the rest, newest first. Piped: id, title, authors, \
      languages, downloads, added (the sync's time), issued (the feed's release date, when a \
      feed refresh added it) and the reason, tab-separated. Never asks the server.
      """)

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Option(
    help: ArgumentHelp(
      "From when instead of what you have not seen: last-sync, a day (2026-11-20), a moment "
        + "(2026-11-20T08:00:00Z) or a span back from now (7d, 12h).",
      valueName: "when"))
  var since: String?
  @Option(
    name: [.short, .customLong("language")],
    help: "Language code or name, e.g. en, french, deutsch; repeat or comma-separate for several.",
    completion: .list(CatalogueLanguages.completionWords))
  var languages: [String] = []
  @Flag(help: "Every new book, not just the first 32 (a page, as list prints).") var all = false
  @Flag(help: "Print JSON.") var json = false

  func validate() throws {
    _ = try sinceValue()
    _ = try languageCodes()
  }

  /// The codes `--language` names, resolved against the data directory's catalogue.
  func languageCodes() throws -> [String] {
    do throws(CatalogueLanguages.UnknownLanguage) {
      return try CatalogueLanguages.codes(for: languages, options: global.appOptions)
    } catch {
      throw ValidationError("--language: \(error.message)")
    }
  }

  func sinceValue() throws -> NewBooks.Since {
    guard let since else { return .unseen }
    switch SinceText.parse(since) {
    case .success(let value): return value
    case .failure(let failure): throw ValidationError("--since: \(failure.message)")
    }
  }

  func run() async throws {
    let since = try sinceValue()
    let codes = try languageCodes()
    let format: ListFormat = json ? .json : .automatic
    let all = all
    try await global.run(readsOnly: true) {
      await NewRunner(context: $0).run(since: since, languages: codes, all: all, format: format)
    }
  }
}
