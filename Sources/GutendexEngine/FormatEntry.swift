/// One `formats` entry; a snapshot URL holds `BookRecord.idSlot` bytes where the id goes.
struct FormatEntry: Sendable {
  var mime: String
  var url: String
  /// True when `url` is a template whose `idSlot` bytes stand for the book's id.
  var hasIDSlots: Bool
}
