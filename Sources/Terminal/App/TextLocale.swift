import Foundation

/// The character set of the C library's multibyte functions, which libedit uses to read keys
/// and draw the typed line.
///
/// A process starts in the C locale, where those functions know ASCII only: a line editor left
/// there drops `é` from `misérables` and draws `中` as `\U+4E2D`. The program reads and writes
/// UTF-8 whatever the locale says, so only the character type is set: from the environment when
/// that names UTF-8, else a UTF-8 locale the system has (`C`/`POSIX` users type UTF-8 too).
enum TextLocale {
  /// Sets `LC_CTYPE` to a UTF-8 locale (once; later calls change nothing); true when one is set.
  @discardableResult
  static func useUTF8() -> Bool {
    chosen
  }

  private static let chosen: Bool = {
    if setlocale(LC_CTYPE, "") != nil, isUTF8 { return true }
    for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"] {
      if setlocale(LC_CTYPE, name) != nil, isUTF8 { return true }
    }
    return false
  }()

  /// Whether the current character type is UTF-8.
  static var isUTF8: Bool {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).lowercased()
    return name == "utf-8" || name == "utf8"
  }
}
