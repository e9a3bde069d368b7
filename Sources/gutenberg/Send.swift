import ArgumentParser
import Terminal

struct Send: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    abstract: "Put a book on an e-reader: into its mounted folder, or by mail (Send to Kindle).",
    discussion: """
      --to DIR copies the book (EPUB unless --format: mobi for Kindle's KF8 edition, txt, \
      html) into DIR under Project Gutenberg's own name (pg84-images-3.epub), atomically: a \
      copy cut short leaves nothing there. --to mail:ADDRESS mails it as an attachment through \
      your SMTP server: GUTENBERG_SMTP_URL (smtps://user@host:465, or smtp://host:587 with \
      STARTTLS), the password in the URL or ~/.netrc, from GUTENBERG_MAIL_FROM. The book is \
      downloaded into the library first when needed, and stays there whatever happens.
      """)

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Argument(help: "The book's Project Gutenberg number.") var id: Int
  @Option(help: "A folder (the mounted e-reader's), or mail:ADDRESS.") var to: String
  @Option(help: "epub (default), epub-noimages, mobi (kf8), txt, html, or a MIME type.")
  var format: String?
  @Flag(help: "Replace a different file of the same name in the folder.") var force = false
  @Option(help: "Fetch Project Gutenberg files from this mirror URL (see `gutenberg get --help`).")
  var mirror: String?

  func validate() throws {
    guard id > 0 else { throw ValidationError("a book id is a positive number") }
  }

  func run() async throws {
    let (id, to, format, force, mirror) = (id, to, format, force, mirror)
    try await global.run {
      await SendRunner(context: $0).run(
        id: id, to: to, format: format, force: force, mirror: mirror)
    }
  }
}
