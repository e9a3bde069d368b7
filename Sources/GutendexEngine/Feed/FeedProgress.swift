import Synchronization

/// How far a feed's reading has come: bytes of the archive received and books read, told to
/// `report` as they change (from the transfer's task and from the parsing thread).
public final class FeedProgress: Sendable {
  private let bytes = Atomic<Int64>(0)
  private let books = Atomic<Int>(0)
  private let report: @Sendable (_ bytes: Int64, _ books: Int) -> Void

  /// A counter telling `report` about each change (nothing by default).
  public init(report: @escaping @Sendable (_ bytes: Int64, _ books: Int) -> Void = { _, _ in }) {
    self.report = report
  }

  /// `count` more bytes of the archive arrived.
  func received(_ count: Int) {
    let total = bytes.add(Int64(count), ordering: .relaxed).newValue
    report(total, books.load(ordering: .relaxed))
  }

  /// `count` books have been read in all.
  func read(books count: Int) {
    books.store(count, ordering: .relaxed)
    report(bytes.load(ordering: .relaxed), count)
  }
}
