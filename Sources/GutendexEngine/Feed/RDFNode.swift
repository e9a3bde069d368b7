import CLibXML2

/// An element of a parsed RDF record, searched the way Python's ElementTree searches
/// (`find` and `findall` with `.//`: descendants in document order), so the feed reader can
/// follow Gutendex's `get_book` path by path.
struct RDFNode {
  /// The namespaces `get_book` names (its `NAMESPACES`).
  enum Namespace {
    case dc, dcam, marcrel, pg, rdf

    /// The URI, a static string: compared byte for byte with libxml2's without a copy.
    var href: StaticString {
      switch self {
      case .dc: "http://purl.org/dc/terms/"
      case .dcam: "http://purl.org/dc/dcam/"
      case .marcrel: "http://id.loc.gov/vocabulary/relators/"
      case .pg: "http://www.gutenberg.org/2009/pgterms/"
      case .rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
      }
    }
  }

  /// libxml2's node (read through CLibXML2's accessors).
  let pointer: OpaquePointer

  /// Whether this element is `{namespace}name`.
  func `is`(_ namespace: Namespace, _ name: StaticString) -> Bool {
    guard gb_xml_is_element(pointer) != 0, let href = gb_xml_namespace(pointer),
      let own = gb_xml_name(pointer)
    else { return false }
    return Self.same(own, name) && Self.same(href, namespace.href)
  }

  /// The element's tag among those the feed reader collects, `.other` for the rest; one look
  /// at the name and namespace, so a record is walked once rather than once per field.
  var tag: Tag {
    guard gb_xml_is_element(pointer) != 0, let href = gb_xml_namespace(pointer),
      let own = gb_xml_name(pointer)
    else { return .other }
    if Self.same(href, Namespace.dc.href) {
      switch own[0] {
      case UInt8(ascii: "t"):
        if Self.same(own, "title") { return .title }
        if Self.same(own, "type") { return .type }
      case UInt8(ascii: "s"): if Self.same(own, "subject") { return .subject }
      case UInt8(ascii: "l"): if Self.same(own, "language") { return .language }
      case UInt8(ascii: "r"): if Self.same(own, "rights") { return .rights }
      case UInt8(ascii: "c"): if Self.same(own, "creator") { return .creator }
      case UInt8(ascii: "i"): if Self.same(own, "issued") { return .issued }
      default: break
      }
    } else if Self.same(href, Namespace.pg.href) {
      switch own[0] {
      case UInt8(ascii: "f"): if Self.same(own, "file") { return .file }
      case UInt8(ascii: "d"): if Self.same(own, "downloads") { return .downloads }
      case UInt8(ascii: "b"): if Self.same(own, "bookshelf") { return .bookshelf }
      case UInt8(ascii: "m"): if Self.same(own, "marc520") { return .summary }
      default: break
      }
    } else if Self.same(href, Namespace.marcrel.href) {
      if Self.same(own, "edt") { return .editor }
      if Self.same(own, "trl") { return .translator }
    }
    return .other
  }

  /// The elements of a book record the feed reader collects (``tag``).
  enum Tag {
    case title, downloads, subject, bookshelf, language, rights, type, file, summary
    case creator, editor, translator, issued, other
  }

  /// Whether the NUL-terminated `bytes` are exactly `text`.
  private static func same(_ bytes: UnsafePointer<UInt8>, _ text: StaticString) -> Bool {
    let expected = text.utf8Start
    var offset = 0
    while offset < text.utf8CodeUnitCount {
      guard bytes[offset] == expected[offset] else { return false }
      offset += 1
    }
    return bytes[offset] == 0
  }

  /// The element children, in order.
  var children: [RDFNode] {
    var out: [RDFNode] = []
    var child = gb_xml_first_child(pointer)
    while let node = child {
      if gb_xml_is_element(node) != 0 { out.append(RDFNode(pointer: node)) }
      child = gb_xml_next(node)
    }
    return out
  }

  /// Every element below this one, in document order (ElementTree's `.//*`).
  func forEachDescendant(_ body: (RDFNode) -> Void) {
    var child = gb_xml_first_child(pointer)
    while let node = child {
      if gb_xml_is_element(node) != 0 {
        let element = RDFNode(pointer: node)
        body(element)
        element.forEachDescendant(body)
      }
      child = gb_xml_next(node)
    }
  }

  /// `findall('.//{namespace}name')`.
  func all(_ namespace: Namespace, _ name: StaticString) -> [RDFNode] {
    var out: [RDFNode] = []
    forEachDescendant { if $0.is(namespace, name) { out.append($0) } }
    return out
  }

  /// `find('.//{namespace}name')`: the first in document order.
  func first(_ namespace: Namespace, _ name: StaticString) -> RDFNode? {
    var child = gb_xml_first_child(pointer)
    while let node = child {
      if gb_xml_is_element(node) != 0 {
        let element = RDFNode(pointer: node)
        if element.is(namespace, name) { return element }
        if let found = element.first(namespace, name) { return found }
      }
      child = gb_xml_next(node)
    }
    return nil
  }

  /// ElementTree's `.text`: the character data before the first child element (comments and
  /// processing instructions are not part of it), nil when there is none.
  var text: String? {
    var bytes: [UInt8] = []
    var found = false
    var child = gb_xml_first_child(pointer)
    while let node = child, gb_xml_is_element(node) == 0 {
      if gb_xml_is_text(node) != 0, let content = gb_xml_content(node) {
        found = true
        var count = 0
        while content[count] != 0 { count += 1 }
        bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: count))
      }
      child = gb_xml_next(node)
    }
    return found ? String(decoding: bytes, as: UTF8.self) : nil
  }

  /// The attribute `{namespace}name`, as written.
  func attribute(_ namespace: Namespace, _ name: String) -> String? {
    guard let value = gb_xml_attribute(pointer, name, "\(namespace.href)") else { return nil }
    defer { gb_xml_free(value) }
    return String(cString: value)
  }
}
