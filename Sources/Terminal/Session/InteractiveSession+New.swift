import Catalog
import Foundation

extension InteractiveSession {
  /// `new [SINCE]` at the prompt: the books syncs added (in the languages the list is filtered
  /// to), those by authors you keep first, printed under the screen, which stays as it is.
  func showNew(since: NewBooks.Since) async {
    do {
      let found = try await service.newBooks(
        since: since, languages: browser.current.query.languages)
      output.print(
        GutenbergApp.newLines(found, width: output.width, style: output.style, timeZone: timeZone))
    } catch {
      output.print(errorLine(error.description))
    }
  }
}
