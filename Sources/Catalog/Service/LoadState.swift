/// Where a screen is in its life: nothing yet, loading, shown, failed, or shown from a fallback.
public enum LoadState: Sendable, Hashable {
  case idle
  case loading
  /// Shown, from this source (the network, or the local catalogue when chosen explicitly).
  case loaded(PageSource)
  /// Shown from a fallback because the server could not be used; `reason` says why.
  case offline(PageSource, reason: String)
  /// The last action failed; what was shown before is still shown.
  case failed(CatalogError)

  /// The error of a failed action, if any.
  public var error: CatalogError? {
    if case .failed(let error) = self { return error }
    return nil
  }

  /// The source of what is shown, when something is.
  public var source: PageSource? {
    switch self {
    case .loaded(let source), .offline(let source, _): source
    default: nil
    }
  }
}
