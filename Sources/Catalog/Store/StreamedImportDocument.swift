import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An import document in a file, never held whole: a first pass reads it a piece at a time,
/// checks its syntax (each value parsed by the package's JSON reader, the punctuation between
/// the top level's members and the favourites by this pass) and notes where each member and
/// each favourite lies; every value is then read again from the file when it is used. An
/// import of 10,000 favourites with their bookmarks (46 MB) costs a piece and one favourite
/// of memory instead of the whole document.
///
/// Only what the importer reads is taken this way: an array of books, or an object with
/// `format` or `results`. Anything else, and anything this pass is not sure of (a syntax
/// error above all), makes `init` return nil, and the document is read whole as before
/// (``WholeImportDocument``), whose errors name the line and column: the same refusals, the
/// same messages.
struct StreamedImportDocument: ImportDocument {
  private let descriptor: Int32
  private let members: [String: ImportValue]
  /// The elements of the arrays noted (the top level's, `favorites`', `results`'), by the
  /// offset of their `[`.
  private let arrays: [Int: [ImportValue]]
  let root: ImportValue

  /// The layout of the document in the file open at `descriptor` (read with `pread`, so its
  /// position does not matter); nil to leave it to the whole-document reader.
  init?(descriptor: Int32) {
    var reader = PieceReader(descriptor: descriptor)
    guard let layout = reader.layout() else { return nil }
    self.descriptor = descriptor
    root = layout.root
    members = layout.members
    arrays = layout.arrays
  }

  func member(_ name: String) -> ImportValue? {
    root.first == UInt8(ascii: "{") ? members[name] : nil
  }

  func value(of value: ImportValue) throws -> StoreJSON {
    var bytes = [UInt8](repeating: 0, count: value.range.count)
    let got = bytes.withUnsafeMutableBytes {
      pread(descriptor, $0.baseAddress, $0.count, off_t(value.range.lowerBound))
    }
    guard got == value.range.count else { throw ImportDocumentChanged() }
    var parser = JSONParser(bytes)
    do throws(JSONParseError) {
      return try StoreJSON.read(&parser)
    } catch {
      throw ImportDocumentChanged()
    }
  }

  func elements(of value: ImportValue) throws -> [ImportValue] {
    guard let elements = arrays[value.range.lowerBound] else { throw ImportDocumentChanged() }
    return elements
  }
}

/// The first pass of ``StreamedImportDocument``: the file a piece at a time, each value's bytes
/// gathered only while it is checked.
private struct PieceReader {
  /// What the first pass found.
  struct Layout {
    var root: ImportValue
    var members: [String: ImportValue] = [:]
    var arrays: [Int: [ImportValue]] = [:]
  }

  let descriptor: Int32
  private var buffer = [UInt8](repeating: 0, count: 1 << 20)
  private var count = 0
  private var index = 0
  /// The file offset of `buffer[0]`.
  private var base = 0
  /// The bytes of the value being gathered, from `captureStart` in the buffer on.
  private var captured: [UInt8]?
  private var captureStart = 0
  /// More nesting than the whole-document reader allows (256) is left to it.
  private static let maximumDepth = 256

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  private var offset: Int { base + index }

  private mutating func peek() -> UInt8? {
    if index == count, !refill() { return nil }
    return buffer[index]
  }

  private mutating func next() -> UInt8? {
    guard let byte = peek() else { return nil }
    index += 1
    return byte
  }

  /// The next piece of the file; false at its end (or a read error, which ends the pass too).
  private mutating func refill() -> Bool {
    if captured != nil {
      captured?.append(contentsOf: buffer[captureStart..<count])
      captureStart = 0
    }
    base += count
    index = 0
    count = 0
    let got = buffer.withUnsafeMutableBytes {
      pread(descriptor, $0.baseAddress, $0.count, off_t(base))
    }
    guard got > 0 else { return false }
    count = got
    return true
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private mutating func skipSpaces() {
    while let byte = peek(), Self.isSpace(byte) { index += 1 }
  }

  /// The layout, nil when the pass leaves the document to the whole-document reader.
  mutating func layout() -> Layout? {
    // A UTF-8 byte order mark, which the whole-document reader skips too.
    if peek() == 0xEF, count >= 3, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
    skipSpaces()
    let start = offset
    var layout: Layout
    switch peek() {
    case UInt8(ascii: "["):
      guard let elements = array(depth: 1) else { return nil }
      layout = Layout(root: ImportValue(range: start..<offset, first: UInt8(ascii: "[")))
      layout.arrays[start] = elements
    case UInt8(ascii: "{"):
      index += 1
      layout = Layout(root: ImportValue(range: start..<start, first: UInt8(ascii: "{")))
      skipSpaces()
      guard peek() != UInt8(ascii: "}") else { return nil }
      while true {
        skipSpaces()
        guard peek() == UInt8(ascii: "\""), let name = key() else { return nil }
        skipSpaces()
        guard next() == UInt8(ascii: ":") else { return nil }
        skipSpaces()
        let valueStart = offset
        if name == "favorites" || name == "results", layout.members[name] == nil,
          peek() == UInt8(ascii: "[")
        {
          guard let elements = array(depth: 2) else { return nil }
          layout.members[name] = ImportValue(
            range: valueStart..<offset, first: UInt8(ascii: "["))
          layout.arrays[valueStart] = elements
        } else {
          guard let value = checkedValue(depth: 1) else { return nil }
          // The first member of a name counts, as the whole-document reader has it.
          if layout.members[name] == nil { layout.members[name] = value }
        }
        skipSpaces()
        switch next() {
        case UInt8(ascii: ","): continue
        case UInt8(ascii: "}"): break
        default: return nil
        }
        break
      }
      layout.root.range = start..<offset
      guard layout.members["format"] != nil || layout.members["results"] != nil else {
        return nil
      }
    default:
      return nil
    }
    skipSpaces()
    return peek() == nil ? layout : nil
  }

  /// A member's name, unescaped by the package's JSON reader.
  private mutating func key() -> String? {
    beginCapture()
    guard skipString() else { return nil }
    var parser = JSONParser(endCapture())
    guard let name = try? parser.readString(), (try? parser.finish()) != nil else { return nil }
    return name
  }

  /// The elements of the array that starts here, each checked; `depth` arrays and objects
  /// enclose the elements.
  private mutating func array(depth: Int) -> [ImportValue]? {
    guard next() == UInt8(ascii: "[") else { return nil }
    var elements: [ImportValue] = []
    skipSpaces()
    if peek() == UInt8(ascii: "]") {
      index += 1
      return elements
    }
    while true {
      skipSpaces()
      guard let element = checkedValue(depth: depth) else { return nil }
      elements.append(element)
      skipSpaces()
      switch next() {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "]"): return elements
      default: return nil
      }
    }
  }

  /// The value that starts here, its bytes gathered and checked whole by the JSON reader as
  /// it would check them in place (`depth` containers around it).
  private mutating func checkedValue(depth: Int) -> ImportValue? {
    let start = offset
    beginCapture()
    guard skipValue() else {
      captured = nil
      return nil
    }
    let bytes = endCapture()
    guard let first = bytes.first else { return nil }
    var parser = JSONParser(
      bytes, options: JSONParser.Options(maximumDepth: max(1, Self.maximumDepth - depth)))
    guard (try? parser.skipValue()) != nil, (try? parser.finish()) != nil else { return nil }
    return ImportValue(range: start..<offset, first: first)
  }

  private mutating func beginCapture() {
    captured = []
    captureStart = index
  }

  private mutating func endCapture() -> [UInt8] {
    var bytes = captured ?? []
    bytes.append(contentsOf: buffer[captureStart..<index])
    captured = nil
    return bytes
  }

  /// Steps over one value by its brackets and quotes (the JSON reader checks it after).
  private mutating func skipValue() -> Bool {
    guard let first = peek() else { return false }
    switch first {
    case UInt8(ascii: "\""):
      return skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var open = 0
      while let byte = peek() {
        switch byte {
        case UInt8(ascii: "\""):
          guard skipString() else { return false }
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          open += 1
          if open > Self.maximumDepth { return false }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          open -= 1
          if open == 0 {
            index += 1
            return true
          }
        default:
          break
        }
        index += 1
      }
      return false
    default:
      var length = 0
      while let byte = peek(), !Self.isSpace(byte), byte != UInt8(ascii: ","),
        byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]")
      {
        index += 1
        length += 1
      }
      return length > 0
    }
  }

  /// Steps over the string that starts here, honouring backslashes only.
  private mutating func skipString() -> Bool {
    guard next() == UInt8(ascii: "\"") else { return false }
    while let byte = next() {
      if byte == UInt8(ascii: "\\") {
        guard next() != nil else { return false }
      } else if byte == UInt8(ascii: "\"") {
        return true
      }
    }
    return false
  }
}
