import Foundation

/// The store announces its changes: this process's writes at once, other processes' within a
/// poll interval (``CatalogService/changePollInterval``).
extension CatalogService {
  /// Calls `observer` after every change to the favourites, the library or the page cache,
  /// whoever made it (this process or another `gutenberg`), until the token is cancelled.
  ///
  /// The service's own write intents return only after every observer has been called for
  /// their change, so a view model that observes is current when the intent returns.
  public func observeChanges(_ observer: @escaping @Sendable (StoreChange) async -> Void)
    -> ObservationToken
  {
    feed.subscribe(observer)
  }

  /// Starts watching the stores for `feed`; returns how to stop.
  static func startWatching(
    favorites: FavoritesStore, cache: PageCache?, clock: any Clock<Duration>,
    interval: Duration, feed: StoreFeed
  ) -> @Sendable () -> Void {
    let watch = favorites.watch(onChange: { [weak feed] in feed?.report($0) })
    let cacheWatch = cache?.watch(onChange: { [weak feed] in feed?.report($0) })
    // The task holds the watch weakly: once stopped, nothing keeps the store's pool open, so
    // a process that ends right after still closes (and checkpoints) its database.
    let poll = Task.detached { [weak feed, weak watch] in
      // The first read only sets the baseline.
      _ = try? await watch?.foreignCommits()
      while !Task.isCancelled {
        do {
          try await clock.sleep(for: interval)
        } catch {
          return
        }
        guard let watch else { return }
        // A damaged or vanished file is the next command's error to report, not the poll's.
        if (try? await watch.foreignCommits()) == true {
          feed?.report(watch.foreignChange)
        }
      }
    }
    return {
      poll.cancel()
      watch.stop()
      cacheWatch?.stop()
    }
  }

  /// Stops watching and closes the store files, once the program is done with them: SQLite
  /// then checkpoints the WAL into the database and removes it. Any later call fails.
  public func close() async {
    feed.close()
    let favorites = self.favorites
    let cache = self.cache
    _ = try? await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      favorites.close()
      cache?.close()
    }
  }

  /// Waits until every change written so far has reached every observer.
  func settleChanges() async {
    await feed.settle()
  }
}
