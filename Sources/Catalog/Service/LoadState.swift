/// Where a screen is in its life: nothing yet, loading, shown (and from where), or failed.
public enum LoadState: Sendable, Hashable {
  case idle
  case loading
  /// Shown, with its provenance: live, chosen (the local catalogue picked with
  /// `--source embedded`), or a fallback standing in for the server, with the reason.
  case loaded(Provenance)
  /// The last action failed; what was shown before is still shown.
  case failed(CatalogError)

  /// The error of a failed action, if any.
  public var error: CatalogError? {
    if case .failed(let error) = self { return error }
    return nil
  }

  /// Where what is shown came from, when something is.
  public var provenance: Provenance? {
    if case .loaded(let provenance) = self { return provenance }
    return nil
  }

  /// The source of what is shown, when something is.
  public var source: PageSource? { provenance?.source }
}
