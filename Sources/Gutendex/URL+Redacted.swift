import Foundation

extension URL {
  /// The URL as it may be printed or stored: a password (or a user name given alone, which
  /// is often a token) is replaced by `***`, so `--mirror https://me:secret@host/pg` shows as
  /// `https://me:***@host/pg`. Credentials never reach an error line, a note, `--verbose`, a
  /// state file or the library; a request still uses them (and `~/.netrc`).
  public var redacted: String {
    guard user != nil || password != nil,
      var parts = URLComponents(url: self, resolvingAgainstBaseURL: true)
    else { return absoluteString }
    if parts.percentEncodedPassword != nil {
      parts.percentEncodedPassword = "***"
    } else {
      parts.percentEncodedUser = "***"
    }
    return parts.string ?? "\(scheme ?? "http")://\(host ?? "")"
  }

  /// The URL without its user information at all: what a command printed for a person to run
  /// again carries (the credentials then come from `~/.netrc`).
  public var withoutUserInfo: URL {
    guard user != nil || password != nil,
      var parts = URLComponents(url: self, resolvingAgainstBaseURL: true)
    else { return self }
    parts.percentEncodedUser = nil
    parts.percentEncodedPassword = nil
    return parts.url ?? self
  }

  /// `text` redacted as ``redacted`` does when it is a URL with user information (a
  /// `Location` header, a saved link); as it is otherwise.
  public static func redacting(_ text: String) -> String {
    guard text.contains("@"), let url = URL(string: text), url.user != nil || url.password != nil
    else { return text }
    return url.redacted
  }
}
