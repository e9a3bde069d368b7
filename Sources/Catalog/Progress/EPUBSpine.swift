import CZlib
import Foundation

/// An EPUB's chapters in reading order (its OPF spine) and the size of each, read from the ZIP's
/// central directory and the package document: enough to name a place the way KOReader's
/// crengine names a chapter, `/body/DocFragment[N].0` (N from 1, one fragment per spine item, as
/// its table of contents does), so a KOReader that takes a place pushed from here goes to that
/// chapter rather than to the start of the book. Places inside a chapter are not computed.
public struct EPUBSpine: Sendable, Hashable {
  /// The uncompressed size of each spine item, in reading order.
  public let sizes: [Int]

  /// The spine of the EPUB at `path`; nil when it is not a ZIP with a readable package.
  public init?(path: String) {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped),
      let sizes = Self.read(data)
    else { return nil }
    self.sizes = sizes
  }

  /// A spine of these sizes.
  public init(sizes: [Int]) {
    self.sizes = sizes
  }

  /// KOReader's xpointer of the chapter holding `fraction` of the book (by bytes).
  public func xpointer(at fraction: Double) -> String {
    let total = sizes.reduce(0, +)
    guard total > 0 else { return "/body/DocFragment[1].0" }
    let target = Double(total) * (fraction.isFinite ? min(1, max(0, fraction)) : 0)
    var start = 0
    for (index, size) in sizes.enumerated() {
      if target < Double(start + size) { return "/body/DocFragment[\(index + 1)].0" }
      start += size
    }
    return "/body/DocFragment[\(sizes.count)].0"
  }

  /// One entry of the central directory.
  struct Entry {
    var method: Int
    var compressed: Int
    var size: Int
    var header: Int
  }

  static func read(_ data: Data) -> [Int]? {
    let bytes = [UInt8](data)
    func u16(_ at: Int) -> Int {
      at + 2 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : 0
    }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    guard bytes.count >= 22 else { return nil }
    var end = -1
    var at = bytes.count - 22
    while at >= max(0, bytes.count - 65_557) {
      if u32(at) == 0x0605_4b50 {
        end = at
        break
      }
      at -= 1
    }
    guard end >= 0 else { return nil }
    var entries: [String: Entry] = [:]
    var position = u32(end + 16)
    for _ in 0..<u16(end + 10) {
      guard u32(position) == 0x0201_4b50, position + 46 <= bytes.count else { return nil }
      let nameLength = u16(position + 28)
      guard position + 46 + nameLength <= bytes.count else { return nil }
      let name = String(
        decoding: bytes[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
      entries[name] = Entry(
        method: u16(position + 10), compressed: u32(position + 20), size: u32(position + 24),
        header: u32(position + 42))
      position += 46 + nameLength + u16(position + 30) + u16(position + 32)
    }
    func contents(_ name: String) -> String? {
      guard let entry = entries[name], u32(entry.header) == 0x0403_4b50,
        entry.size <= 16 * 1_048_576
      else { return nil }
      let start = entry.header + 30 + u16(entry.header + 26) + u16(entry.header + 28)
      guard start + entry.compressed <= bytes.count else { return nil }
      let raw = Array(bytes[start..<(start + entry.compressed)])
      switch entry.method {
      case 0: return String(decoding: raw, as: UTF8.self)
      case 8: return inflate(raw, size: entry.size).map { String(decoding: $0, as: UTF8.self) }
      default: return nil
      }
    }
    guard let container = contents("META-INF/container.xml"),
      let rootfile = attribute("full-path", in: container), let package = contents(rootfile)
    else { return nil }
    let folder =
      rootfile.contains("/") ? String(rootfile[..<rootfile.lastIndex(of: "/")!]) + "/" : ""
    var manifest: [String: String] = [:]
    for tag in tags("item", in: package) {
      if let id = attribute("id", in: tag), let href = attribute("href", in: tag) {
        manifest[id] = href
      }
    }
    let sizes = tags("itemref", in: package).compactMap { tag -> Int? in
      guard let idref = attribute("idref", in: tag), let href = manifest[idref] else { return nil }
      let path = (href.split(separator: "#").first.map(String.init) ?? href)
      let name = folder + (path.removingPercentEncoding ?? path)
      return entries[name]?.size
    }
    return sizes.isEmpty ? nil : sizes
  }

  /// The `<name ...>` tags of `text` (the opening tags only).
  static func tags(_ name: String, in text: String) -> [Substring] {
    var found: [Substring] = []
    var rest = text[...]
    while let open = rest.range(of: "<\(name)") {
      let after = rest[open.upperBound...]
      guard let first = after.first, first == " " || first == "\n" || first == "\t" || first == "/"
      else {
        rest = after
        continue
      }
      guard let close = after.firstIndex(of: ">") else { break }
      found.append(after[..<close])
      rest = after[close...]
    }
    return found
  }

  /// The value of attribute `name` in a tag's text (`name="value"` or `name='value'`).
  static func attribute(_ name: String, in tag: some StringProtocol) -> String? {
    for quote in ["\"", "'"] {
      let marker = " \(name)=\(quote)"
      let text =
        " "
        + tag.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
      guard let start = text.range(of: marker) else { continue }
      let value = text[start.upperBound...]
      guard let end = value.firstIndex(of: Character(quote)) else { continue }
      return String(value[..<end])
    }
    return nil
  }

  /// Raw deflate (a ZIP entry's method 8) of `raw`, expected to give `size` bytes.
  static func inflate(_ raw: [UInt8], size: Int) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return nil }
    defer { inflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: max(1, size))
    var input = raw
    let status = input.withUnsafeMutableBufferPointer { source in
      out.withUnsafeMutableBufferPointer { target in
        stream.next_in = source.baseAddress
        stream.avail_in = uInt(source.count)
        stream.next_out = target.baseAddress
        stream.avail_out = uInt(target.count)
        return CZlib.inflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { return nil }
    return Array(out.prefix(Int(stream.total_out)))
  }
}
