import CLibXML2

/// One XHTML document of an EPUB turned into the reader's plain text, as libxml2's HTML parser
/// reads it (a piece at a time, no tree built): each paragraph on a line of its own, which the
/// reader wraps to the window as prose; lines to keep as written set in by two spaces (verse,
/// lines broken by `<br>`, tables with their columns aligned, list items, preformatted text);
/// headings on lines of their own, blank lines around them, h1–h3 kept for the table of
/// contents; images as their `alt` text; footnote references as `[n]`; page numbers, styles
/// and scripts left out. Blocks are separated by a blank line, as Project Gutenberg's texts
/// separate paragraphs.
final class XHTMLText {
  /// The text made so far (UTF-8, `\n` line ends).
  private(set) var bytes: [UInt8] = []
  /// The h1–h3 headings: their text, and where their first line starts in ``bytes``.
  private(set) var headings: [(title: String, offset: Int)] = []

  /// How an element is treated.
  private enum Kind: Equatable {
    case block
    case heading(Int)
    case lineBreak, preformatted, table, row, cell
    case list(ordered: Bool)
    case listItem, image, link, rule, skipped, inline
  }

  /// An element open around the text being read.
  private struct Open {
    let name: [UInt8]
    let kind: Kind
    /// Spaces its class asks lines inside it to be set in (`i2`, `indent4`), for verse.
    let indent: Int?
    /// True for verse: a poem, a stanza or a line of one (`poem`, `stanza`, `verse` in its
    /// class).
    let isVerse: Bool
    /// True for a poem or a stanza, which blank lines set apart (a line of verse is not).
    let isStanza: Bool
    /// For a link to a place in the book: where its text starts in the line.
    var linkStart: Int?
    /// True for a link said to be a note reference (`epub:type="noteref"`, a footnote
    /// anchor's class) or set as a superscript.
    var isNoteLink = false
  }

  private var stack: [Open] = []
  /// Elements left out, counted so their end is found (`<span class="pagenum">`, `<head>`).
  private var skipped = 0
  /// The block's finished lines and the line being read, with the indentation each asks.
  private var lines: [(indent: Int, text: [UInt8])] = []
  private var line: [UInt8] = []
  private var lineIndent = 0
  private var pendingSpace = false
  /// Blank lines owed before the next line written.
  private var blanksOwed = 0
  /// A table being read: its rows of cells.
  private var tableRows: [[[UInt8]]] = []
  private var tableRow: [[UInt8]] = []
  private var tableDepth = 0
  /// A list item's marker, written before its first line (`• `, `3. `).
  private var itemMarker: [UInt8]?
  private var listCounters: [Int] = []

  /// Reads the XHTML document whose bytes `feed` hands over a piece at a time (UTF-8, or
  /// UTF-16 with its byte order mark, as EPUB allows).
  static func read(_ feed: ((UnsafeRawBufferPointer) -> Void) throws -> Void) throws -> XHTMLText {
    if let reason = gb_xml_load() { throw EpubError.library(String(cString: reason)) }
    let text = XHTMLText()
    let context = Unmanaged.passUnretained(text).toOpaque()
    var parser: OpaquePointer?
    var failed = false
    defer { if let parser { gb_html_finish(parser) } }
    try withExtendedLifetime(text) {
      try feed { piece in
        guard let base = piece.baseAddress, !piece.isEmpty, !failed else { return }
        if parser == nil {
          // A byte order mark of UTF-16 leaves the encoding to libxml2.
          let utf16 =
            piece.count >= 2 && (piece[0], piece[1]) == (0xFF, 0xFE)
            || piece.count >= 2 && (piece[0], piece[1]) == (0xFE, 0xFF)
          parser = Self.parser(context, utf8: !utf16)
          failed = parser == nil
        }
        guard let parser else { return }
        _ = gb_html_feed(parser, base.assumingMemoryBound(to: CChar.self), Int32(piece.count), 0)
      }
      if let parser { _ = gb_html_feed(parser, nil, 0, 1) }
    }
    if failed { throw EpubError.damaged("libxml2 could not start (out of memory)") }
    text.finishBlock()
    return text
  }

  /// A parser handing its events to the ``XHTMLText`` at `context`.
  private static func parser(_ context: UnsafeMutableRawPointer, utf8: Bool) -> OpaquePointer? {
    gb_html_start(
      context,
      { context, name, attributes in
        guard let context, let name else { return }
        Unmanaged<XHTMLText>.fromOpaque(context).takeUnretainedValue().start(name, attributes)
      },
      { context, name in
        guard let context, let name else { return }
        Unmanaged<XHTMLText>.fromOpaque(context).takeUnretainedValue().end(name)
      },
      { context, bytes, length in
        guard let context, let bytes, length > 0 else { return }
        Unmanaged<XHTMLText>.fromOpaque(context).takeUnretainedValue().characters(
          UnsafeBufferPointer(start: bytes, count: Int(length)))
      }, utf8 ? 1 : 0)
  }

  // MARK: - Parser events

  private func start(
    _ name: UnsafePointer<UInt8>, _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
  ) {
    let bytes = Self.lowercased(name)
    if skipped > 0 {
      skipped += Self.isVoid(bytes) ? 0 : 1
      return
    }
    let attributes = Attributes(attributes)
    var kind = Self.kind(of: bytes)
    if kind != .skipped, attributes.hidesContent { kind = .skipped }
    let classes = attributes.value("class")
    let open = Open(
      name: bytes, kind: kind, indent: classes.flatMap(Self.indent(ofClasses:)),
      isVerse: classes.map(Self.isVerse(classes:)) ?? false,
      isStanza: classes.map(Self.isStanza(classes:)) ?? false)
    switch kind {
    case .skipped:
      if !Self.isVoid(bytes) { skipped = 1 }
      return
    case .lineBreak:
      if tableDepth > 0 {
        pendingSpace = !line.isEmpty
      } else {
        endLine(keepingEmpty: true)
      }
      return
    case .image:
      image(alt: attributes.value("alt"))
      return
    case .rule:
      finishBlock()
      if tableDepth == 0 { write([(10, Array("* * *".utf8))], separatedBy: 1) }
      return
    case .block, .heading, .preformatted, .listItem:
      if tableDepth == 0 { finishBlock() } else { pendingSpace = !line.isEmpty }
    case .list(let ordered):
      if tableDepth == 0 { finishBlock() }
      listCounters.append(ordered ? 0 : -1)
    case .table:
      if tableDepth == 0 {
        finishBlock()
        tableRows = []
      } else {
        pendingSpace = !line.isEmpty
      }
      tableDepth += 1
    case .row:
      if tableDepth == 1 { tableRow = [] }
    case .cell:
      if tableDepth == 1 {
        finishCell()
        line = []
      } else {
        pendingSpace = !line.isEmpty
      }
    case .link, .inline:
      // A superscript in a link makes the link a note's mark (`<a href="#n1"><sup>1</sup></a>`).
      if bytes == Self.superscript, let link = stack.lastIndex(where: { $0.linkStart != nil }) {
        stack[link].isNoteLink = true
      }
    }
    var opened = open
    if kind == .link {
      let type = [attributes.value("epub:type"), attributes.value("role"), classes]
        .compactMap { $0?.lowercased() }.joined(separator: " ")
      let isNote = ["noteref", "fnanchor", "footnote"].contains { type.contains($0) }
      if isNote || (attributes.value("href") ?? "").contains("#") {
        opened.linkStart = line.count + (pendingSpace ? 1 : 0)
        opened.isNoteLink = isNote || stack.contains { $0.name == Self.superscript }
      }
    }
    if kind == .listItem {
      let counter = listCounters.last ?? -1
      if counter >= 0 {
        listCounters[listCounters.count - 1] = counter + 1
        itemMarker = Array("\(counter + 1). ".utf8)
      } else {
        itemMarker = Array("• ".utf8)
      }
    }
    stack.append(opened)
  }

  private func end(_ name: UnsafePointer<UInt8>) {
    if skipped > 0 {
      let bytes = Self.lowercased(name)
      skipped -= Self.isVoid(bytes) ? 0 : 1
      return
    }
    let bytes = Self.lowercased(name)
    // The parser closes what it opened; an end with no element open here is passed over.
    guard let index = stack.lastIndex(where: { $0.name == bytes }) else { return }
    while stack.count > index + 1 { close(stack.removeLast()) }
    close(stack.removeLast())
  }

  private func close(_ element: Open) {
    switch element.kind {
    case .block, .preformatted, .listItem:
      if tableDepth == 0 {
        finishBlock(in: element)
        if element.kind == .listItem { itemMarker = nil }
      } else {
        pendingSpace = !line.isEmpty
      }
    case .heading(let level):
      if tableDepth == 0 { finishHeading(level) } else { pendingSpace = !line.isEmpty }
    case .list:
      if tableDepth == 0 { finishBlock() }
      if !listCounters.isEmpty { listCounters.removeLast() }
    case .table:
      tableDepth -= 1
      if tableDepth == 0 { finishTable() }
    case .row:
      if tableDepth == 1 {
        finishCell()
        if !tableRow.isEmpty { tableRows.append(tableRow) }
        tableRow = []
      }
    case .cell:
      if tableDepth == 1 { finishCell() }
    case .link:
      if let start = element.linkStart { markNote(from: start, isNote: element.isNoteLink) }
    case .lineBreak, .image, .rule, .skipped, .inline:
      break
    }
  }

  private func characters(_ text: UnsafeBufferPointer<UInt8>) {
    guard skipped == 0 else { return }
    if stack.contains(where: { $0.kind == .preformatted }), tableDepth == 0 {
      for byte in text {
        switch byte {
        case 0x0A: endLine(keepingEmpty: true)
        case 0x0D: continue
        default:
          if line.isEmpty { lineIndent = currentIndent }
          line.append(byte)
        }
      }
      return
    }
    // Runs of spaces and line ends are one space; the words between them are copied whole.
    var position = 0
    let count = text.count
    while position < count {
      var byte = text[position]
      if Self.isWhite(byte) {
        pendingSpace = !line.isEmpty
        position += 1
        continue
      }
      let start = position
      while position < count {
        byte = text[position]
        if Self.isWhite(byte) { break }
        position += 1
      }
      if pendingSpace {
        line.append(0x20)
        pendingSpace = false
      } else if line.isEmpty {
        lineIndent = currentIndent
      }
      line.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<position]))
    }
  }

  @inline(__always) private static func isWhite(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
  }

  // MARK: - Lines and blocks

  /// The indentation the innermost element with an indenting class asks for.
  private var currentIndent: Int {
    stack.last { $0.indent != nil }?.indent ?? 0
  }

  /// True inside a poem's container.
  private var inVerse: Bool { stack.contains { $0.isVerse } }

  /// Ends the line being read (at a `<br>` or a line end in `<pre>`).
  private func endLine(keepingEmpty: Bool) {
    if !line.isEmpty || keepingEmpty { lines.append((lineIndent, line)) }
    line = []
    lineIndent = 0
    pendingSpace = false
  }

  /// Writes the block read so far: one line is a paragraph (prose, at the margin); several
  /// (lines broken by `<br>`, verse, `<pre>`) are kept as written, set in.
  private func finishBlock(in element: Open? = nil) {
    endLine(keepingEmpty: false)
    // Blank lines at the block's ends say nothing.
    while let last = lines.last, last.text.isEmpty { lines.removeLast() }
    while let first = lines.first, first.text.isEmpty { lines.removeFirst() }
    defer { lines = [] }
    // The element itself is off the stack: what is left are its ancestors.
    let inPoem = inVerse
    let verse = inPoem || element?.isVerse == true
    let stanza = element?.isStanza == true
    let preformatted = element?.kind == .preformatted || stack.contains { $0.kind == .preformatted }
    guard !lines.isEmpty else {
      // The end of a stanza (or of the poem) is a blank line before what follows.
      if stanza { blanksOwed = max(blanksOwed, 1) }
      return
    }
    var out: [(Int, [UInt8])]
    if let marker = itemMarker {
      itemMarker = nil
      out = lines.enumerated().map { number, line in
        number == 0 ? (2, marker + line.text) : (2 + marker.count, line.text)
      }
    } else if stack.contains(where: { $0.kind == .listItem }) {
      out = lines.map { (4, $0.text) }
    } else if lines.count == 1, !verse, !preformatted {
      out = [(0, trimmed(lines[0].text))]
    } else {
      out = lines.map { (2 + min($0.indent, 20), preformatted ? $0.text : trimmed($0.text)) }
    }
    // A poem's lines follow one another; its stanzas and everything else are set apart.
    let lineOfPoem = inPoem && !stanza
    write(out, separatedBy: lineOfPoem ? 0 : 1)
    if !lineOfPoem { blanksOwed = max(blanksOwed, 1) }
  }

  /// Writes a heading's lines at the margin, two blank lines before and one after.
  private func finishHeading(_ level: Int) {
    endLine(keepingEmpty: false)
    let heading = lines.map { trimmed($0.text) }.filter { !$0.isEmpty }
    lines = []
    guard !heading.isEmpty else { return }
    blanksOwed = max(blanksOwed, 2)
    let offset = write(heading.map { (0, $0) }, separatedBy: 2)
    if level <= 3 {
      let title = heading.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
      headings.append((Sanitizer.sanitize(title), offset))
    }
    blanksOwed = 1
  }

  /// A cell of the table's row ends.
  private func finishCell() {
    endLine(keepingEmpty: false)
    let cell = lines.map { trimmed($0.text) }.filter { !$0.isEmpty }
    lines = []
    guard !cell.isEmpty else { return }
    tableRow.append(Array(cell.joined(separator: [0x20])))
  }

  /// Writes the table's rows set in, their columns aligned three spaces apart.
  private func finishTable() {
    endLine(keepingEmpty: false)
    lines = []
    let rows = tableRows
    tableRows = []
    guard !rows.isEmpty else { return }
    var widths: [Int] = []
    for row in rows {
      for (column, cell) in row.enumerated() {
        let cells = DisplayWidth.cells(String(decoding: cell, as: UTF8.self))
        if column < widths.count {
          widths[column] = max(widths[column], cells)
        } else {
          widths.append(cells)
        }
      }
    }
    let out = rows.map { row -> (Int, [UInt8]) in
      var text: [UInt8] = []
      for (column, cell) in row.enumerated() {
        text += cell
        guard column < row.count - 1 else { break }
        let cells = DisplayWidth.cells(String(decoding: cell, as: UTF8.self))
        text += repeatElement(0x20, count: min(widths[column], 60) - min(cells, 60) + 3)
      }
      return (2, text)
    }
    write(out, separatedBy: 1)
    blanksOwed = 1
  }

  /// Writes `lines` (each with its indentation) after the blank lines owed (at least
  /// `separation`, none at the document's start); returns where the first starts.
  @discardableResult
  private func write(_ lines: [(Int, [UInt8])], separatedBy separation: Int) -> Int {
    if !bytes.isEmpty {
      bytes += repeatElement(0x0A, count: max(blanksOwed, separation))
    }
    blanksOwed = 0
    let offset = bytes.count
    for (indent, text) in lines {
      bytes += repeatElement(0x20, count: indent)
      bytes += text
      bytes.append(0x0A)
    }
    return offset
  }

  /// `text` without spaces at its ends.
  private func trimmed(_ text: [UInt8]) -> [UInt8] {
    guard let first = text.firstIndex(where: { $0 != 0x20 }),
      let last = text.lastIndex(where: { $0 != 0x20 })
    else { return [] }
    return Array(text[first...last])
  }

  // MARK: - Inline elements

  /// An image: its `alt` text in the line (a drop capital's letter joined to its word, else
  /// `[Illustration: …]`; in a heading, the words alone).
  private func image(alt: String?) {
    let words = (alt ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard !words.isEmpty else { return }
    let inHeading = stack.contains { if case .heading = $0.kind { true } else { false } }
    let text: String
    if inHeading || (words.count <= 2 && words.allSatisfy(\.isLetter)) {
      text = words
    } else {
      text = "[Illustration: \(words)]"
    }
    if pendingSpace {
      line.append(0x20)
      pendingSpace = false
    } else if line.isEmpty {
      lineIndent = currentIndent
    }
    line += Array(text.utf8)
  }

  /// A link's text that is a footnote's mark (`1`, `[12]`, `*`, `a`, `iv`), as `[1]`: a
  /// reference in the text, or the footnote's own mark back to it. Only a mark already in
  /// brackets or a link said to be a note's (`isNote`): a number linked to a page or a
  /// chapter (an index, a table of contents) stays as it is.
  private func markNote(from start: Int, isNote: Bool) {
    guard start <= line.count else { return }
    let text = String(decoding: line[start...], as: UTF8.self)
    var core = Substring(text.trimmingCharacters(in: .whitespaces))
    let bracketed = core.count >= 3 && core.first == "[" && core.last == "]"
    if bracketed || (core.first == "(" && core.last == ")" && core.count >= 3) {
      core = core.dropFirst().dropLast()
    }
    guard !core.isEmpty, core.count <= 4 else { return }
    let isMark =
      core.allSatisfy(\.isNumber) || core.allSatisfy({ "*†‡§¶".contains($0) })
      || (core.count <= 3 && core.allSatisfy { "ivxlcIVXLC".contains($0) })
      || (core.count == 1 && core.allSatisfy(\.isLetter))
    guard isMark, bracketed || isNote else { return }
    line.replaceSubrange(start..., with: Array("[\(core)]".utf8))
  }

  // MARK: - Names and attributes

  private static func lowercased(_ name: UnsafePointer<UInt8>) -> [UInt8] {
    var bytes: [UInt8] = []
    var position = 0
    while name[position] != 0, position < 64 {
      let byte = name[position]
      bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
      position += 1
    }
    return bytes
  }

  private static func isVoid(_ name: [UInt8]) -> Bool {
    voidElements.contains(name)
  }

  private static let voidElements: Set<[UInt8]> = Set(
    ["br", "img", "hr", "meta", "link", "input", "area", "base", "col", "wbr", "source", "embed"]
      .map { Array($0.utf8) })

  private static let kinds: [[UInt8]: Kind] = {
    var kinds: [[UInt8]: Kind] = [:]
    for name in [
      "p", "div", "section", "article", "header", "footer", "aside", "nav", "main", "blockquote",
      "figure", "figcaption", "address", "center", "dl", "dt", "dd", "body", "caption", "hgroup",
    ] {
      kinds[Array(name.utf8)] = .block
    }
    for level in 1...6 { kinds[Array("h\(level)".utf8)] = .heading(level) }
    for name in ["head", "style", "script", "svg", "math", "title", "noscript", "template"] {
      kinds[Array(name.utf8)] = .skipped
    }
    kinds[Array("br".utf8)] = .lineBreak
    kinds[Array("pre".utf8)] = .preformatted
    kinds[Array("table".utf8)] = .table
    kinds[Array("tr".utf8)] = .row
    kinds[Array("td".utf8)] = .cell
    kinds[Array("th".utf8)] = .cell
    kinds[Array("ul".utf8)] = .list(ordered: false)
    kinds[Array("ol".utf8)] = .list(ordered: true)
    kinds[Array("li".utf8)] = .listItem
    kinds[Array("img".utf8)] = .image
    kinds[Array("a".utf8)] = .link
    kinds[Array("hr".utf8)] = .rule
    return kinds
  }()

  private static func kind(of name: [UInt8]) -> Kind {
    kinds[name] ?? .inline
  }

  /// The spaces an indenting class asks for: `i2`, `indent2`, `ind2` (Project Gutenberg's
  /// verse classes, in ems).
  static func indent(ofClasses classes: String) -> Int? {
    for word in classes.split(separator: " ") {
      for prefix in ["indent", "ind", "i"] where word.hasPrefix(prefix) {
        if let number = Int(word.dropFirst(prefix.count)), number >= 0 { return min(number, 20) }
      }
    }
    return nil
  }

  /// True for the class of a poem, a stanza or a line of verse.
  static func isVerse(classes: String) -> Bool {
    let lower = classes.lowercased()
    return ["poem", "stanza", "verse", "poetry"].contains { lower.contains($0) }
  }

  /// True for the class of a poem or a stanza (not of one line).
  static func isStanza(classes: String) -> Bool {
    let lower = classes.lowercased()
    return ["poem", "stanza", "poetry"].contains { lower.contains($0) }
  }

  private static let superscript = Array("sup".utf8)

  /// An element's attributes, as the parser hands them (name, value, ..., NULL).
  private struct Attributes {
    private var pairs: [(String, String)] = []

    init(_ list: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
      guard let list else { return }
      var index = 0
      while let name = list[index] {
        let value = list[index + 1].map { String(cString: $0) } ?? ""
        pairs.append((String(cString: name).lowercased(), value))
        index += 2
      }
    }

    func value(_ name: String) -> String? {
      pairs.first { $0.0 == name }?.1
    }

    /// True for what Project Gutenberg's EPUBs show only on paper or not at all: page numbers
    /// (`class="pagenum"`, `epub:type="pagebreak"`) and hidden elements.
    var hidesContent: Bool {
      if let classes = value("class")?.lowercased(),
        classes.contains("pagenum") || classes.contains("x-ebookmaker-drop")
      {
        return true
      }
      if value("epub:type")?.contains("pagebreak") == true { return true }
      return value("hidden") != nil
    }
  }
}
