import Foundation
import Gutendex

/// One book with everything the server gives about it, and its favourite flag.
@MainActor
public final class BookDetailViewModel {
  /// Everything the details screen shows.
  public struct State: Sendable, Hashable {
    /// The book shown, nil before the first load.
    public var book: Book?
    /// Whether the book is a favourite.
    public var isFavorite: Bool
    /// Whether a load is running, done (and from where) or failed.
    public var load: LoadState
    /// True when the book came from a catalogue without summaries (the embedded snapshot).
    public var summaryNeedsNetwork: Bool
  }

  /// The catalogue the view model reads and writes through.
  public let service: CatalogService
  private let state: ObservableState<State>
  /// What the screen shows when an error is dismissed.
  private var lastGoodLoad: LoadState = .idle
  /// The subscription to the store's changes (the book made a favourite anywhere).
  private var changes: ObservationToken?

  /// Starts empty; call ``load(id:)``.
  public init(service: CatalogService) {
    self.service = service
    state = ObservableState(
      State(book: nil, isFavorite: false, load: .idle, summaryNeedsNetwork: false))
    subscribe()
  }

  /// Starts with a book already at hand (a row of a list), so nothing is fetched from the
  /// server; its favourite flag is read from the store.
  public init(service: CatalogService, book: Book, source: LoadState) async {
    self.service = service
    let isFavorite = (try? await service.isFavorite(book.id)) ?? false
    state = ObservableState(
      State(
        book: book, isFavorite: isFavorite, load: source,
        summaryNeedsNetwork: Self.needsNetwork(book, source: source.source, service)))
    lastGoodLoad = source
    subscribe()
  }

  private func subscribe() {
    changes = service.observeChanges { [weak self] change in
      guard change.contains(.favorites) else { return }
      await self?.readFavoriteFlag()
    }
  }

  /// Reads the favourite flag again after the store announced a change to the favourites.
  private func readFavoriteFlag() async {
    guard let id = current.book?.id,
      let isFavorite = try? await service.isFavorite(id),
      isFavorite != current.isFavorite, current.book?.id == id
    else { return }
    state.update { $0.isFavorite = isFavorite }
  }

  /// The state now; ``observe(_:)`` hears of every change.
  public var current: State { state.value }

  /// Calls `observer` now and after every change; keep the token to keep observing.
  public func observe(_ observer: @escaping @MainActor @Sendable (State) -> Void)
    -> ObservationToken
  {
    state.observe(observer)
  }

  /// Loads a book by id: live, else the saved favourite, else the local catalogue.
  public func load(id: Int) async {
    guard id > 0 else { return fail(.invalidInput("a book id is a positive number, not \(id)")) }
    let previous = current.load
    state.update { $0.load = .loading }
    do {
      let loaded = try await service.book(id: id)
      let (book, source) = (loaded.book, loaded.source)
      let isFavorite = try? await service.isFavorite(book.id)
      // Where it came from, and why when not the server, as the service decided it.
      let load = LoadState.loaded(loaded.provenance)
      lastGoodLoad = load
      state.update {
        $0.book = book
        $0.isFavorite = isFavorite ?? false
        $0.load = load
        $0.summaryNeedsNetwork = Self.needsNetwork(book, source: source, service)
      }
    } catch {
      // A cancelled load changed nothing, so the screen goes back to what it showed.
      if error == .cancelled { return state.update { $0.load = previous } }
      fail(error)
    }
  }

  /// Flips the favourite flag of the book on screen; durable when it returns.
  public func toggleFavorite() async {
    guard let book = current.book else { return fail(.invalidInput("no book is shown")) }
    do {
      let now = try await service.toggleFavorite(book)
      // Usually current already: the service returns after its change reached this model.
      if current.isFavorite != now { state.update { $0.isFavorite = now } }
    } catch {
      fail(error)
    }
  }

  /// Clears a failed state back to what is on screen (after the error has been shown).
  public func dismissError() {
    guard current.load.error != nil else { return }
    state.update { $0.load = lastGoodLoad }
  }

  private func fail(_ error: CatalogError) {
    state.update { $0.load = .failed(error) }
  }

  private static func needsNetwork(_ book: Book, source: PageSource?, _ service: CatalogService)
    -> Bool
  {
    guard case .local = source, service.localCatalogueLacksSummaries else { return false }
    return book.summaries?.isEmpty ?? true
  }
}
