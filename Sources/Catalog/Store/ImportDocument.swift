/// One value of an import document: where its bytes are, and the first of them (`[`, `{`,
/// `"`, ...), which tells its kind before it is read.
struct ImportValue: Sendable, Equatable {
  /// The value's bytes in the document (no whitespace around them).
  var range: Range<Int>
  /// Its first byte.
  var first: UInt8
}

/// An import document whose syntax has been checked, read one value at a time by
/// ``FavoritesImport/forEachItem(in:source:_:)``: held whole in memory
/// (``WholeImportDocument``) or in a file read again for each value
/// (``StreamedImportDocument``), with the same checks either way.
protocol ImportDocument {
  /// The top-level value.
  var root: ImportValue { get }
  /// The first member named `name` of the top-level object (nil when there is none, or the top
  /// level is not an object).
  func member(_ name: String) -> ImportValue?
  /// The value itself.
  func value(of value: ImportValue) throws -> StoreJSON
  /// The elements of an array (`value.first` is `[`), in order.
  func elements(of value: ImportValue) throws -> [ImportValue]
}

/// The file of a streamed import no longer holds what its first pass read: it changed while it
/// was read (the import is rolled back and the file read whole).
struct ImportDocumentChanged: Error {}
