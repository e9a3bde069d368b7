import Foundation

/// A book a sync added to the local catalogue: which, when (the sync's time), and the date
/// Project Gutenberg's feed gives as its release (`dcterms:issued`) when a feed refresh added it.
public struct Arrival: Sendable, Hashable {
  /// The Project Gutenberg number.
  public var id: Int
  /// When the sync that added it ran.
  public var added: Date
  /// The feed's release date (`2025-09-14`); nil when the book came from the server's pages,
  /// which carry no date.
  public var issued: String?

  /// An arrival.
  public init(id: Int, added: Date, issued: String? = nil) {
    self.id = id
    self.added = added
    self.issued = issued
  }

  /// Whether `text` is a release date as the feed writes it (`YYYY-MM-DD`).
  static func isIssuedDate(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
      return false
    }
    return bytes.enumerated().allSatisfy { index, byte in
      index == 4 || index == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
  }
}
