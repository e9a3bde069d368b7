import Foundation

/// A ustar archive written byte by byte, for the feed tests that need entries libarchive's
/// writer would not make as asked (links, devices, `../` and absolute names) or a tar to
/// compress their own way (``Bzip2Writer``: small blocks, several streams).
public struct TarWriter {
  /// An entry's type, as ustar's type flag.
  public enum Kind: UInt8, Sendable {
    case file = 0x30  // "0"
    case hardLink = 0x31  // "1"
    case symbolicLink = 0x32  // "2"
    case characterDevice = 0x33  // "3"
    case blockDevice = 0x34  // "4"
    case directory = 0x35  // "5"
    case fifo = 0x36  // "6"
  }

  /// The archive so far (``finish()`` adds its end).
  public private(set) var bytes = Data()

  /// An empty archive.
  public init() {}

  /// Adds an entry named `path` (at most 100 bytes) holding `content` (files only), linking
  /// to `link` (links only).
  public mutating func add(
    _ path: String, _ content: Data = Data(), kind: Kind = .file, link: String = ""
  ) {
    addHeader(path, size: kind == .file ? content.count : 0, kind: kind, link: link)
    if kind == .file {
      bytes.append(content)
      bytes.append(contentsOf: [UInt8](repeating: 0, count: (512 - content.count % 512) % 512))
    }
  }

  /// Adds only the header of an entry of `size` bytes: its content (and the zeros that pad it
  /// to 512 bytes) must follow, written by the caller (a content too large to hold, compressed
  /// piece by piece).
  public mutating func addHeader(
    _ path: String, size: Int, kind: Kind = .file, link: String = ""
  ) {
    var header = [UInt8](repeating: 0, count: 512)
    func put(_ text: String, at offset: Int, width: Int) {
      for (index, byte) in text.utf8.prefix(width).enumerated() { header[offset + index] = byte }
    }
    func octal(_ value: Int, at offset: Int, width: Int) {
      let digits = String(value, radix: 8)
      put(
        String(repeating: "0", count: max(width - 1 - digits.count, 0)) + digits, at: offset,
        width: width - 1)
    }
    put(path, at: 0, width: 100)
    octal(kind == .directory ? 0o755 : 0o644, at: 100, width: 8)
    octal(0, at: 108, width: 8)
    octal(0, at: 116, width: 8)
    octal(size, at: 124, width: 12)
    octal(1_700_000_000, at: 136, width: 12)
    header[156] = kind.rawValue
    put(link, at: 157, width: 100)
    put("ustar", at: 257, width: 6)
    put("00", at: 263, width: 2)
    // The checksum is summed with its own field as blanks.
    for index in 148..<156 { header[index] = 0x20 }
    let sum = header.reduce(0) { $0 + Int($1) }
    octal(sum, at: 148, width: 7)
    header[155] = 0x20
    bytes.append(contentsOf: header)
  }

  /// The archive with its end (two zero blocks, padded to 10,240 bytes as tar does).
  public func finish() -> Data {
    var out = bytes
    out.append(contentsOf: [UInt8](repeating: 0, count: 1024))
    out.append(contentsOf: [UInt8](repeating: 0, count: (10_240 - out.count % 10_240) % 10_240))
    return out
  }
}
