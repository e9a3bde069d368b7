/// Telling UTF-8 from Latin-1: older Project Gutenberg files (`-8.txt`) are ISO-8859-1 or
/// Windows-1252, whose accented letters are not UTF-8 and would show as U+FFFD. Such a text is
/// decoded as Windows-1252 (a superset of ISO-8859-1's printable characters).
extension TextBytes {
  /// How the bytes are decoded.
  enum Encoding: Sendable, Equatable {
    case utf8
    /// Windows-1252: one byte, one character.
    case windows1252
  }

  /// The bytes looked at to choose the encoding.
  static let encodingSample = 4 << 20

  /// `.windows1252` when the start of `bytes` is not valid UTF-8 but reads as Latin-1 text:
  /// more bytes that break UTF-8 than multi-byte UTF-8 characters, and none of the five byte
  /// values Windows-1252 leaves undefined. Anything else (valid UTF-8, binary) is `.utf8`, so
  /// the refusal of files that are not text is unchanged.
  static func encoding(of bytes: UnsafeBufferPointer<UInt8>) -> Encoding {
    var invalid = 0
    var multiByte = 0
    var index = 0
    let end = min(bytes.count, encodingSample)
    guard let base = bytes.baseAddress else { return .utf8 }
    while index < end {
      // Eight ASCII bytes at a time: most of a text, whose scan this is most of.
      while index + 8 <= end,
        UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
      }
      guard index < end else { break }
      let byte = bytes[index]
      if byte < 0x80 {
        index += 1
        continue
      }
      if undefinedInWindows1252.contains(byte) { return .utf8 }
      guard let sequence = utf8Sequence(at: index, in: base, end: end) else { break }
      if sequence.valid {
        multiByte += 1
        index += sequence.length
      } else {
        invalid += 1
        index += 1
      }
    }
    return invalid > 0 && invalid > multiByte ? .windows1252 : .utf8
  }

  /// The UTF-8 sequence whose lead byte (past ASCII) is at `index`, bytes before `end`: its
  /// length and whether it is whole and well formed; nil when the sample's end cuts it in two
  /// (the file goes on), which is not evidence of anything: counted invalid, a UTF-8 text whose
  /// only accent sat there read as Latin-1.
  static func utf8Sequence(at index: Int, in base: UnsafePointer<UInt8>, end: Int)
    -> (length: Int, valid: Bool)?
  {
    let length = sequenceLength(base[index])
    if length > 1, index + length > end, end == encodingSample { return nil }
    guard length > 1, index + length <= end else { return (length, false) }
    for offset in 1..<length where base[index + offset] & 0xC0 != 0x80 {
      return (length, false)
    }
    return (length, true)
  }

  /// The length of the UTF-8 sequence `lead` starts (0 for a byte that cannot start one).
  private static func sequenceLength(_ lead: UInt8) -> Int {
    switch lead {
    case 0xC2...0xDF: 2
    case 0xE0...0xEF: 3
    case 0xF0...0xF4: 4
    default: 0
    }
  }

  /// The byte values Windows-1252 does not define: a file with them is not Latin-1 text.
  static let undefinedInWindows1252: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]

  /// Each byte's character in Windows-1252 (undefined bytes as U+FFFD).
  static let windows1252: [Unicode.Scalar] = {
    let high: [UInt32] = [
      0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
      0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
      0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
      0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]
    return (0..<256).map { value in
      let code = (0x80..<0xA0).contains(value) ? high[value - 0x80] : UInt32(value)
      return Unicode.Scalar(code) ?? "\u{FFFD}"
    }
  }()

  /// `buffer` decoded as Windows-1252.
  static func decodeWindows1252(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
    var scalars = String.UnicodeScalarView()
    for byte in buffer { scalars.append(windows1252[Int(byte)]) }
    return String(scalars)
  }

  /// How many bytes of the text `text` (decoded from these bytes) came from.
  func byteCount(of text: some StringProtocol) -> Int {
    encoding == .windows1252 ? text.unicodeScalars.count : text.utf8.count
  }
}
