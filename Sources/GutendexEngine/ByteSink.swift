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
    varint(Int(bitPattern: UInt((value << 1) ^ (value >> 63))) + 1)
  }

  mutating func block(_ data: [UInt8]) {
    varint(data.count)
    bytes.append(contentsOf: data)
  }
}
