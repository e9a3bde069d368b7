import Foundation

extension Book {
  /// What the fast path accepts: strict JSON, and unknown values nested at most 64 deep (deeper
  /// ones are left to `Codable`, which decides).
  static let fastOptions = JSONParser.Options(maximumDepth: 64)

  /// The common case of ``decode(from:path:)`` without Foundation's `JSONDecoder`, which is
  /// slow on Linux (it was most of the time of decoding a page).
  ///
  /// Gives the same book as the `Codable` path, or nil for anything that path might judge
  /// differently: malformed JSON, a value of an unexpected type, a repeated known key, a number
  /// that is not a plain integer. The caller then uses the `Codable` path, which decides.
  static func decodeFast(_ data: Data) -> Book? {
    var parser = JSONParser([UInt8](data), options: fastOptions)
    guard var book = decodeFast(&parser), (try? parser.finish()) != nil else { return nil }
    book.rawJSON = data
    return book
  }

  /// ``decodeFast(_:)`` of the object at the parser's position, which it leaves just after the
  /// object; ``rawJSON`` is left empty for the caller. A throw of the parser means nil.
  static func decodeFast(_ parser: inout JSONParser) -> Book? {
    var book = Book(id: 0, title: "", rawJSON: Data())
    // Bit `n` set once the n-th known key was read (a set of keys would allocate per book).
    var seen: UInt32 = 0
    do throws(JSONParseError) {
      try parser.readObject { key, parser throws(JSONParseError) in
        guard let field = CodingKeys(rawValue: key) else {
          try parser.skipValue()
          return
        }
        let bit = UInt32(1) << field.bitIndex
        guard seen & bit == 0 else { throw parser.failure("no repeated key \(key)") }
        seen |= bit
        try book.read(field, from: &parser)
      }
    } catch {
      return nil
    }
    guard seen & (1 << CodingKeys.id.bitIndex) != 0 else { return nil }
    return book
  }

  /// Reads the value of `field` into this book; throws when it is not what `Codable` expects.
  private mutating func read(_ field: CodingKeys, from parser: inout JSONParser)
    throws(JSONParseError)
  {
    if field != .id, parser.readNull() {
      // null is what `decodeIfPresent` reads as absent: the defaults of `init(from:)`.
      return
    }
    switch field {
    case .id: id = try Self.readPlainInt(&parser)
    case .title: title = try parser.readString()
    case .authors: authors = try Self.readPeople(&parser)
    case .summaries: summaries = try Self.readStrings(&parser)
    case .editors: editors = try Self.readPeople(&parser)
    case .translators: translators = try Self.readPeople(&parser)
    case .subjects: subjects = try Self.readStrings(&parser)
    case .bookshelves: bookshelves = try Self.readStrings(&parser)
    case .languages: languages = try Self.readStrings(&parser)
    case .copyright: copyright = try parser.readBool()
    case .mediaType: mediaType = try parser.readString()
    case .formats:
      var value: [String: String] = [:]
      try parser.readObject { key, parser throws(JSONParseError) in
        guard value[key] == nil else { throw parser.failure("no repeated key \(key)") }
        value[key] = try parser.readString()
      }
      formats = value
    case .downloadCount: downloadCount = try Self.readPlainInt(&parser)
    }
  }

  /// An integer `Codable` reads the same: not `-0`, which is left to it.
  static func readPlainInt(_ parser: inout JSONParser) throws(JSONParseError) -> Int {
    parser.skipWhitespace()
    let start = parser.position
    let value = try parser.readInt()
    guard value != 0 || parser.bytes[start] != UInt8(ascii: "-") else {
      throw JSONParseError(offset: start, reason: "-0 is left to Codable")
    }
    return value
  }

  private static func readStrings(_ parser: inout JSONParser) throws(JSONParseError) -> [String] {
    var strings: [String] = []
    try parser.readArray { parser throws(JSONParseError) in
      strings.append(try parser.readString())
    }
    return strings
  }

  private static func readPeople(_ parser: inout JSONParser) throws(JSONParseError) -> [Person] {
    var people: [Person] = []
    try parser.readArray { parser throws(JSONParseError) in
      people.append(try Person.decodeFast(&parser))
    }
    return people
  }
}

extension Person {
  /// ``Person``'s `init(from:)` on the parser; throws where `Codable` must decide.
  static func decodeFast(_ parser: inout JSONParser) throws(JSONParseError) -> Person {
    var person = Person(name: "")
    var seen: (name: Bool, birth: Bool, death: Bool) = (false, false, false)
    try parser.readObject { key, parser throws(JSONParseError) in
      guard let field = CodingKeys(rawValue: key) else {
        try parser.skipValue()
        return
      }
      let repeated: Bool
      switch field {
      case .name: (repeated, seen.name) = (seen.name, true)
      case .birthYear: (repeated, seen.birth) = (seen.birth, true)
      case .deathYear: (repeated, seen.death) = (seen.death, true)
      }
      guard !repeated else { throw parser.failure("no repeated key \(key)") }
      if parser.readNull() { return }
      switch field {
      case .name: person.name = try parser.readString()
      case .birthYear: person.birthYear = try Book.readPlainInt(&parser)
      case .deathYear: person.deathYear = try Book.readPlainInt(&parser)
      }
    }
    return person
  }
}

extension Book.CodingKeys {
  /// A distinct bit position per key, for the fast path's record of keys already read.
  var bitIndex: UInt32 {
    switch self {
    case .id: 0
    case .title: 1
    case .authors: 2
    case .summaries: 3
    case .editors: 4
    case .translators: 5
    case .subjects: 6
    case .bookshelves: 7
    case .languages: 8
    case .copyright: 9
    case .mediaType: 10
    case .formats: 11
    case .downloadCount: 12
    }
  }
}
