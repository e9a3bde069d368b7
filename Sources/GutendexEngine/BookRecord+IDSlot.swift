extension BookRecord {
  /// The byte a URL template holds in place of the book's id (never in a real URL).
  static let idSlot: UInt8 = 0x01
}
