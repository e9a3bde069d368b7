/// What a book file must look like to be saved as the edition asked for: a mirror that answers
/// 200 with an HTML page (a login or "not found" page) or with bytes of another kind fails like
/// one that lacks the file (the next mirror is tried), instead of leaving that as the book.
///
/// The checks are cheap and certain, never a guess about a good file: an HTML page where
/// something else was asked for (by its `Content-Type`, or by its first bytes), and bytes that
/// no text is made of (NUL) in a plain text or HTML file. An empty file stays valid.
public enum ExpectedContent: Sendable, Hashable {
  /// Plain text (`text/plain`): no NUL byte, not an HTML document.
  case text
  /// HTML (`text/html`): no NUL byte.
  case html
  /// Any other edition (EPUB, Kindle, ...): not an HTML document.
  case binary
  /// No check at all.
  case any

  /// How many first bytes ``problem(start:)`` looks at.
  public static let sniffLength = 64 << 10

  /// The check for a file of `mimeType` (a book's `formats` key).
  public init(mimeType: String) {
    let type = mimeType.lowercased()
    if type.hasPrefix("text/plain") {
      self = .text
    } else if type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") {
      self = .html
    } else {
      self = .binary
    }
  }

  /// Why an answer whose `Content-Type` is `contentType` is not the file, nil when it may be.
  public func problem(contentType: String?) -> String? {
    guard self == .text || self == .binary, let contentType,
      contentType.lowercased().trimmingPrefixSpaces.hasPrefix("text/html")
    else { return nil }
    return "an HTML page (Content-Type: text/html)"
  }

  /// Why a file beginning with `start` (its first ``sniffLength`` bytes or all of it) is not
  /// the file, nil when it may be.
  public func problem(start: some Collection<UInt8>) -> String? {
    switch self {
    case .any: return nil
    case .text, .html:
      if start.contains(0) { return "binary data (NUL bytes), not text" }
      if self == .text, Self.isHTMLDocument(start) { return "an HTML page" }
      return nil
    case .binary:
      return Self.isHTMLDocument(start) ? "an HTML page" : nil
    }
  }

  /// Whether `bytes` begin, after a byte order mark and blanks, with `<!DOCTYPE html` or
  /// `<html` (any case): a web page, not a book file.
  static func isHTMLDocument(_ bytes: some Collection<UInt8>) -> Bool {
    var rest = bytes[...]
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    let head = rest.prefix(14).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    return head.starts(with: Array("<!doctype html".utf8)) || head.starts(with: Array("<html".utf8))
  }
}

extension String {
  /// The text without its leading spaces.
  fileprivate var trimmingPrefixSpaces: Substring { drop { $0 == " " } }
}
