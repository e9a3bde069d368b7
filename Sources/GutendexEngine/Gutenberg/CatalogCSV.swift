import Foundation

/// Project Gutenberg's `pg_catalog.csv.gz`: every book of the catalogue, one CSV record each
/// (RFC 4180: fields in double quotes may hold commas, quotes doubled and line breaks), under
/// the header `Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves`. A sync
/// needs only which books it lists: the first field of each record, `Text#`.
public struct CatalogCSV: Sendable, Hashable {
  /// The books listed, ascending, each once.
  public var ids: [Int]

  /// The most books one list may name: PG has under 80,000; a file naming millions is not the
  /// catalogue.
  static let bookLimit = 1_000_000
  /// The largest list expanded: the real one is about 20 MB.
  static let expandedLimit = 256 << 20

  /// Reads the gzip-compressed list `data` (or an uncompressed one); throws when it is not the
  /// catalogue (no `Text#` header, a record that does not start with a number).
  public init(compressed data: Data) throws(GutenbergFileError) {
    let bytes: [UInt8]
    if data.starts(with: [0x1F, 0x8B]) {
      do {
        bytes = try Zlib.gunzip(data, limit: Self.expandedLimit)
      } catch {
        throw GutenbergFileError(reason: "not a readable gzip file (\(error))")
      }
    } else {
      bytes = Array(data)
    }
    try self.init(csv: bytes)
  }

  /// Reads the list's CSV text.
  init(csv bytes: [UInt8]) throws(GutenbergFileError) {
    let header = Array("Text#".utf8)
    var start = 0
    // A byte-order mark is allowed before the header.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    guard bytes[start...].starts(with: header) else {
      throw GutenbergFileError(reason: "not Project Gutenberg's catalogue (no Text# header)")
    }
    var ids: Set<Int> = []
    var inQuotes = false
    var atRecordStart = false
    var index = start
    var record = 0
    while index < bytes.count {
      let byte = bytes[index]
      if atRecordStart {
        atRecordStart = false
        // A blank line between records (a trailing one, say) holds no book.
        if byte == 0x0A || byte == 0x0D {
          index += 1
          atRecordStart = true
          continue
        }
        record += 1
        var value = 0
        var digits = 0
        var cursor = index
        while cursor < bytes.count, (0x30...0x39).contains(bytes[cursor]), digits < 10 {
          value = value * 10 + Int(bytes[cursor] - 0x30)
          digits += 1
          cursor += 1
        }
        guard digits > 0, cursor < bytes.count ? bytes[cursor] == 0x2C : true, value > 0 else {
          throw GutenbergFileError(
            reason: "record \(record) of the catalogue does not start with a book number")
        }
        ids.insert(value)
        guard ids.count <= Self.bookLimit else {
          throw GutenbergFileError(reason: "more than \(Self.bookLimit) books listed")
        }
        index = cursor
        continue
      }
      switch byte {
      case 0x22: inQuotes.toggle()  // a doubled quote toggles twice: still inside
      case 0x0A where !inQuotes: atRecordStart = true
      default: break
      }
      index += 1
    }
    guard !inQuotes else {
      throw GutenbergFileError(reason: "the catalogue ends inside a quoted field (cut short?)")
    }
    self.ids = ids.sorted()
  }
}
