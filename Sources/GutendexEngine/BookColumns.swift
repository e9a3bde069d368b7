/// What a query reads of a catalogue, one column at a time, wherever the catalogue lives.
///
/// Two catalogues implement it: ``RecordColumns`` over books decoded into memory (from JSON, for
/// `gutendex-server --books` and tests), and ``MappedCatalogue`` over the embedded catalogue's
/// index file, read in place. ``BookFilter`` runs the server's semantics over either, so there
/// is one query path. Positions are indexes into the books in id order.
protocol BookColumns {
  /// How many books there are.
  var bookCount: Int { get }
  /// The Project Gutenberg id of the book at `position`.
  func id(at position: Int) -> Int
  /// The position of the book with `id`, nil when there is none.
  func position(of id: Int) -> Int32?
  func downloadCount(at position: Int) -> Int
  func copyright(at position: Int) -> Bool?
  /// The position of the book ranked `rank` by download count descending, then id ascending.
  func popular(_ rank: Int) -> Int32?

  func hasAuthors(at position: Int) -> Bool
  /// True when some author's (birth, death) years pass `test`.
  func anyAuthor(at position: Int, _ test: (Int?, Int?) -> Bool) -> Bool

  /// A flag per book: does its upper-folded title contain `needle`?
  func titleFlags(containing needle: [UInt8]) -> [Bool]
  /// A flag per distinct author name: does its upper-folded form contain `needle`?
  func authorNameFlags(containing needle: [UInt8]) -> [Bool]
  /// A flag per distinct subject or bookshelf: does its upper-folded form contain `needle`?
  func topicFlags(containing needle: [UInt8]) -> [Bool]
  /// Every distinct language code, in the catalogue's own order.
  var languageCodes: [String] { get }
  /// A flag per distinct language code: is it one of `codes`?
  func languageFlags(codes: [String]) -> [Bool]
  /// A flag per distinct MIME type: does it start with `prefix`?
  func mimeTypeFlags(prefix: [UInt8]) -> [Bool]

  func anyAuthorName(at position: Int, in flags: [Bool]) -> Bool
  func hasTopics(at position: Int) -> Bool
  func anyTopic(at position: Int, in flags: [Bool]) -> Bool
  func anyLanguage(at position: Int, in flags: [Bool]) -> Bool
  func anyMimeType(at position: Int, in flags: [Bool]) -> Bool

  /// Calls `body` with every upper-folded title, distinct author name and distinct topic (what
  /// ``Vocabulary`` reads).
  func forEachMatchedText(_ body: (UnsafeRawBufferPointer) -> Void)

  /// The whole book at `position`, to write it out.
  func record(at position: Int) throws(EngineError) -> BookRecord
}
