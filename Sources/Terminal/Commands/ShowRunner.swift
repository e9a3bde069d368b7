import Catalog
import Foundation

/// `gutenberg show ID`: one book with everything the server gives and every download link, or
/// its JSON as the server gives it. Where it came from, when not the server, goes to standard
/// error, as for `list`.
package struct ShowRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Shows book `id`.
  package func run(id: Int, format: ListFormat) async -> ExitStatus {
    let detail = BookDetailViewModel(service: service)
    let state = await SettledState.after(observe: detail.observe, load: \.load) {
      await detail.load(id: id)
    }
    guard let state else { return fail(.cancelled) }
    context.noteDamage()
    if let error = state.load.error { return fail(error) }
    guard let book = state.book else { return fail(.invalidInput("no book \(id)")) }
    if let provenance = state.load.provenance, let reason = provenance.fallbackReason {
      let note = ProvenanceText.banner(provenance, now: Date()) ?? "offline"
      output.printError("note: \(note) (\(Sanitizer.sanitize(reason)))")
    }
    switch format {
    case .json:
      output.print(JSONText.raw(book.rawJSON))
    case .automatic:
      guard var screen = ScreenMapping.details(state, now: Date()) else { return .ok }
      let library = LibraryFiles(context: context)
      screen.downloads = await library.downloadLabels(id: book.id)
      screen.length = await library.length(id: book.id)
      // `show` ends when it has printed: there are no keys to press, so no footer; where the
      // book came from is the note above.
      screen.hints = []
      screen.provenance = .network
      let width = output.isTerminal ? output.width : 100
      output.print(screen.lines(width: width, style: output.style))
      // Every download link, as the browser's `links` shows them.
      output.print(LinksScreen(book: book, hints: []).lines(width: width, style: output.style))
    }
    return .ok
  }
}
