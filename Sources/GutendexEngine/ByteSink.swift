/// Little-endian varints and length-prefixed bytes, for the snapshot format.
struct ByteSink {
  var bytes: [UInt8] = []

  mutating func varint(_ value: Int) {
    var rest = UInt64(bitPattern: Int64(value))
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// An optional signed number: 0 for nil, else the zigzag code plus one.
  mutating func optionalSigned(_ value: Int?) {
    guard let value else { return varint(0) }
    // Bit patterns throughout: a value of 2^62 or more must code, not trap (the zigzag of
    // Int.min is UInt.max, whose + 1 wraps to 0 and would read back as nil, so the index
    // writer never stores such a year: see ``IndexLimits``).
    let zigzag = UInt(bitPattern: value << 1) ^ UInt(bitPattern: value >> 63)
    varint(Int(bitPattern: zigzag &+ 1))
  }

  mutating func block(_ data: [UInt8]) {
    varint(data.count)
    bytes.append(contentsOf: data)
  }
}
