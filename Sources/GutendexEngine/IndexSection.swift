/// The sections of a catalogue index file, in file order (see ``CatalogueSnapshot``).
///
/// Fixed-width sections hold little-endian numbers; a "table" is an offsets section (UInt32,
/// entries + 1) plus a bytes section; a "lists" section holds per-book ids of `width` bytes,
/// delimited by its offsets section (UInt32, books + 1).
enum IndexSection: Int, CaseIterable {
  /// Int32 per book, ascending: the Project Gutenberg ids.
  case ids
  /// Int32 per book.
  case downloads
  /// Int32 per book: positions by download count descending, then id.
  case popular
  /// UInt8 per book: 0 false, 1 true, 2 null.
  case copyright
  /// Upper-folded titles (``UpperFold``), one entry per book.
  case titleOffsets, titles
  /// Distinct author names, upper-folded (``UpperFold``).
  case authorNameOffsets, authorNames
  /// Per book, its authors' name ids.
  case bookAuthorOffsets, bookAuthors
  /// Two Int32 (birth, death; Int32.min for null) per `bookAuthors` entry.
  case authorYears
  /// Distinct subjects and bookshelves, upper-folded (``UpperFold``).
  case topicOffsets, topics
  /// Per book, its subjects then its bookshelves.
  case bookTopicOffsets, bookTopics
  /// Distinct language codes, as given.
  case languageOffsets, languages
  case bookLanguageOffsets, bookLanguages
  /// Distinct format MIME types, as given.
  case mimeTypeOffsets, mimeTypes
  case bookMimeTypeOffsets, bookMimeTypes
  /// The strings the records refer to (names, subjects, codes, URL templates).
  case stringOffsets, strings
  /// Each book's remaining fields, varint-coded (see `CatalogueSnapshot.encode`).
  case recordOffsets, records
  /// The "did you mean" vocabulary (``VocabularySections``): distinct words by length then
  /// bytes, UInt32 per word (how many texts hold it), then the accented words' unaccented
  /// forms, sorted, with UInt32 per form (its word's number). Version 3 on.
  case wordOffsets, words, wordCounts, accentKeyOffsets, accentKeys, accentWords

  /// Bytes before the first section: magic, version, section count, book count, flags.
  static let headerSize = 24
  /// Bytes per section-table entry: offset, length (UInt64), width, crc32 (UInt32).
  static let entrySize = 24
  static let magic = Array("GDXINDEX".utf8)
  /// 2: titles, names and topics are upper-folded (version 1 held them lower-cased). 3: the
  /// vocabulary sections follow the records.
  static let version: UInt32 = 3
  /// Version 2 files (a local catalogue synced before version 3) are read too: they lack the
  /// vocabulary, which is then built from the books on first use.
  static let versionWithoutVocabulary: UInt32 = 2
  /// The vocabulary's sections, in file order.
  static let vocabulary: [IndexSection] = [
    .wordOffsets, .words, .wordCounts, .accentKeyOffsets, .accentKeys, .accentWords,
  ]
  /// Header flag: each record ends with the book's summaries (a synced local catalogue). Older
  /// files hold 0 there, so they still read as "no summaries".
  static let summariesFlag: UInt32 = 1
  /// The stand-in for a null year in `authorYears`.
  static let nullYear = Int32.min
}
