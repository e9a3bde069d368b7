import Gutendex

/// An import document held whole in memory (standard input, or a file the streamed reader
/// left to it): its syntax is checked at once, and its values are read from its bytes.
struct WholeImportDocument: ImportDocument {
  private let bytes: [UInt8]
  private let parser: JSONParser
  private let source: String
  private let members: [String: ImportValue]
  let root: ImportValue

  /// Checks all of `bytes`' syntax and finds the top level's members; a syntax error is
  /// ``StoreError/invalidImport(source:location:reason:)`` at its line and column.
  init(_ bytes: [UInt8], source: String) throws(StoreError) {
    self.bytes = bytes
    self.source = source
    var parser = JSONParser(bytes, options: JSONParser.Options(skipsByteOrderMark: true))
    var members: [String: ImportValue] = [:]
    do throws(JSONParseError) {
      guard let first = parser.peek() else {
        throw JSONParseError(offset: parser.position, reason: "no JSON value (the input is empty)")
      }
      var walk = parser
      let range: Range<Int>
      if first == UInt8(ascii: "{") {
        let start = walk.position
        try walk.readObject { key, walk throws(JSONParseError) in
          let found = try walk.skipValue()
          // The first member of a name counts, as a parsed object's subscript has it.
          if members[key] == nil {
            members[key] = ImportValue(range: found, first: bytes[found.lowerBound])
          }
        }
        range = start..<walk.position
      } else {
        range = try walk.skipValue()
      }
      try walk.finish()
      root = ImportValue(range: range, first: first)
    } catch {
      throw Self.syntax(error, in: bytes, source: source)
    }
    self.parser = parser
    self.members = members
  }

  private static func syntax(_ error: JSONParseError, in bytes: [UInt8], source: String)
    -> StoreError
  {
    .invalidImport(
      source: source, location: JSONParser.lineAndColumn(of: error.offset, in: bytes),
      reason: "not valid JSON: \(error.reason)")
  }

  func member(_ name: String) -> ImportValue? {
    root.first == UInt8(ascii: "{") ? members[name] : nil
  }

  func value(of value: ImportValue) throws -> StoreJSON {
    var walk = parser.parser(at: value.range.lowerBound)
    do throws(JSONParseError) {
      return try StoreJSON.read(&walk)
    } catch {
      throw Self.syntax(error, in: bytes, source: source)
    }
  }

  func elements(of value: ImportValue) throws -> [ImportValue] {
    var elements: [ImportValue] = []
    var walk = parser.parser(at: value.range.lowerBound)
    try? walk.readArray { walk throws(JSONParseError) in
      let found = try walk.skipValueUnchecked()
      elements.append(ImportValue(range: found, first: bytes[found.lowerBound]))
    }
    return elements
  }
}
