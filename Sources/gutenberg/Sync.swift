import ArgumentParser
import Terminal

struct Sync: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    abstract: "Bring the local catalogue up to date from the server (new books, your books).")

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Flag(help: "Fetch every page of the catalogue (says first how many requests).") var full = false
  @Flag(help: "List the last 20 syncs instead.") var log = false
  @Flag(help: "Print JSON.") var json = false

  func validate() throws {
    if full, log { throw ValidationError("--full and --log cannot be used together") }
  }

  func run() async throws {
    let format: GutenbergApp.ListFormat = json ? .json : .automatic
    let full = full
    if log {
      try await global.run { await $0.syncLog(format: format) }
    } else {
      try await global.run { await $0.sync(full: full, format: format) }
    }
  }
}
