/// Python's `int(str)`, which the server applies to `page`, `ids`, years and detail ids.
enum PythonInt {
  /// Parses like `int(text)`: surrounding whitespace, an optional sign, decimal digits of any
  /// script with single underscores between them; nil when Python would raise `ValueError`.
  /// Values beyond `Int` clamp to `Int.min`/`Int.max` (no book or year is that large).
  static func parse(_ text: String) -> Int? {
    var scalars = Substring(text).unicodeScalars[...]
    while let first = scalars.first, isWhitespace(first) { scalars.removeFirst() }
    while let last = scalars.last, isWhitespace(last) { scalars.removeLast() }
    var negative = false
    if let sign = scalars.first, sign == "+" || sign == "-" {
      negative = sign == "-"
      scalars.removeFirst()
    }
    guard !scalars.isEmpty else { return nil }
    var value = 0
    var overflow = false
    var previousWasDigit = false
    for scalar in scalars {
      if scalar == "_" {
        guard previousWasDigit else { return nil }
        previousWasDigit = false
        continue
      }
      guard scalar.properties.numericType == .decimal,
        let numeric = scalar.properties.numericValue
      else { return nil }
      previousWasDigit = true
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int(numeric))
      if overflow1 || overflow2 { overflow = true } else { value = sum }
    }
    guard previousWasDigit else { return nil }
    if overflow { return negative ? Int.min : Int.max }
    return negative ? -value : value
  }

  /// Python's `str.strip()` whitespace: Unicode White_Space plus the ASCII separators 0x1C-0x1F.
  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    (0x1C...0x1F).contains(scalar.value) || scalar.properties.isWhitespace
  }
}
