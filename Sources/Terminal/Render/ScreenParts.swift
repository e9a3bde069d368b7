/// Pieces screens are made of: the notice line, labelled fields and the key hints.
enum ScreenParts {
  /// The notice, wrapped to the width.
  static func notice(_ notice: String?, width: Int, style: Style) -> [String] {
    guard let notice else { return [] }
    let clean = Sanitizer.sanitize(notice)
    return clean.isEmpty ? [] : TextWrapper.wrap(clean, toCells: width).map(style.green)
  }

  /// The keys, joined with ` · ` and wrapped between keys.
  static func hints(_ hints: [String], width: Int, style: Style) -> [String] {
    TextWrapper.join(hints.map(Sanitizer.sanitize), toCells: width).map(style.dim)
  }

  /// `Label:` padded to `labelWidth`, then `value` wrapped under itself; a nil label gives a
  /// continuation value under the previous one.
  static func field(
    _ label: String?, _ value: String, labelWidth: Int, width: Int, style: Style
  ) -> [String] {
    let indent = String(repeating: " ", count: labelWidth)
    let head = label.map { DisplayWidth.pad($0 + ":", toCells: labelWidth) } ?? indent
    let clean = Sanitizer.sanitize(value)
    let wrapped = TextWrapper.wrap(clean, toCells: width, firstPrefix: head, prefix: indent)
    guard let label, let first = wrapped.first else { return wrapped }
    return [style.bold(label + ":") + first.dropFirst(label.count + 1)] + wrapped.dropFirst()
  }

  /// Every value of a list field: the first after the label, the others under it.
  static func listField(
    _ singular: String, _ plural: String, _ values: [String], labelWidth: Int, width: Int,
    style: Style
  ) -> [String] {
    let clean = values.map(Sanitizer.sanitize).filter { !$0.isEmpty }
    var lines: [String] = []
    for (index, value) in clean.enumerated() {
      let label = index > 0 ? nil : (clean.count == 1 ? singular : plural)
      lines += field(label, value, labelWidth: labelWidth, width: width, style: style)
    }
    return lines
  }

  /// `Label: URL` on one line when it fits; else the label, then the URL alone on the next
  /// line, never broken, so it can still be copied or clicked whole.
  static func urlField(
    _ label: String, _ url: String, labelWidth: Int, width: Int, style: Style
  ) -> [String] {
    let clean = Sanitizer.sanitize(url).replacingOccurrences(of: " ", with: "%20")
    let head = DisplayWidth.pad(label + ":", toCells: labelWidth)
    if DisplayWidth.cells(head) + DisplayWidth.cells(clean) <= width {
      return [style.bold(label + ":") + head.dropFirst(label.count + 1) + style.cyan(clean)]
    }
    return [style.bold(label + ":"), style.cyan(clean)]
  }
}
