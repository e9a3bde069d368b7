import Foundation
import Testing

@testable import Terminal

/// Latin-1 and Windows-1252 texts (Project Gutenberg's older `-8.txt` files) read as their
/// letters, not as U+FFFD; UTF-8 stays UTF-8, and files that are not text are still refused.
@Suite struct Latin1TextTests {
  /// `text` in Windows-1252 bytes (every character must have one).
  static func windows1252(_ text: String) -> Data {
    let table = TextBytes.windows1252
    return Data(
      text.unicodeScalars.map { scalar in
        UInt8(table.firstIndex(of: scalar) ?? Int(UInt8(ascii: "?")))
      })
  }

  static let lines = [
    "*** START OF THE PROJECT GUTENBERG EBOOK LES MIS\u{C9}RABLES ***",
    "Les Mis\u{E9}rables \u{2014} \u{AB} \u{C7}a \u{BB}, c\u{F4}t\u{E9} jardin\u{2026}",
    "Monsieur Myriel \u{E9}tait \u{E9}v\u{EA}que de Digne ; il co\u{FB}tait 15 \u{20AC}.",
    "\u{201C}Quoted\u{201D} \u{2018}na\u{EF}ve\u{2019} \u{152}uvre",
  ]

  @Test func aWindows1252TextReadsAsItsLetters() {
    let text = BookText(data: Self.windows1252(Self.lines.joined(separator: "\r\n") + "\r\n"))
    #expect(text.bytes.encoding == .windows1252)
    #expect(text.notText == nil)
    for number in 0..<text.lineCount {
      #expect(!text.line(number).contains("\u{FFFD}"), "\(text.line(number))")
    }
    #expect(text.line(1) == Self.lines[1])
    #expect(text.line(2) == Self.lines[2])
    #expect(text.line(3) == Self.lines[3])
  }

  @Test func thePagerShowsAndFindsAccentedWords() {
    let body = (0..<40).map { "Ligne \($0) : le caf\u{E9} est pr\u{EA}t." }
    let data = Self.windows1252((Self.lines + body).joined(separator: "\n"))
    var pager = Pager(
      text: BookText(data: data), title: "Les Mis\u{E9}rables", width: 60, height: 8)
    let page = pager.lines(width: 60, style: .plain)
    #expect(page.contains { $0.contains("Mis\u{E9}rables \u{2014} \u{AB} \u{C7}a") }, "\(page)")
    #expect(!page.joined().contains("\u{FFFD}"))
    #expect(pager.search("Ligne 30 : le caf\u{E9}") == .found)
    let found = pager.lines(width: 60, style: .plain)
    // The match's row is the first of the page: byte offsets map to Latin-1 characters.
    #expect(found.first?.hasPrefix("\u{BB}Ligne 30 : le caf\u{E9}") == true, "\(found)")
  }

  @Test func utf8StaysUTF8EvenWithAStrayByte() {
    var data = Data(Self.lines.joined(separator: "\n").utf8)
    data.append(contentsOf: [0x0A, 0xE9, 0x0A])
    let text = BookText(data: data)
    #expect(text.bytes.encoding == .utf8)
    #expect(text.line(1) == Self.lines[1])
  }

  @Test func binaryIsStillRefused() {
    // No NUL, but control bytes and the five values Windows-1252 leaves undefined.
    let binary = Data((0..<4_000).map { UInt8(1 + ($0 * 37) % 255) })
    #expect(BookText(data: binary).notText != nil)
    let controls = Data((0..<4_000).map { $0 % 3 == 0 ? UInt8(0x02) : UInt8(0xE9) })
    let text = BookText(data: controls)
    #expect(text.bytes.encoding == .windows1252)
    #expect(text.notText?.hasSuffix("are control characters") == true, "\(text.notText ?? "")")
  }

  /// A UTF-8 text whose one accented letter straddles the end of the 4 MiB the encoding is
  /// chosen from: the half seen there is not taken for a Latin-1 byte.
  @Test func aCharacterCutByTheSamplesEndLeavesUTF8AsIs() {
    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: TextBytes.encodingSample - 1)
    bytes += Array("é and more\n".utf8)
    let text = BookText(data: Data(bytes))
    #expect(text.bytes.encoding == .utf8)
    #expect(text.rawLine(0).hasSuffix("xé and more"))
  }
}
