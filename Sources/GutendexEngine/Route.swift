/// The server's URL patterns (DRF DefaultRouter with format suffixes, plus the home page).
enum Route: Sendable {
  case home
  /// `/books/` or `/books.<format>`.
  case list(format: String?)
  /// `/books/<id>/` or `/books/<id>.<format>`; the id is still text (`[^/.]+`).
  case detail(id: String, format: String?)

  /// Resolves a percent-decoded path; nil when no pattern matches (a 404 page).
  init?(path: String) {
    if path == "/" {
      self = .home
      return
    }
    guard path.hasPrefix("/books") else { return nil }
    var rest = Substring(path.dropFirst("/books".count))
    if rest == "/" {
      self = .list(format: nil)
      return
    }
    if rest.first == "." {
      guard let format = Self.format(rest.dropFirst()) else { return nil }
      self = .list(format: format)
      return
    }
    guard rest.first == "/" else { return nil }
    rest = rest.dropFirst()
    let id = rest.prefix { $0 != "/" && $0 != "." }
    guard !id.isEmpty else { return nil }
    let tail = rest.dropFirst(id.count)
    if tail == "/" {
      self = .detail(id: String(id), format: nil)
    } else if tail.first == ".", let format = Self.format(tail.dropFirst()) {
      self = .detail(id: String(id), format: format)
    } else {
      return nil
    }
  }

  /// `(?P<format>[a-z0-9]+)/?$`
  private static func format(_ text: Substring) -> String? {
    let body = text.hasSuffix("/") ? text.dropLast() : text
    guard !body.isEmpty,
      body.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) })
    else { return nil }
    return String(body)
  }

  var format: String? {
    switch self {
    case .home: nil
    case .list(let format), .detail(_, let format): format
    }
  }

  /// The `Allow` header DRF sends for the view.
  var allow: String {
    switch self {
    case .home: "GET, HEAD, OPTIONS"
    case .list: "GET, POST, HEAD, OPTIONS"
    case .detail: "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"
    }
  }
}
