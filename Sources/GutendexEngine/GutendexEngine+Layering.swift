import Foundation
import Gutendex

extension GutendexEngine {
  /// A book a query found over the base and the delta: which layer, and its position there.
  struct Hit {
    let inDelta: Bool
    let position: Int32
  }

  /// The books `filter` finds in the base and the delta together, in the filter's order, with
  /// the server's tie rules (popular: downloads descending, then id ascending); a base book
  /// whose id the delta holds is replaced by the delta's copy, as if the delta's books were in
  /// the base.
  func hits(_ filter: BookFilter, base: some BookColumns, delta: MappedCatalogue, only: Int? = nil)
    -> [Hit]
  {
    let fromBase = filter.positions(in: base, only: only).filter {
      delta.position(of: base.id(at: Int($0))) == nil
    }
    let fromDelta = filter.positions(in: delta, only: only)
    guard !fromDelta.isEmpty else { return fromBase.map { Hit(inDelta: false, position: $0) } }
    func precedes(_ left: Hit, _ right: Hit) -> Bool {
      let leftID = left.inDelta ? delta.id(at: Int(left.position)) : base.id(at: Int(left.position))
      let rightID =
        right.inDelta ? delta.id(at: Int(right.position)) : base.id(at: Int(right.position))
      switch filter.order {
      case .ascending: return leftID < rightID
      case .descending: return leftID > rightID
      case .popular:
        let leftCount =
          left.inDelta
          ? delta.downloadCount(at: Int(left.position))
          : base.downloadCount(at: Int(left.position))
        let rightCount =
          right.inDelta
          ? delta.downloadCount(at: Int(right.position))
          : base.downloadCount(at: Int(right.position))
        return leftCount != rightCount ? leftCount > rightCount : leftID < rightID
      }
    }
    // Both lists are in the filter's order already: one merge pass.
    var merged: [Hit] = []
    merged.reserveCapacity(fromBase.count + fromDelta.count)
    var baseIndex = 0
    var deltaIndex = 0
    while baseIndex < fromBase.count || deltaIndex < fromDelta.count {
      let fromBaseHit =
        baseIndex < fromBase.count
        ? Hit(inDelta: false, position: fromBase[baseIndex]) : nil
      let fromDeltaHit =
        deltaIndex < fromDelta.count
        ? Hit(inDelta: true, position: fromDelta[deltaIndex]) : nil
      if let baseHit = fromBaseHit, fromDeltaHit.map({ !precedes($0, baseHit) }) ?? true {
        merged.append(baseHit)
        baseIndex += 1
      } else if let deltaHit = fromDeltaHit {
        merged.append(deltaHit)
        deltaIndex += 1
      }
    }
    return merged
  }

  /// How many books `query` finds, over both layers.
  func matchCount(_ query: QueryString) -> Int {
    let filter = BookFilter(query: query)
    switch storage {
    case .memory(let books):
      return filter.positions(in: books).count
    case .mapped(let books):
      if books.postings != nil {
        return IndexedQuery(filter: filter, base: books, delta: delta, shadow: shadow).count()
      }
      guard let delta else { return filter.positions(in: books).count }
      return hits(filter, base: books, delta: delta).count
    }
  }
}
