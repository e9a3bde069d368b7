import Catalog
import Gutendex

/// "Did you mean" in the browser: when a search or topic finds few books, one line under the
/// list proposes what the embedded catalogue would find instead, and `'` runs it. The page on
/// screen is the server's answer, untouched.
extension InteractiveSession {
  /// Proposals for a query that found `found` books, the best first (the app supplies them).
  package typealias Suggester =
    @Sendable (_ query: BookQuery, _ found: Int) async -> [SearchSuggestion]

  /// After a new query is shown: offers the best proposal under it when it found few books,
  /// and forgets an earlier one either way.
  func offerSuggestion() async {
    offered = nil
    let state = browser.current
    guard let suggest, state.load.error == nil, let found = state.totalCount,
      found <= SearchSuggestion.threshold,
      !(state.query.search ?? "").isEmpty || !(state.query.topic ?? "").isEmpty
    else { return }
    let proposals = await suggest(state.query, found)
    // The proposal is for the query on screen: another command may have moved on meanwhile.
    guard let best = proposals.first, browser.current.query.cacheKey == state.query.cacheKey
    else { return }
    offered = best
    notices += SuggestionLine(best).lines(width: output.width, style: output.style)
  }

  /// `'`: runs the search (or topic) the last "did you mean" line proposed.
  func takeSuggestion() async {
    guard let proposal = offered else {
      output.print(
        errorLine(
          "nothing proposed: \(SuggestionLine.key) runs the search a 'did you mean' line offers"))
      return
    }
    await changeQuery { query in
      if proposal.field == .topic {
        query.topic = proposal.value
      } else {
        query.search = proposal.value
      }
    }
  }
}
