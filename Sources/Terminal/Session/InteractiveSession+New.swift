import Catalog
import Foundation
import Gutendex

extension InteractiveSession {
  /// `new [SINCE] [all]` at the prompt: the books syncs added (in the languages the list is
  /// filtered to; the first 32 unless `all`), those by authors you keep first, printed under
  /// the screen, which stays as it is.
  func showNew(since: NewBooks.Since, all: Bool) async {
    do {
      let found = try await service.newBooks(
        since: since, languages: browser.current.query.languages,
        limit: all ? nil : BookQuery.pageSize)
      if let note = GutenbergApp.damageNote(found) { output.print(note) }
      if browser.current.query.languages.isEmpty { service.markNewBooksSeen(found) }
      output.print(
        GutenbergApp.newLines(
          found, width: output.width, style: output.style, timeZone: timeZone, more: "new all"))
    } catch {
      output.print(errorLine(error.description))
    }
  }
}
