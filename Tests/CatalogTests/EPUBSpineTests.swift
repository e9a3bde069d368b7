import Catalog
import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// The chapter of a place, as KOReader names it (`/body/DocFragment[N].0`), from an EPUB's spine
/// and the sizes of its chapters: checked on a Project Gutenberg-shaped EPUB compressed by
/// Python's zipfile (deflate, as PG's files are), against the sizes zipfile reports.
@Suite(.ownThread)
struct EPUBSpineTests {
  static let deflate = """
    import sys, zipfile
    source = zipfile.ZipFile(sys.argv[1])
    with zipfile.ZipFile(sys.argv[2], 'w') as target:
        for info in source.infolist():
            kind = zipfile.ZIP_STORED if info.filename == 'mimetype' else zipfile.ZIP_DEFLATED
            target.writestr(info.filename, source.read(info.filename), compress_type=kind)
    for info in zipfile.ZipFile(sys.argv[2]).infolist():
        if info.filename.endswith('.xhtml'):
            print(info.file_size)
    """

  @Test func theSpineOfADeflatedEPUBGivesEachChapterItsFragment() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "epub-spine-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let stored = directory.appendingPathComponent("stored.epub")
    let deflated = directory.appendingPathComponent("pg84-images-3.epub")
    try EPUBFixture.make(
      id: 84, title: "Frankenstein", chapters: 12, chapterBytes: 20_000, imageBytes: 50_000,
      seed: 2
    ).write(to: stored)
    let python = try await SystemTool.run(
      "python3", ["-c", Self.deflate, stored.path, deflated.path])
    let sizes = String(decoding: python.stdout, as: UTF8.self).split(separator: "\n")
      .compactMap { Int($0) }
    try #require(sizes.count == 12, "\(sizes)")
    let attributes = try FileManager.default.attributesOfItem(atPath: deflated.path)
    #expect(try #require(attributes[.size] as? Int) < sizes.reduce(0, +), "it is compressed")

    let spine = try #require(EPUBSpine(path: deflated.path))
    #expect(spine.sizes == sizes)
    #expect(spine.xpointer(at: 0) == "/body/DocFragment[1].0")
    #expect(spine.xpointer(at: 1) == "/body/DocFragment[12].0")
    let total = Double(sizes.reduce(0, +))
    // Just inside the fifth chapter, and just before it.
    let fifth = Double(sizes.prefix(4).reduce(0, +))
    #expect(spine.xpointer(at: (fifth + 1) / total) == "/body/DocFragment[5].0")
    #expect(spine.xpointer(at: (fifth - 1) / total) == "/body/DocFragment[4].0")
    #expect(EPUBSpine(path: stored.path)?.sizes == sizes, "stored entries read too")
    #expect(EPUBSpine(path: directory.path) == nil)
    try Data("not a zip".utf8).write(to: stored)
    #expect(EPUBSpine(path: stored.path) == nil)
  }
}
