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
  /// Int32 per book: its rank in the popular order (the `popular` section inverted), so a
  /// query's few matches are put in that order without walking it. Version 4 on, like all
  /// that follow.
  case ranks
  /// The distinct tokens of the upper-folded titles (runs of bytes between spaces), in the
  /// order first met: a search term, which holds no space, is in a title exactly when it is in
  /// one of its tokens, so a search reads these (a fraction of the titles) and their books.
  case tokenOffsets, tokens
  /// Posting lists (``PostingLists``): per token, per author name, per topic, per language
  /// and per MIME type, the positions of the books that have it, ascending.
  case tokenBookOffsets, tokenBooks
  case nameBookOffsets, nameBooks
  case topicBookOffsets, topicBooks
  case languageBookOffsets, languageBooks
  case mimeTypeBookOffsets, mimeTypeBooks
  /// UInt32 per vocabulary word: the words' numbers in byte order (the words section is by
  /// length first), the vocabulary as a trie that "did you mean" walks within its edits.
  case lexicon

  /// Bytes before the first section: magic, version, section count, book count, flags.
  static let headerSize = 24
  /// Bytes per section-table entry: offset, length (UInt64), width, crc32 (UInt32).
  static let entrySize = 24
  static let magic = Array("GDXINDEX".utf8)
  /// 2: titles, names and topics are upper-folded (version 1 held them lower-cased). 3: the
  /// vocabulary sections follow the records. 4: the ranks, title tokens, posting lists and the
  /// vocabulary's lexicon follow the vocabulary.
  static let version: UInt32 = 4
  /// Version 3 files (a local catalogue synced before version 4) are read too: without their
  /// postings, queries walk the columns as they did then.
  static let versionWithoutPostings: UInt32 = 3
  /// Version 2 files (a local catalogue synced before version 3) are read too: they lack the
  /// vocabulary, which is then built from the books on first use.
  static let versionWithoutVocabulary: UInt32 = 2
  /// How many sections a file of `version` has (nil for a version this reader does not know).
  static func sectionCount(version: UInt32) -> Int? {
    switch version {
    case Self.version: allCases.count
    case versionWithoutPostings: allCases.count - postings.count
    case versionWithoutVocabulary: allCases.count - postings.count - vocabulary.count
    default: nil
    }
  }
  /// The sections version 4 added, in file order.
  static let postings: [IndexSection] = [
    .ranks, .tokenOffsets, .tokens, .tokenBookOffsets, .tokenBooks, .nameBookOffsets,
    .nameBooks, .topicBookOffsets, .topicBooks, .languageBookOffsets, .languageBooks,
    .mimeTypeBookOffsets, .mimeTypeBooks, .lexicon,
  ]
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
