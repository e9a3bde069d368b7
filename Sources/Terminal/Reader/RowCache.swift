import Synchronization

/// What a pager worked out last, shared by its copies (all of it depends only on the text):
/// the rows of the last few pieces wrapped, by piece and width, so a page turn or a redraw
/// wraps the pieces it shows once, not once per question asked about them (a 32 KiB piece of
/// a paragraph kept on one line is thousands of words); the last short-line pieces found, so
/// the piece at a page's top is not looked for again (finding it scans its paragraph and
/// measures each of its lines); and the last pages, so turning the page drawn does not draw
/// it again to find where the next one starts.
final class RowCache: Sendable {
  private struct Entry {
    let range: Range<Int>
    let layout: TextPiece.Layout
    let width: Int
    let rows: [TextRow]
  }

  /// A page: where it starts, the cells and rows it was cut to, and in which visible text.
  private struct PageKey: Equatable {
    let top: Int
    let width: Int
    let height: Int
    let visible: Range<Int>
  }

  private struct State {
    var rows: [Entry] = []
    /// Pieces of short lines (a paragraph, or a line kept as written), with the visible text
    /// they were found in.
    var pieces: [(piece: TextPiece, visible: Range<Int>)] = []
    var pages: [(key: PageKey, page: (rows: [TextRow], next: Int?))] = []
  }

  /// Pieces kept: a page's few and the ones on either side of it.
  static let capacity = 8
  /// Pages kept: the one drawn and the one before it.
  static let pageCapacity = 2
  private let state = Mutex(State())

  /// The rows of `piece` at `width`, made by `make` when they are not kept.
  func rows(of piece: TextPiece, width: Int, make: () -> [TextRow]) -> [TextRow] {
    let kept = state.withLock { state in
      state.rows.first {
        $0.range == piece.range && $0.layout == piece.layout && $0.width == width
      }?.rows
    }
    if let kept { return kept }
    let rows = make()
    state.withLock { state in
      if state.rows.count >= Self.capacity { state.rows.removeFirst() }
      state.rows.append(Entry(range: piece.range, layout: piece.layout, width: width, rows: rows))
    }
    return rows
  }

  /// The piece holding byte `offset` of `visible`, found by `find` when no piece kept holds
  /// it. Only a short line's piece is kept (a paragraph, or a line kept as written): every
  /// byte of it is in that same piece, found from any of its lines (see ``Paragraphs``), so a
  /// byte inside one kept is answered with it. A long line's pieces are cheap to find again.
  func piece(containing offset: Int, in visible: Range<Int>, find: () -> TextPiece) -> TextPiece {
    let kept = state.withLock { state in
      state.pieces.last {
        $0.visible == visible && $0.piece.range.lowerBound <= offset
          && offset < $0.piece.range.upperBound
      }?.piece
    }
    if let kept { return kept }
    let piece = find()
    guard piece.layout != .line, piece.number == 0 else { return piece }
    state.withLock { state in
      if state.pieces.count >= Self.capacity { state.pieces.removeFirst() }
      state.pieces.append((piece, visible))
    }
    return piece
  }

  /// The page from `top` at `width` × `height` in `visible`, made by `make` when it is not kept.
  func page(
    top: Int, width: Int, height: Int, visible: Range<Int>,
    make: () -> (rows: [TextRow], next: Int?)
  ) -> (rows: [TextRow], next: Int?) {
    let key = PageKey(top: top, width: width, height: height, visible: visible)
    if let kept = state.withLock({ state in state.pages.first { $0.key == key }?.page }) {
      return kept
    }
    let page = make()
    state.withLock { state in
      if state.pages.count >= Self.pageCapacity { state.pages.removeFirst() }
      state.pages.append((key, page))
    }
    return page
  }
}
