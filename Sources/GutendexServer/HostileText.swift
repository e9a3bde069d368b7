import Foundation

/// The text ``FaultPlan/hostileText`` plants in book titles and author names.
///
/// It mixes what a careless terminal would obey: an OSC title change ending in BEL, a clear
/// screen, CSI colours (7-bit and the 8-bit C1 CSI U+009B) and bidi overrides/isolates
/// (U+202E, U+2066). The JSON stays valid; sanitising is the terminal layer's job.
public enum HostileText {
  /// Put before each title.
  public static let titlePrefix = "Evil\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31m"
  /// Put after each title.
  public static let titleSuffix = "\u{1B}[0m\u{9B}1;31m\u{202E}desrever\u{2066}isolated"
  /// Put before the first author's name.
  public static let namePrefix = "\u{202E}\u{1B}[5m"
  /// Put after the first author's name.
  public static let nameSuffix = "\u{9B}0m\u{2069}"

  /// A title as the hostile server sends it.
  public static func title(_ original: String) -> String {
    titlePrefix + original + titleSuffix
  }

  /// A first author's name as the hostile server sends it.
  public static func name(_ original: String) -> String {
    namePrefix + original + nameSuffix
  }

  /// Rewrites a page (`results`) or a single book; nil when the body is not such JSON.
  static func rewrite(_ body: Data) -> Data? {
    guard var object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
      return nil
    }
    if let results = object["results"] as? [Any] {
      object["results"] = results.map { book in
        (book as? [String: Any]).map(rewriteBook) ?? book
      }
    } else if object["title"] != nil {
      object = rewriteBook(object)
    } else {
      return nil
    }
    return try? JSONSerialization.data(withJSONObject: object)
  }

  private static func rewriteBook(_ book: [String: Any]) -> [String: Any] {
    var book = book
    if let title = book["title"] as? String {
      book["title"] = Self.title(title)
    }
    if var authors = book["authors"] as? [Any], var first = authors.first as? [String: Any],
      let name = first["name"] as? String
    {
      first["name"] = Self.name(name)
      authors[0] = first
      book["authors"] = authors
    }
    return book
  }
}
