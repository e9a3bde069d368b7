/// Per-book ids into a snapshot's string table, handed to the index so that loading hashes
/// each distinct string once instead of every occurrence (a third of the load time).
struct TableColumns: Sendable {
  /// How many strings the table holds (ids are below this).
  var tableCount: Int
  /// Table ids of the authors' names, per book, in record order.
  var authorNames = IDLists()
  /// Table ids of the subjects then the bookshelves, per book.
  var topics = IDLists()
  var languages = IDLists()
  var mimeTypes = IDLists()
}

/// Maps table ids to pool ids, interning a string only the first time its table id is seen.
struct TableRemap {
  private var pool: [Int32]

  init(tableCount: Int) {
    pool = [Int32](repeating: -1, count: tableCount)
  }

  /// The pool id for table id `table`, whose string is `string`.
  mutating func id(_ table: Int32, _ string: @autoclosure () -> String, in target: inout StringPool)
    -> Int32
  {
    let known = pool[Int(table)]
    if known >= 0 { return known }
    let id = target.intern(string())
    pool[Int(table)] = id
    return id
  }
}
