import CLibXML2

/// An element of a parsed RDF record, searched the way Python's ElementTree searches
/// (`find` and `findall` with `.//`: descendants in document order), so the feed reader can
/// follow Gutendex's `get_book` path by path.
struct RDFNode {
  /// The namespaces `get_book` names (its `NAMESPACES`).
  enum Namespace: String {
    case dc = "http://purl.org/dc/terms/"
    case dcam = "http://purl.org/dc/dcam/"
    case marcrel = "http://id.loc.gov/vocabulary/relators/"
    case pg = "http://www.gutenberg.org/2009/pgterms/"
    case rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  }

  /// libxml2's node (read through CLibXML2's accessors).
  let pointer: OpaquePointer

  /// Whether this element is `{namespace}name`.
  func `is`(_ namespace: Namespace, _ name: String) -> Bool {
    guard gb_xml_is_element(pointer) != 0, let href = gb_xml_namespace(pointer),
      let own = gb_xml_name(pointer)
    else { return false }
    return Self.equal(own, name) && Self.equal(href, namespace.rawValue)
  }

  private static func equal(_ bytes: UnsafePointer<UInt8>, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { utf8 in
      for (offset, byte) in utf8.enumerated() where bytes[offset] != byte { return false }
      return bytes[utf8.count] == 0
    }
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
  func all(_ namespace: Namespace, _ name: String) -> [RDFNode] {
    var out: [RDFNode] = []
    forEachDescendant { if $0.is(namespace, name) { out.append($0) } }
    return out
  }

  /// `find('.//{namespace}name')`: the first in document order.
  func first(_ namespace: Namespace, _ name: String) -> RDFNode? {
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
    guard let value = gb_xml_attribute(pointer, name, namespace.rawValue) else { return nil }
    defer { gb_xml_free(value) }
    return String(cString: value)
  }
}
