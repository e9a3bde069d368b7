import ArgumentParser
import Terminal

struct Sync: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract:
      "Bring the local catalogue up to date from Project Gutenberg's daily files (or a server).")

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Flag(help: "Refresh from Project Gutenberg's feed now, whatever its age.") var feed = false
  @Flag(help: "A full refresh: the same as --feed.") var full = false
  @Option(
    help: ArgumentHelp(
      "The feed file's URL (GUTENBERG_FEED_URL; credentials from ~/.netrc).", valueName: "url"))
  var feedURL: String?
  @Option(
    help: ArgumentHelp(
      "Refresh from the feed when the last refresh is older (GUTENBERG_FEED_MAX_AGE; 7d; never).",
      valueName: "age"))
  var feedMaxAge: String?
  @Option(
    help: ArgumentHelp(
      "Project Gutenberg's site (or a copy laid out the same way) whose today.rss, records and "
        + "pg_catalog.csv.gz keep the catalogue current (GUTENBERG_PG_URL; "
        + "https://www.gutenberg.org).",
      valueName: "url"))
  var pgURL: String?
  @Flag(help: "List the last 20 syncs instead.") var log = false
  @Flag(help: "Print JSON.") var json = false

  func validate() throws {
    if full || feed, log {
      throw ValidationError("--\(full ? "full" : "feed") and --log cannot be used together")
    }
  }

  func run() async throws {
    let format: ListFormat = json ? .json : .automatic
    let full = full
    let feed = feed
    let feedURL = feedURL
    let feedMaxAge = feedMaxAge
    let pgURL = pgURL
    if log {
      try await global.run { await SyncLogRunner(context: $0).run(format: format) }
    } else {
      try await global.run {
        await SyncRunner(context: $0).run(
          full: full, feed: feed, feedURL: feedURL, feedMaxAge: feedMaxAge, pgURL: pgURL,
          format: format)
      }
    }
  }
}
