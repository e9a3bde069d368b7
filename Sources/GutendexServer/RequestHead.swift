import Foundation

/// The request line and headers of one HTTP/1.x request, parsed strictly.
struct RequestHead: Sendable, Hashable {
  var method: String
  /// The request target as sent (`/books/?page=2`).
  var target: String
  /// `HTTP/1.0` or `HTTP/1.1`.
  var version: String
  var fields: [HeaderField]

  /// Why a request head was refused.
  enum Failure: Error, Sendable, Hashable {
    /// Larger than the server's limit: answered with 431.
    case tooLarge
    /// Not HTTP/1.x: answered with 400.
    case malformed(String)
  }

  /// The first value of a header, by case-insensitive name.
  func header(_ name: String) -> String? {
    fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// All headers, names lower-cased, repeated ones joined with ", ".
  var headerDictionary: [String: String] {
    var result: [String: String] = [:]
    for field in fields {
      let name = field.name.lowercased()
      if let existing = result[name] {
        result[name] = existing + ", " + field.value
      } else {
        result[name] = field.value
      }
    }
    return result
  }

  /// Whether the client wants the connection kept open after this exchange.
  var keepAlive: Bool {
    let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    if tokens.contains("close") { return false }
    return version == "HTTP/1.1" || tokens.contains("keep-alive")
  }

  /// The declared request body length; a body is read and thrown away.
  func contentLength() throws(Failure) -> Int {
    let values = fields.filter { $0.name.caseInsensitiveCompare("content-length") == .orderedSame }
    guard let first = values.first else { return 0 }
    guard let length = Int(first.value.trimmingCharacters(in: .whitespaces)), length >= 0,
      values.allSatisfy({ $0.value.trimmingCharacters(in: .whitespaces) == String(length) })
    else {
      throw .malformed("bad Content-Length")
    }
    return length
  }

  /// Where the head ends in `buffer`: the index just past the empty line, or nil if not yet.
  ///
  /// Accepts CRLF and, leniently, bare LF line ends (RFC 9112 §2.2).
  static func endOfHead(in buffer: [UInt8], from start: Int = 0) -> Int? {
    var index = max(start, 0)
    while index < buffer.count {
      if buffer[index] == UInt8(ascii: "\n") {
        let next = index + 1
        if next < buffer.count, buffer[next] == UInt8(ascii: "\n") { return next + 1 }
        if next + 1 < buffer.count, buffer[next] == UInt8(ascii: "\r"),
          buffer[next + 1] == UInt8(ascii: "\n")
        {
          return next + 2
        }
      }
      index += 1
    }
    return nil
  }

  /// Parses a complete head (terminating empty line included or not).
  static func parse(_ bytes: ArraySlice<UInt8>) throws(Failure) -> RequestHead {
    // Split on bytes: as Characters, "\r\n" is one grapheme and would never match "\n".
    var lines: [Substring] = []
    for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      let line = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
      guard let text = String(validating: line, as: UTF8.self) else {
        throw .malformed("request head is not UTF-8")
      }
      lines.append(Substring(text))
    }
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    guard let requestLine = lines.first else { throw .malformed("empty request") }
    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw .malformed("bad request line") }
    let method = String(parts[0])
    let target = String(parts[1])
    let version = String(parts[2])
    guard !method.isEmpty, method.allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == "-") })
    else {
      throw .malformed("bad method")
    }
    guard target.hasPrefix("/") || target.lowercased().hasPrefix("http://"),
      target.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\u{7F}" && $0 >= " " })
    else {
      throw .malformed("bad request target")
    }
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      throw .malformed("unsupported HTTP version")
    }
    var fields: [HeaderField] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":"), line.first != " ", line.first != "\t" else {
        throw .malformed("bad header line")
      }
      let name = String(line[..<colon])
      guard !name.isEmpty, name.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
        throw .malformed("bad header name")
      }
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      fields.append(HeaderField(name: name, value: value))
    }
    return RequestHead(method: method, target: target, version: version, fields: fields)
  }
}
