/// Telling a text from a file that is not one (an image, an archive, a mislabelled download).
extension BookText {
  /// Why the bytes at the start of a file show it is not text, or nil when it may be text:
  /// a NUL byte, or more than one byte in ten that is not part of valid UTF-8 or is a control
  /// character no text uses (Latin-1 texts, with a few stray accented bytes, still open).
  /// A Latin-1 text (`windows1252`) has no invalid bytes: only its control characters count.
  static func notTextReason(
    _ start: UnsafeBufferPointer<UInt8>, encoding: TextBytes.Encoding = .utf8
  ) -> String? {
    guard !start.isEmpty else { return nil }
    if let position = start.firstIndex(of: 0) {
      return "it has a NUL byte at byte \(position + 1)"
    }
    if encoding == .windows1252 {
      let bad = start.filter { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains($0) }.count
      guard bad * 10 > start.count else { return nil }
      return "\(bad * 100 / start.count)% of its first \(start.count) bytes are control characters"
    }
    var bad = 0
    var iterator = start.makeIterator()
    var decoder = UTF8()
    var scalars = 0
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        scalars += 1
        // Tab, line ends, form feed and escape (stripped later) occur in real texts.
        if scalar.value < 0x20, ![0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains(scalar.value) {
          bad += 1
        }
      case .error:
        scalars += 1
        bad += 1
      case .emptyInput:
        break decoding
      }
    }
    guard bad * 10 > scalars else { return nil }
    return "\(bad * 100 / scalars)% of its first \(start.count) bytes are not UTF-8 text"
  }
}
