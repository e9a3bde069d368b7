import Foundation

/// A feed's books going into a ``StreamedIndex``, each compared on the way with the copy the
/// catalogue had, so a refresh can say how many it changed (a summary the snapshot lacked, a
/// revised title, a download count that moved). The comparison runs on the feed's parsing
/// thread, which waits for bzip2 most of the time, so it costs the refresh no wall time.
struct ChangeCountingIndex: FeedReader.Books {
  /// The books read so far.
  var index: StreamedIndex
  /// The catalogue before the refresh.
  let previous: GutendexEngine
  /// Books whose record differs from the previous catalogue's (new books are not counted).
  private(set) var changed = 0

  mutating func add(_ record: BookRecord, issued: String?) throws {
    if let current = previous.bookJSON(id: record.id), !current.elementsEqual(record.json) {
      changed += 1
    }
    try index.add(record, issued: issued)
  }

  mutating func saw(_ id: Int) throws { try index.saw(id) }

  static var keepsIDs: Bool { false }
}
