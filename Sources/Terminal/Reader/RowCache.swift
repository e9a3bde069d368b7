import Synchronization

/// The rows of the last few pieces wrapped, by piece and width: a page turn or a redraw wraps
/// the pieces it shows once, not once per question asked about them (a 32 KiB piece of a
/// paragraph kept on one line is thousands of words).
final class RowCache: Sendable {
  private struct Entry {
    let range: Range<Int>
    let layout: TextPiece.Layout
    let width: Int
    let rows: [TextRow]
  }

  /// Pieces kept: a page's few and the ones on either side of it.
  static let capacity = 8
  private let entries = Mutex<[Entry]>([])

  /// The rows of `piece` at `width`, made by `make` when they are not kept.
  func rows(of piece: TextPiece, width: Int, make: () -> [TextRow]) -> [TextRow] {
    let kept = entries.withLock { entries in
      entries.first {
        $0.range == piece.range && $0.layout == piece.layout && $0.width == width
      }?.rows
    }
    if let kept { return kept }
    let rows = make()
    entries.withLock { entries in
      if entries.count >= Self.capacity { entries.removeFirst() }
      entries.append(Entry(range: piece.range, layout: piece.layout, width: width, rows: rows))
    }
    return rows
  }
}
