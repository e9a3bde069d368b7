/// A walk of an engine's ids, ascending: the base's and the delta's, each id once, read from
/// their id columns as it goes (``GutendexEngine/idCursor()``).
struct BookIDCursor {
  let engine: GutendexEngine
  private var base = 0
  private var fromDelta = 0

  init(engine: GutendexEngine) {
    self.engine = engine
  }

  private func baseID(_ position: Int) -> Int? {
    switch engine.storage {
    case .memory(let books): position < books.bookCount ? books.id(at: position) : nil
    case .mapped(let books): position < books.bookCount ? books.id(at: position) : nil
    }
  }

  private func deltaID(_ position: Int) -> Int? {
    guard let delta = engine.delta, position < delta.bookCount else { return nil }
    return delta.id(at: position)
  }

  /// The next id, nil at the end.
  mutating func next() -> Int? {
    switch (baseID(base), deltaID(fromDelta)) {
    case (nil, nil): return nil
    case (let id?, nil):
      base += 1
      return id
    case (nil, let id?):
      fromDelta += 1
      return id
    case (let left?, let right?):
      if left < right {
        base += 1
        return left
      }
      if right < left {
        fromDelta += 1
        return right
      }
      base += 1
      fromDelta += 1
      return left
    }
  }
}
