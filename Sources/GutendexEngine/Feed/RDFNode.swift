import CLibXML2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  let pointer: xmlNodePtr

  /// Whether this element is `{namespace}name`.
  func `is`(_ namespace: Namespace, _ name: String) -> Bool {
    guard pointer.pointee.type == XML_ELEMENT_NODE, let href = pointer.pointee.ns?.pointee.href,
      let own = pointer.pointee.name
    else { return false }
    return Self.equal(own, name) && Self.equal(href, namespace.rawValue)
  }

  private static func equal(_ bytes: UnsafePointer<xmlChar>, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { utf8 in
      for (offset, byte) in utf8.enumerated() where bytes[offset] != byte { return false }
      return bytes[utf8.count] == 0
    }
  }

  /// The element children, in order.
  var children: [RDFNode] {
    var out: [RDFNode] = []
    var child = pointer.pointee.children
    while let node = child {
      if node.pointee.type == XML_ELEMENT_NODE { out.append(RDFNode(pointer: node)) }
      child = node.pointee.next
    }
    return out
  }

  /// Every element below this one, in document order (ElementTree's `.//*`).
  func forEachDescendant(_ body: (RDFNode) -> Void) {
    var child = pointer.pointee.children
    while let node = child {
      if node.pointee.type == XML_ELEMENT_NODE {
        let element = RDFNode(pointer: node)
        body(element)
        element.forEachDescendant(body)
      }
      child = node.pointee.next
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
    var child = pointer.pointee.children
    while let node = child {
      if node.pointee.type == XML_ELEMENT_NODE {
        let element = RDFNode(pointer: node)
        if element.is(namespace, name) { return element }
        if let found = element.first(namespace, name) { return found }
      }
      child = node.pointee.next
    }
    return nil
  }

  /// ElementTree's `.text`: the character data before the first child element (comments and
  /// processing instructions are not part of it), nil when there is none.
  var text: String? {
    var bytes: [UInt8] = []
    var found = false
    var child = pointer.pointee.children
    while let node = child, node.pointee.type != XML_ELEMENT_NODE {
      if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE,
        let content = node.pointee.content
      {
        found = true
        bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: strlen(content)))
      }
      child = node.pointee.next
    }
    return found ? String(decoding: bytes, as: UTF8.self) : nil
  }

  /// The attribute `{namespace}name`, as written.
  func attribute(_ namespace: Namespace, _ name: String) -> String? {
    guard let value = xmlGetNsProp(pointer, name, namespace.rawValue) else { return nil }
    defer { gb_xml_free(value) }
    return String(cString: value)
  }
}
