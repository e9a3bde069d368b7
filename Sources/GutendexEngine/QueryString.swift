/// A request's query as Django parses it and as DRF rebuilds it for `next`/`previous` links.
struct QueryString: Sendable {
  /// Every `key=value` pair in request order, decoded (`+` is a space, `%XX` bytes are UTF-8).
  let pairs: [(key: String, value: String)]

  /// Parses like Python's `parse_qsl(query, keep_blank_values=True)`: fields split on `&`,
  /// empty fields skipped, a field without `=` has an empty value.
  init(_ raw: String?) {
    var pairs: [(key: String, value: String)] = []
    for field in (raw ?? "").split(separator: "&", omittingEmptySubsequences: true) {
      let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let key = Self.unquotePlus(parts[0])
      let value = parts.count > 1 ? Self.unquotePlus(parts[1]) : ""
      pairs.append((key, value))
    }
    self.pairs = pairs
  }

  /// Decoded pairs as they are (a typed query's parameters: nothing to parse).
  init(pairs: [(key: String, value: String)]) {
    self.pairs = pairs
  }

  /// The last value given for `key` (Django's `QueryDict.get`), nil when absent.
  func value(_ key: String) -> String? {
    pairs.last { $0.key == key }?.value
  }

  /// The query DRF puts in a link: every parameter, keys sorted by code point, values in
  /// request order, `page` set to `page` (or removed when nil), encoded with `quote_plus`.
  func linkQuery(page: Int?) -> String {
    var order: [String] = []
    var values: [String: [String]] = [:]
    for (key, value) in pairs {
      if values[key] == nil { order.append(key) }
      values[key, default: []].append(value)
    }
    if let page {
      if values["page"] == nil { order.append("page") }
      values["page"] = [String(page)]
    } else {
      order.removeAll { $0 == "page" }
    }
    order.sort {
      Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes(
        $1.unicodeScalars.map(\.value))
    }
    var parts: [String] = []
    for key in order {
      for value in values[key] ?? [] {
        parts.append(Self.quotePlus(key) + "=" + Self.quotePlus(value))
      }
    }
    return parts.joined(separator: "&")
  }

  /// Python's `unquote_plus`: `+` to space, valid `%XX` to bytes, invalid UTF-8 replaced.
  static func unquotePlus(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    let utf8 = Array(text.utf8)
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      if byte == UInt8(ascii: "+") {
        bytes.append(0x20)
      } else if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
        let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 2
      } else {
        bytes.append(byte)
      }
      index += 1
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }

  /// Python's `quote_plus(text, safe='')`: letters, digits and `_.-~` kept, space to `+`,
  /// every other UTF-8 byte as upper-case `%XX`.
  static func quotePlus(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."),
        UInt8(ascii: "-"), UInt8(ascii: "~"):
        out.append(byte)
      case 0x20:
        out.append(UInt8(ascii: "+"))
      default:
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
