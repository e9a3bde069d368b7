import ArgumentParser
import Terminal

struct Get: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "get",
    abstract: "Download books (resumes an interrupted download).",
    discussion: """
      Without --format, the first edition the book has of: epub (with images), txt (UTF-8 \
      first), html, mobi, epub-noimages. Files are named <id>-<title>.<ext>; an existing file \
      is kept unless --force (one the library has there is just printed). A second get of \
      the same file waits for the first (lock: <name>.part.lock). A failed download keeps \
      <name>.part when it can be resumed and prints the command that resumes it. Prints \
      each saved path on standard output. Env: GUTENBERG_DOWNLOAD_DIR (default directory), \
      GUTENBERG_MIRRORS (several, separated by spaces or commas), GUTENBERG_MIRROR (one).

      A mirror serves every file at the path www.gutenberg.org has it under, below the \
      mirror's URL: with --mirror https://mirror.example/pg the EPUB of book 84 is asked for \
      at https://mirror.example/pg/ebooks/84.epub3.images (and a redirect it answers is \
      followed, as from Project Gutenberg). A mirror on one of PG's own hosts \
      (aleph.pglaf.org, gutenberg.pglaf.org) is read in PG's mirror tree \
      (/cache/epub/84/pg84-images-3.epub). A get of several books with no mirror named \
      fetches them from https://aleph.pglaf.org, as PG asks of bulk downloads. --verbose \
      prints every request for the file.

      With several mirrors, a file the first cannot serve (404 or 410, 5xx, a timeout or \
      stall, a refused connection) is tried at the next, with a note. A part file left by one \
      mirror is resumed at the next only when its copy has the same validator (ETag or \
      Last-Modified) and size; otherwise the file starts over there (the old part kept as \
      <name>.part.prev until the new one completes). Without --format every \
      mirror is asked for the preferred edition before the next edition is tried.
      """)

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Argument(help: "Project Gutenberg numbers.") var ids: [Int]
  @Option(help: "epub, epub-noimages, txt, html, mobi, or a MIME type.") var format: String?
  @Option(name: .shortAndLong, help: "The file (one book) or directory to save into.")
  var output: String?
  @Flag(help: "Replace an existing file.") var force = false
  @Flag(name: .shortAndLong, help: "No progress line and no notes.") var quiet = false
  @Option(help: "Fetch Project Gutenberg files from this mirror URL; repeatable (see above).")
  var mirror: [String] = []

  func validate() throws {
    if ids.isEmpty { throw ValidationError("give at least one book id") }
    if let bad = ids.first(where: { $0 <= 0 }) {
      throw ValidationError("'\(bad)' is not a book id")
    }
  }

  func run() async throws {
    let request = GetRequest(
      ids: ids, format: format, output: output, force: force, quiet: quiet, mirrors: mirror)
    try await global.run { await GetRunner(context: $0).run(request) }
  }
}
