/// Lays rows of cells out in aligned columns that fit a width: flexible columns (titles,
/// names) share the room left by fixed ones and are cut with `…`; optional columns are dropped,
/// least important first, when even the flexible ones would get too narrow.
struct ColumnLayout {
  struct Column {
    /// The column's cell in each row, already sanitised.
    var cells: [String]
    /// Shorter forms of the cells (a name without its years), used instead of cutting a cell
    /// that does not fit.
    var shortCells: [String]? = nil
    var alignment: DisplayWidth.Alignment = .left
    /// Flexible columns shrink (with `…`) to fit; fixed ones always get their widest cell.
    var isFlexible = false
    /// Relative share of the room for flexible columns.
    var share = 1
    /// Below this a flexible column is not worth showing, so optional columns are dropped.
    var minimum = 1
    /// Optional columns are dropped highest first when room runs short; nil: always shown.
    var dropPriority: Int?
    /// Spaces before this column (ignored for the first column shown).
    var gap = 2
    /// Colour or emphasis for the cell's text, applied after fitting (padding stays plain).
    var style: ((String) -> String)?
  }

  var columns: [Column]

  /// One line per row, each at most `width` cells, without trailing spaces.
  func lines(width: Int) -> [String] {
    let rowCount = columns.map(\.cells.count).max() ?? 0
    guard rowCount > 0 else { return [] }
    let natural = columns.map { column in column.cells.map(DisplayWidth.cells).max() ?? 0 }
    // An empty optional column takes no room at all.
    var shown = columns.indices.filter { natural[$0] > 0 || columns[$0].dropPriority == nil }
    var widths = assign(shown: shown, natural: natural, width: width)
    while widths == nil {
      let droppable = shown.filter { columns[$0].dropPriority != nil }
      guard
        let victim = droppable.max(by: {
          (columns[$0].dropPriority ?? 0) < (columns[$1].dropPriority ?? 0)
        })
      else { break }
      shown.removeAll { $0 == victim }
      widths = assign(shown: shown, natural: natural, width: width)
    }
    let finalWidths = widths ?? squeeze(shown: shown, natural: natural, width: width)
    return (0..<rowCount).map { row in
      var line = ""
      for (position, index) in shown.enumerated() {
        let column = columns[index]
        if position > 0 { line += String(repeating: " ", count: column.gap) }
        var cell = row < column.cells.count ? column.cells[row] : ""
        let cellWidth = finalWidths[index] ?? 0
        if DisplayWidth.cells(cell) > cellWidth, let short = column.shortCells, row < short.count {
          cell = short[row]
        }
        let text = DisplayWidth.truncate(cell, toCells: cellWidth)
        let padding = String(repeating: " ", count: max(0, cellWidth - DisplayWidth.cells(text)))
        let styled = column.style?(text) ?? text
        line += column.alignment == .left ? styled + padding : padding + styled
      }
      return TextWrapper.trimmingTrailingSpaces(line)
    }
  }

  /// Column widths by index when every flexible column shown can get its minimum, else nil.
  private func assign(shown: [Int], natural: [Int], width: Int) -> [Int: Int]? {
    var widths: [Int: Int] = [:]
    var room = width
    for (position, index) in shown.enumerated() {
      if position > 0 { room -= columns[index].gap }
      if !columns[index].isFlexible {
        widths[index] = natural[index]
        room -= natural[index]
      }
    }
    let flexible = shown.filter { columns[$0].isFlexible }
    let minimums = flexible.map { min(columns[$0].minimum, natural[$0]) }.reduce(0, +)
    guard room >= minimums, room >= 0 else { return nil }
    let wanted = flexible.map { natural[$0] }.reduce(0, +)
    if wanted <= room {
      for index in flexible { widths[index] = natural[index] }
      return widths
    }
    // Two flexible columns (title and author): try every split and keep the one that cuts
    // the fewest cells, weighted by share, closest to the shares on a tie.
    if flexible.count == 2 {
      let (first, second) = (flexible[0], flexible[1])
      let lowest = min(columns[first].minimum, natural[first])
      let highest = room - min(columns[second].minimum, natural[second])
      if lowest <= highest {
        let totalShare = max(1, columns[first].share + columns[second].share)
        let target = room * columns[first].share / totalShare
        let (firstSizes, secondSizes) = (sizes(of: first), sizes(of: second))
        var best = (cost: Int.max, distance: Int.max, width: lowest)
        for width in lowest...highest {
          let cost =
            cutCost(firstSizes, width: width) * columns[first].share
            + cutCost(secondSizes, width: room - width) * columns[second].share
          let distance = abs(width - target)
          if cost < best.cost || (cost == best.cost && distance < best.distance) {
            best = (cost, distance, width)
          }
        }
        widths[first] = min(best.width, natural[first])
        widths[second] = min(room - best.width, natural[second])
        return widths
      }
    }
    // Otherwise share the room, then hand what a column does not need to the ones that want
    // more.
    let totalShare = max(1, flexible.map { columns[$0].share }.reduce(0, +))
    var left = room
    for index in flexible {
      let share = room * columns[index].share / totalShare
      let given = min(natural[index], max(min(columns[index].minimum, natural[index]), share))
      widths[index] = given
      left -= given
    }
    for index in flexible where left > 0 {
      let more = min(left, natural[index] - (widths[index] ?? 0))
      if more > 0 {
        widths[index, default: 0] += more
        left -= more
      }
    }
    // Minimums can overshoot the shares; take the excess back from the widest.
    while left < 0,
      let widest = flexible.max(by: { widths[$0, default: 0] < widths[$1, default: 0] }),
      widths[widest, default: 0] > 1
    {
      widths[widest, default: 0] -= 1
      left += 1
    }
    return widths
  }

  /// Each cell's width and its short form's width, measured once.
  private func sizes(of index: Int) -> [(full: Int, short: Int?)] {
    let column = columns[index]
    return column.cells.indices.map { row in
      let short = column.shortCells.flatMap { row < $0.count ? DisplayWidth.cells($0[row]) : nil }
      return (DisplayWidth.cells(column.cells[row]), short)
    }
  }

  /// How badly a column's cells are cut at `width`, in hundredths: 0 per cell shown whole,
  /// 100 per cell shown in its short form, 150 to 250 per cell cut with `…` (more the more of
  /// it is lost).
  private func cutCost(_ sizes: [(full: Int, short: Int?)], width: Int) -> Int {
    var cost = 0
    for (full, short) in sizes where full > width {
      if let short, short <= width {
        cost += 100
      } else {
        cost += 150 + 100 * (full - max(0, width)) / full
      }
    }
    return cost
  }

  /// Widths when nothing more can be dropped: fixed columns as they are, flexible ones split
  /// whatever is left (possibly nothing).
  private func squeeze(shown: [Int], natural: [Int], width: Int) -> [Int: Int] {
    var widths: [Int: Int] = [:]
    var room = width
    for (position, index) in shown.enumerated() {
      if position > 0 { room -= columns[index].gap }
      if !columns[index].isFlexible {
        widths[index] = natural[index]
        room -= natural[index]
      }
    }
    let flexible = shown.filter { columns[$0].isFlexible }
    for index in flexible {
      widths[index] = max(0, room / max(1, flexible.count))
    }
    return widths
  }
}
