import Foundation

/// One book as Gutendex describes it, decoded leniently across every era of the server's schema,
/// with the server's own bytes kept in ``rawJSON`` so it can be stored and exported unchanged.
public struct Book: Sendable, Hashable, Identifiable {
  /// The Project Gutenberg number.
  public var id: Int
  /// The title as the server gives it.
  public var title: String
  /// Authors in the server's order; empty for about 4% of books.
  public var authors: [Person]
  /// Machine-written summaries (era E3+); nil when the server did not send the field.
  public var summaries: [String]?
  /// Editors (era E4+); nil when the server did not send the field.
  public var editors: [Person]?
  /// Translators (era E2+); nil when the server did not send the field.
  public var translators: [Person]?
  /// Library of Congress subject headings.
  public var subjects: [String]
  /// Project Gutenberg bookshelves the book is on.
  public var bookshelves: [String]
  /// Language codes, 2 or 3 letters.
  public var languages: [String]
  /// true: copyrighted in the USA; false: public domain; nil: unknown or not sent (era E0).
  public var copyright: Bool?
  /// Text, Sound, Dataset, Image, MovingImage, Collection or StillImage.
  public var mediaType: String
  /// Download URL by MIME type; may be empty.
  public var formats: [String: String]
  /// Recent downloads as counted by Project Gutenberg; may be 0.
  public var downloadCount: Int
  /// The book's JSON exactly as the server sent it (or as encoded, for books made in code).
  public var rawJSON: Data

  /// A book made in code (tests, imports); ``rawJSON`` is encoded from the fields unless given.
  public init(
    id: Int, title: String, authors: [Person] = [], summaries: [String]? = nil,
    editors: [Person]? = nil, translators: [Person]? = nil, subjects: [String] = [],
    bookshelves: [String] = [], languages: [String] = [], copyright: Bool? = nil,
    mediaType: String = "Text", formats: [String: String] = [:], downloadCount: Int = 0,
    rawJSON: Data? = nil
  ) {
    self.id = id
    self.title = title
    self.authors = authors
    self.summaries = summaries
    self.editors = editors
    self.translators = translators
    self.subjects = subjects
    self.bookshelves = bookshelves
    self.languages = languages
    self.copyright = copyright
    self.mediaType = mediaType
    self.formats = formats
    self.downloadCount = downloadCount
    self.rawJSON = Data()
    self.rawJSON = rawJSON ?? ((try? Book.encoder.encode(self)) ?? Data())
  }

  /// Decodes one book from its JSON bytes, keeping the bytes as ``rawJSON``.
  ///
  /// - Parameter path: the JSON path of this book in a larger document, for error messages.
  public static func decode(from data: Data, path: String = "") throws(BookDecodingError) -> Book {
    if let book = decodeFast(data) { return book }
    do {
      var book = try JSONDecoder().decode(Book.self, from: data)
      book.rawJSON = data
      return book
    } catch let error as DecodingError {
      // A number no 64-bit integer holds makes the whole document "not valid JSON" to
      // Foundation: pinned to the nearest integer, the book reads, and that one field is out
      // of range for whoever stores it (the index names the book and the field).
      if let clamped = OutOfRangeNumbers.clamped(data),
        let book = try? decode(from: clamped, path: path)
      {
        return book
      }
      throw BookDecodingError(decoding: error, prefix: path)
    } catch {
      throw BookDecodingError(path: path, reason: String(describing: error))
    }
  }

  /// Encodes books in the server's own key order (compact, slashes and UTF-8 unescaped).
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return encoder
  }()
}

extension Book: Codable {
  enum CodingKeys: String, CodingKey {
    case id, title, authors, summaries, editors, translators, subjects, bookshelves, languages
    case copyright
    case mediaType = "media_type"
    case formats
    case downloadCount = "download_count"
  }

  /// Decodes any era's book shape; missing keys take the server's defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
    authors = try container.decodeIfPresent([Person].self, forKey: .authors) ?? []
    summaries = try container.decodeIfPresent([String].self, forKey: .summaries)
    editors = try container.decodeIfPresent([Person].self, forKey: .editors)
    translators = try container.decodeIfPresent([Person].self, forKey: .translators)
    subjects = try container.decodeIfPresent([String].self, forKey: .subjects) ?? []
    bookshelves = try container.decodeIfPresent([String].self, forKey: .bookshelves) ?? []
    languages = try container.decodeIfPresent([String].self, forKey: .languages) ?? []
    copyright = try container.decodeIfPresent(Bool.self, forKey: .copyright)
    mediaType = try container.decodeIfPresent(String.self, forKey: .mediaType) ?? "Text"
    formats = try container.decodeIfPresent([String: String].self, forKey: .formats) ?? [:]
    downloadCount = try container.decodeIfPresent(Int.self, forKey: .downloadCount) ?? 0
    rawJSON = Data()
  }

  /// Writes the server's E4 shape: every field, in the server's order.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(authors, forKey: .authors)
    try container.encode(summaries ?? [], forKey: .summaries)
    try container.encode(editors ?? [], forKey: .editors)
    try container.encode(translators ?? [], forKey: .translators)
    try container.encode(subjects, forKey: .subjects)
    try container.encode(bookshelves, forKey: .bookshelves)
    try container.encode(languages, forKey: .languages)
    try container.encode(copyright, forKey: .copyright)
    try container.encode(mediaType, forKey: .mediaType)
    try container.encode(formats, forKey: .formats)
    try container.encode(downloadCount, forKey: .downloadCount)
  }
}

/// Why a book or page could not be decoded, with the JSON path that failed.
public struct BookDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A JSON path such as `results[3].authors[0].name`; empty for the top level.
  public var path: String
  /// What was wrong there.
  public var reason: String

  /// A decoding failure at `path` for `reason`.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  init(decoding error: DecodingError, prefix: String) {
    func join(_ codingPath: [any CodingKey]) -> String {
      var result = prefix
      for key in codingPath {
        if let index = key.intValue {
          result += "[\(index)]"
        } else {
          result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      }
      return result
    }
    switch error {
    case .typeMismatch(let type, let context):
      self.init(path: join(context.codingPath), reason: "expected \(type)")
    case .valueNotFound(let type, let context):
      self.init(path: join(context.codingPath), reason: "expected \(type), found null")
    case .keyNotFound(let key, let context):
      self.init(
        path: join(context.codingPath + [key]), reason: "missing key '\(key.stringValue)'")
    case .dataCorrupted(let context):
      // With a path, the document parsed and one value is wrong (a number that does not fit).
      self.init(
        path: join(context.codingPath),
        reason: context.codingPath.isEmpty ? "not valid JSON" : "a value out of range")
    @unknown default:
      self.init(path: prefix, reason: String(describing: error))
    }
  }

  /// `path: reason`, for messages.
  public var description: String {
    "\(path.isEmpty ? "top level" : path): \(reason)"
  }
}
