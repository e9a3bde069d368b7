import ArgumentParser
import Terminal

struct ProgressCommand: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "progress",
    abstract: "Share reading progress with KOReader and other devices (kosync).",
    discussion: """
      The reader pulls a book's place from a kosync server (koreader-sync-server or a \
      compatible one) when it opens the book, and pushes it when it closes; when another \
      device read on, one line offers its place. A place that cannot be pushed (no network, \
      a stalled server, a 401) is queued and pushed by the next read or progress push. Books \
      are matched as KOReader matches them (--match): binary, the partial MD5 of the book's \
      EPUB from Project Gutenberg (KOReader's default), or filename, the MD5 of its name \
      (pg84-images-3.epub).
      """,
    subcommands: [Login.self, Logout.self, Status.self, Push.self, Pull.self])

  // Only so that `gutenberg progress --help` lists them too; the subcommands use their own.
  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

  struct Login: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      abstract: "Log in to a kosync server (the password: asked, or the first line of stdin).",
      discussion: """
        Only the key the protocol sends (the MD5 of the password) is kept, in the data \
        directory's progress/account.json, mode 0600; it is never printed.
        """)
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "The server's URL (e.g. https://sync.koreader.rocks).") var url: String
    @Argument(help: "The user name.") var user: String
    @Flag(help: "Create the account first (POST /users/create).") var register = false
    @Option(help: "The name other devices see (default gutenberg).") var device: String?
    @Option(help: "How books are matched with KOReader: binary (default) or filename.")
    var match: String?

    func run() async throws {
      let (url, user, register, device, match) = (url, user, register, device, match)
      try await global.run(readsOnly: true, readsNoPages: true) {
        await ProgressRunner(context: $0).login(
          server: url, user: user, register: register, device: device, match: match)
      }
    }
  }

  struct Logout: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(abstract: "Forget the login and its key.")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions

    func run() async throws {
      try await global.run(readsOnly: true, readsNoPages: true) {
        ProgressRunner(context: $0).logout()
      }
    }
  }

  struct Status: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      abstract: "The server, the login, this device, queued places and each book's record.")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
      let format: ListFormat = json ? .json : .automatic
      try await global.run(readsOnly: true, readsNoPages: true) {
        await ProgressRunner(context: $0).status(format: format)
      }
    }
  }

  struct Push: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      abstract: "Push a book's place (and every queued one) to the server.")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "The book's Project Gutenberg number (default: the queued places).")
    var id: Int?
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
      if let id, id <= 0 { throw ValidationError("a book id is a positive number") }
    }

    func run() async throws {
      let (id, format): (Int?, ListFormat) = (id, json ? .json : .automatic)
      try await global.run { await ProgressSyncRunner(context: $0).push(id: id, format: format) }
    }
  }

  struct Pull: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
      abstract: "Take another device's place of a book (or of every book sync knows).")
    @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
    @Argument(help: "The book's Project Gutenberg number (default: every book sync knows).")
    var id: Int?
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
      if let id, id <= 0 { throw ValidationError("a book id is a positive number") }
    }

    func run() async throws {
      let (id, format): (Int?, ListFormat) = (id, json ? .json : .automatic)
      try await global.run { await ProgressSyncRunner(context: $0).pull(id: id, format: format) }
    }
  }
}
