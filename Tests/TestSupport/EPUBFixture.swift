import Foundation

/// EPUB files shaped like Project Gutenberg's (`pg84-images-3.epub`): a ZIP whose first entry is
/// the uncompressed `mimetype`, then `META-INF/container.xml`, the OPF package with its
/// manifest and spine, an XHTML file per chapter and a cover image; every entry stored, so the
/// file's bytes are known to the test. A seed makes the chapters' words and the image's bytes,
/// so two books differ everywhere and the same seed gives the same file.
public enum EPUBFixture {
  /// An EPUB of `chapters` chapters of about `chapterBytes` each and an image of `imageBytes`.
  public static func make(
    id: Int, title: String, chapters: Int, chapterBytes: Int, imageBytes: Int, seed: UInt64
  ) -> Data {
    var random = seed
    func next() -> UInt64 {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return random >> 33
    }
    let words = ["the", "sea", "was", "calm", "and", "night", "fell", "upon", "ice", "letters"]
    var entries: [(String, Data)] = [("mimetype", Data("application/epub+zip".utf8))]
    entries.append(
      (
        "META-INF/container.xml",
        Data(
          """
          <?xml version="1.0" encoding="utf-8"?>
          <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
          </container>
          """.utf8)
      ))
    var manifest = ""
    var spine = ""
    var files: [(String, Data)] = []
    for chapter in 1...chapters {
      var text = ""
      while text.utf8.count < chapterBytes {
        text +=
          "<p>" + (0..<40).map { _ in words[Int(next() % 10)] }.joined(separator: " ") + ".</p>\n"
      }
      let name = "\(id)-h-\(chapter).htm.xhtml"
      manifest +=
        "<item id=\"c\(chapter)\" href=\"\(name)\" media-type=\"application/xhtml+xml\"/>\n"
      spine += "<itemref idref=\"c\(chapter)\"/>\n"
      files.append(
        (
          "OEBPS/\(name)",
          Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>\(title)</title></head>
            <body><section><h2>Chapter \(chapter)</h2>
            \(text)</section></body></html>
            """.utf8)
        ))
    }
    var image = Data(count: imageBytes)
    for index in 0..<imageBytes { image[index] = UInt8(truncatingIfNeeded: next()) }
    files.append(("OEBPS/images/cover.jpg", image))
    manifest += "<item id=\"cover\" href=\"images/cover.jpg\" media-type=\"image/jpeg\"/>\n"
    entries.append(
      (
        "OEBPS/content.opf",
        Data(
          """
          <?xml version="1.0" encoding="utf-8"?>
          <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
          <dc:identifier id="id">http://www.gutenberg.org/\(id)</dc:identifier>
          <dc:title>\(title)</dc:title><dc:language>en</dc:language></metadata>
          <manifest>
          \(manifest)</manifest>
          <spine>
          \(spine)</spine>
          </package>
          """.utf8)
      ))
    return zip(entries + files)
  }

  /// A ZIP archive of `entries`, each stored (method 0), with its CRC-32.
  static func zip(_ entries: [(String, Data)]) -> Data {
    var archive = Data()
    var directory = Data()
    func le16(_ value: Int, _ data: inout Data) {
      data.append(contentsOf: [UInt8(value & 0xff), UInt8((value >> 8) & 0xff)])
    }
    func le32(_ value: UInt32, _ data: inout Data) {
      for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8((value >> shift) & 0xff)) }
    }
    for (name, content) in entries {
      let offset = UInt32(archive.count)
      let crc = crc32(content)
      let nameBytes = Data(name.utf8)
      le32(0x0403_4b50, &archive)
      le16(20, &archive)
      le16(0, &archive)
      le16(0, &archive)
      le16(0, &archive)
      le16(0x21, &archive)
      le32(crc, &archive)
      le32(UInt32(content.count), &archive)
      le32(UInt32(content.count), &archive)
      le16(nameBytes.count, &archive)
      le16(0, &archive)
      archive.append(nameBytes)
      archive.append(content)
      le32(0x0201_4b50, &directory)
      le16(20, &directory)
      le16(20, &directory)
      le16(0, &directory)
      le16(0, &directory)
      le16(0, &directory)
      le16(0x21, &directory)
      le32(crc, &directory)
      le32(UInt32(content.count), &directory)
      le32(UInt32(content.count), &directory)
      le16(nameBytes.count, &directory)
      le16(0, &directory)
      le16(0, &directory)
      le16(0, &directory)
      le16(0, &directory)
      le32(0, &directory)
      le32(offset, &directory)
      directory.append(nameBytes)
    }
    let directoryOffset = UInt32(archive.count)
    archive.append(directory)
    le32(0x0605_4b50, &archive)
    le16(0, &archive)
    le16(0, &archive)
    le16(entries.count, &archive)
    le16(entries.count, &archive)
    le32(UInt32(directory.count), &archive)
    le32(directoryOffset, &archive)
    le16(0, &archive)
    return archive
  }

  /// The CRC-32 (IEEE) of `data`.
  static func crc32(_ data: Data) -> UInt32 {
    var table = [UInt32](repeating: 0, count: 256)
    for index in 0..<256 {
      var value = UInt32(index)
      for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
      table[index] = value
    }
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }
}
