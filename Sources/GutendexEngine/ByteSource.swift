/// Reads what ``ByteSink`` wrote, throwing on truncated or malformed input.
struct ByteSource {
  let bytes: [UInt8]
  var position = 0
  var end: Int { bytes.count }

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { position >= end }

  mutating func varint() throws(EngineError) -> Int {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < end, shift < 64 else { throw .badSnapshot("bad varint at \(position)") }
      let byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return Int(Int64(bitPattern: value)) }
      shift += 7
    }
  }

  /// A count or index that must lie in `0..<limit`.
  mutating func index(below limit: Int) throws(EngineError) -> Int {
    let value = try varint()
    guard value >= 0, value < limit else { throw .badSnapshot("index \(value) out of range") }
    return value
  }

  mutating func optionalSigned() throws(EngineError) -> Int? {
    let code = try varint()
    guard code != 0 else { return nil }
    // Wrapping: a damaged record may hold any 64-bit code.
    let zigzag = UInt(bitPattern: code) &- 1
    return Int(bitPattern: zigzag >> 1) ^ -Int(bitPattern: zigzag & 1)
  }

  /// The range of a length-prefixed block, skipped over.
  mutating func block() throws(EngineError) -> Range<Int> {
    let length = try varint()
    guard length >= 0, length <= end - position else { throw .badSnapshot("block too long") }
    defer { position += length }
    return position..<(position + length)
  }
}
