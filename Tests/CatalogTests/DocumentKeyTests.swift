import Catalog
import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// The document key is the one KOReader computes for the same file (its partial MD5, binary
/// mode, and the MD5 of the file name), checked against Python's hashlib over the byte ranges
/// KOReader's `util.partialMD5` reads, on EPUBs shaped like Project Gutenberg's.
@Suite(.ownThread)
struct DocumentKeyTests {
  @Test func md5MatchesRFC1321sTestSuite() {
    let suite = [
      ("", "d41d8cd98f00b204e9800998ecf8427e"), ("a", "0cc175b9c0f1b6a831c399e269772661"),
      ("abc", "900150983cd24fb0d6963f7d28e17f72"),
      ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
      ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
      (
        "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
        "57edf4a22be3c955ac49da2e2107b67a"
      ),
    ]
    for (text, digest) in suite {
      #expect(MD5.hex(text) == digest, "MD5(\"\(text)\")")
    }
    var pieces = MD5()
    for piece in ["message", " ", "digest"] { pieces.update(Array(piece.utf8)) }
    #expect(pieces.finish() == "f96b697d7cb7938d525a2f31aaf161d0", "fed in pieces")
  }

  @Test func theSampleOffsetsAreKOReaders() {
    // LuaJIT's bit.lshift(1024, 2*i) for i = -1...10 (a shift of -2 is taken as 30: 0).
    #expect(
      DocumentKey.sampleOffsets == [
        0, 1024, 4096, 16384, 65536, 262_144, 1_048_576, 4_194_304, 16_777_216, 67_108_864,
        268_435_456, 1_073_741_824,
      ])
  }

  /// KOReader's sampling as Python does it, written from its description, not from the code
  /// under test: MD5 of 1,024 bytes at each offset until one lies past the end.
  static let oracle = """
    import hashlib, sys
    data = open(sys.argv[1], 'rb').read()
    digest = hashlib.md5()
    for offset in [0] + [1024 << (2 * i) for i in range(0, 11)]:
        sample = data[offset:offset + 1024]
        if not sample:
            break
        digest.update(sample)
    print(digest.hexdigest())
    print(hashlib.md5(sys.argv[2].encode()).hexdigest())
    """

  @Test(arguments: [
    (84, "Frankenstein", 12, 90_000, 400_000, UInt64(7)),
    (1342, "Pride and Prejudice", 40, 110_000, 800_000, UInt64(11)),
  ])
  func theKeyOfAnEPUBIsKOReaders(
    id: Int, title: String, chapters: Int, chapterBytes: Int, imageBytes: Int, seed: UInt64
  ) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "document-key-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let epub = EPUBFixture.make(
      id: id, title: title, chapters: chapters, chapterBytes: chapterBytes,
      imageBytes: imageBytes, seed: seed)
    let name = "pg\(id)-images-3.epub"
    let file = directory.appendingPathComponent(name)
    try epub.write(to: file)
    // Real-shaped: a ZIP Python's zipfile reads whole, `mimetype` first, past several samples.
    try await SystemTool.run("python3", ["-m", "zipfile", "-t", file.path])
    #expect(epub.count > 1_048_576, "the 1 MiB sample is inside the file")
    let python = try await SystemTool.run("python3", ["-c", Self.oracle, file.path, name])
    let expected = String(decoding: python.stdout, as: UTF8.self).split(separator: "\n")
      .map(String.init)
    try #require(expected.count == 2, "\(expected)")
    #expect(DocumentKey.binary(path: file.path) == expected[0])
    #expect(DocumentKey.fileName(name) == expected[1])
    #expect(DocumentKey.fileName("/mnt/onboard/Books/" + name) == expected[1], "base name only")
  }

  @Test func twoBooksAndAShortFileHaveKeysOfTheirOwn() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "document-key-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let short = directory.appendingPathComponent("short")
    // 1,500 bytes: the first sample whole, the second cut short, then the end.
    let bytes = Data((0..<1_500).map { UInt8($0 % 251) })
    try bytes.write(to: short)
    var expected = MD5()
    expected.update(Array(bytes))
    #expect(DocumentKey.binary(path: short.path) == expected.finish())
    #expect(DocumentKey.binary(path: directory.path) == nil, "a directory has no key")
    #expect(DocumentKey.binary(path: directory.appendingPathComponent("none").path) == nil)
  }

  @Test func gutenbergsFileNamesComeFromItsLinks() throws {
    let cases = [
      ("https://www.gutenberg.org/ebooks/84.epub3.images", "pg84-images-3.epub"),
      ("https://www.gutenberg.org/ebooks/84.epub.noimages", "pg84.epub"),
      ("https://www.gutenberg.org/ebooks/84.kf8.images", "pg84-images-kf8.mobi"),
      ("https://mirror.example/pg/cache/epub/84/pg84-images-3.epub", "pg84-images-3.epub"),
    ]
    for (link, name) in cases {
      let url = try #require(URL(string: link))
      #expect(DocumentKey.gutenbergFileName(id: 84, url: url) == name, "\(link)")
    }
    let other = try #require(URL(string: "https://example.org/download?id=84"))
    #expect(DocumentKey.gutenbergFileName(id: 84, url: other) == nil)
  }
}
