extension InteractiveSession {
  /// What Tab completes now: the commands, their words, and the rows of the list on screen.
  var completion: Completion {
    let rows =
      screen.list == .favorites ? favorites.current.favorites.count : browser.current.items.count
    return Completion.browser(rows: rows)
  }
}
