import Foundation

extension Book {
  /// The common case of ``decode(from:path:)`` without Foundation's `JSONDecoder`, which is
  /// slow on Linux (it was most of the time of decoding a page).
  ///
  /// Gives the same book as the `Codable` path, or nil for anything that path might judge
  /// differently: malformed JSON, a value of an unexpected type, a repeated known key, a number
  /// that is not a plain integer. The caller then uses the `Codable` path, which decides.
  static func decodeFast(_ data: Data) -> Book? {
    var reader = StrictJSONReader([UInt8](data))
    var book = Book(id: 0, title: "", rawJSON: data)
    // Bit `n` set once the n-th known key was read (a set of keys would allocate per book).
    var seen: UInt32 = 0
    let read = reader.readObject { reader, key in
      guard let field = CodingKeys(rawValue: key) else { return reader.skipValue() }
      let bit = UInt32(1) << field.bitIndex
      guard seen & bit == 0 else { return false }
      seen |= bit
      return book.read(field, from: &reader)
    }
    reader.skipWhitespace()
    guard read, reader.atEnd, seen & (1 << CodingKeys.id.bitIndex) != 0 else { return nil }
    return book
  }

  /// Reads the value of `field` into this book; false when it is not what `Codable` expects.
  private mutating func read(_ field: CodingKeys, from reader: inout StrictJSONReader) -> Bool {
    if field != .id, reader.takeNull() {
      // null is what `decodeIfPresent` reads as absent: the defaults of `init(from:)`.
      return true
    }
    switch field {
    case .id:
      guard let value = reader.readInt() else { return false }
      id = value
    case .title:
      guard let value = reader.readString() else { return false }
      title = value
    case .authors:
      guard let value = Self.readPeople(&reader) else { return false }
      authors = value
    case .summaries:
      guard let value = Self.readStrings(&reader) else { return false }
      summaries = value
    case .editors:
      guard let value = Self.readPeople(&reader) else { return false }
      editors = value
    case .translators:
      guard let value = Self.readPeople(&reader) else { return false }
      translators = value
    case .subjects:
      guard let value = Self.readStrings(&reader) else { return false }
      subjects = value
    case .bookshelves:
      guard let value = Self.readStrings(&reader) else { return false }
      bookshelves = value
    case .languages:
      guard let value = Self.readStrings(&reader) else { return false }
      languages = value
    case .copyright:
      guard let value = reader.readBool() else { return false }
      copyright = value
    case .mediaType:
      guard let value = reader.readString() else { return false }
      mediaType = value
    case .formats:
      var value: [String: String] = [:]
      let read = reader.readObject { reader, key in
        guard value[key] == nil, let url = reader.readString() else { return false }
        value[key] = url
        return true
      }
      guard read else { return false }
      formats = value
    case .downloadCount:
      guard let value = reader.readInt() else { return false }
      downloadCount = value
    }
    return true
  }

  private static func readStrings(_ reader: inout StrictJSONReader) -> [String]? {
    var strings: [String] = []
    let read = reader.readArray { reader in
      guard let text = reader.readString() else { return false }
      strings.append(text)
      return true
    }
    return read ? strings : nil
  }

  private static func readPeople(_ reader: inout StrictJSONReader) -> [Person]? {
    var people: [Person] = []
    let read = reader.readArray { reader in
      guard let person = Person.decodeFast(&reader) else { return false }
      people.append(person)
      return true
    }
    return read ? people : nil
  }
}

extension Person {
  /// ``Person``'s `init(from:)` on the strict reader; nil where `Codable` must decide.
  static func decodeFast(_ reader: inout StrictJSONReader) -> Person? {
    var person = Person(name: "")
    var seen: (name: Bool, birth: Bool, death: Bool) = (false, false, false)
    let read = reader.readObject { reader, key in
      guard let field = CodingKeys(rawValue: key) else { return reader.skipValue() }
      switch field {
      case .name:
        guard !seen.name else { return false }
        seen.name = true
      case .birthYear:
        guard !seen.birth else { return false }
        seen.birth = true
      case .deathYear:
        guard !seen.death else { return false }
        seen.death = true
      }
      if reader.takeNull() { return true }
      switch field {
      case .name:
        guard let name = reader.readString() else { return false }
        person.name = name
      case .birthYear:
        guard let year = reader.readInt() else { return false }
        person.birthYear = year
      case .deathYear:
        guard let year = reader.readInt() else { return false }
        person.deathYear = year
      }
      return true
    }
    return read ? person : nil
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
