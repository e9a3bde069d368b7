import Foundation

/// One `Range: bytes=first-last` request, resolved against a file's size.
struct ByteRange: Sendable, Hashable {
  /// The first byte sent.
  var first: Int
  /// The last byte sent (inclusive).
  var last: Int

  var count: Int { last - first + 1 }

  /// What a `Range` header asks of a file of `size` bytes.
  enum Outcome: Sendable, Hashable {
    /// No usable single range (absent, malformed, several ranges): send the whole file.
    case whole
    /// Send these bytes with 206.
    case partial(ByteRange)
    /// The range starts past the end: 416.
    case unsatisfiable
  }

  /// Parses `bytes=N-`, `bytes=N-M` and `bytes=-N` (RFC 9110 §14.1.2); anything else is ignored,
  /// as a server may do, and answered with the whole file.
  static func resolve(_ header: String?, size: Int) -> Outcome {
    guard let header else { return .whole }
    let text = header.trimmingCharacters(in: .whitespaces)
    guard text.lowercased().hasPrefix("bytes=") else { return .whole }
    let spec = text.dropFirst("bytes=".count)
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
    let start = spec[..<dash].trimmingCharacters(in: .whitespaces)
    let end = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
    if start.isEmpty {
      guard let suffix = Int(end), suffix > 0 else { return .whole }
      guard size > 0 else { return .unsatisfiable }
      return .partial(ByteRange(first: max(0, size - suffix), last: size - 1))
    }
    guard let first = Int(start), first >= 0 else { return .whole }
    var last = size - 1
    if !end.isEmpty {
      guard let value = Int(end), value >= first else { return .whole }
      last = min(value, size - 1)
    }
    guard first < size else { return .unsatisfiable }
    return .partial(ByteRange(first: first, last: last))
  }
}
