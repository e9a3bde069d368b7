import CLibXML2
import Foundation

/// What an EPUB's package document says about reading it: the documents of its spine, in
/// reading order, as paths inside the zip. Found as the standard lays it out:
/// `META-INF/container.xml` names the package document (the OPF), whose manifest maps ids to
/// files and whose spine lists the ids in order.
struct EpubPackage: Sendable, Equatable {
  /// The spine's documents (XHTML or HTML), in reading order; one listed twice appears twice.
  let spine: [String]
  /// The book's title (`dc:title`), when it has one.
  let title: String?

  /// The container and package documents are small; larger ones are refused.
  static let documentLimit = 4 << 20
  /// The container's own path.
  static let containerPath = "META-INF/container.xml"

  /// The package of the EPUB whose container and package documents are in `documents` (by
  /// path; `documents[containerPath]` must be there).
  init(documents: [String: [UInt8]]) throws {
    guard let container = documents[Self.containerPath] else {
      throw EpubError.notEpub("no \(Self.containerPath)")
    }
    guard let opfPath = try Self.rootFile(container) else {
      throw EpubError.notEpub("\(Self.containerPath) names no package document")
    }
    guard let opf = Self.entry(opfPath, in: documents) else {
      throw EpubError.notEpub("no \(Sanitizer.sanitize(opfPath)), which its container names")
    }
    let directory = opfPath.split(separator: "/").dropLast().joined(separator: "/")
    (spine, title) = try Self.readPackage(opf, directory: directory)
    guard !spine.isEmpty else { throw EpubError.notEpub("its spine lists no document") }
  }

  /// The bytes of `path` in `documents`, matched exactly, else ignoring case (zips made on
  /// systems that ignore it).
  static func entry<Value>(_ path: String, in documents: [String: Value]) -> Value? {
    if let exact = documents[path] { return exact }
    let lower = path.lowercased()
    return documents.first { $0.key.lowercased() == lower }?.value
  }

  /// The `full-path` of the container's first rootfile of the OPF media type (or its first).
  private static func rootFile(_ bytes: [UInt8]) throws -> String? {
    try XMLDocument.parse(bytes, what: containerPath) { root in
      var paths: [(path: String, isOPF: Bool)] = []
      root.forEachDescendant { node in
        guard node.localName == "rootfile", let path = node.attribute("full-path") else {
          return
        }
        paths.append((path, node.attribute("media-type") == "application/oebps-package+xml"))
      }
      return (paths.first { $0.isOPF } ?? paths.first)?.path
    }
  }

  /// The spine's paths (relative to the zip's root) and the title of the OPF in `bytes`.
  private static func readPackage(_ bytes: [UInt8], directory: String) throws -> (
    [String], String?
  ) {
    try XMLDocument.parse(bytes, what: "the package document") { root in
      var manifest: [String: (href: String, type: String)] = [:]
      var order: [String] = []
      var title: String?
      root.forEachDescendant { node in
        switch node.localName {
        case "item":
          if let id = node.attribute("id"), let href = node.attribute("href") {
            manifest[id] = (href, node.attribute("media-type") ?? "")
          }
        case "itemref":
          if let id = node.attribute("idref") { order.append(id) }
        case "title" where title == nil:
          let text = node.text.trimmingCharacters(in: .whitespacesAndNewlines)
          if !text.isEmpty { title = text }
        default: break
        }
      }
      let documents = order.compactMap { id -> String? in
        guard let item = manifest[id] else { return nil }
        let type = item.type.lowercased()
        guard type.isEmpty || type.contains("html") else { return nil }
        return resolve(item.href, in: directory)
      }
      return (documents, title)
    }
  }

  /// `href` (relative to `directory`, percent-encoded, maybe with a fragment) as a path from
  /// the zip's root, `.` and `..` resolved.
  static func resolve(_ href: String, in directory: String) -> String {
    let bare = String(href.split(separator: "#", omittingEmptySubsequences: false)[0])
    let decoded = bare.removingPercentEncoding ?? bare
    var parts = decoded.hasPrefix("/") ? [] : directory.split(separator: "/").map(String.init)
    for part in decoded.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(String(part))
      }
    }
    return parts.joined(separator: "/")
  }
}

/// A parsed XML document (the container and package documents) read through CLibXML2's
/// accessors; only valid inside ``parse(_:what:_:)``.
struct XMLDocument {
  /// An element.
  struct Node {
    let pointer: OpaquePointer

    /// The element's name without its prefix.
    var localName: String {
      gb_xml_name(pointer).map { String(cString: $0) } ?? ""
    }

    /// The attribute `name` (no namespace), or nil.
    func attribute(_ name: String) -> String? {
      guard let value = gb_xml_attribute(pointer, name, nil) else { return nil }
      defer { gb_xml_free(value) }
      return String(cString: value)
    }

    /// The text of the element's text children.
    var text: String {
      var text = ""
      var child = gb_xml_first_child(pointer)
      while let node = child {
        if gb_xml_is_text(node) != 0, let content = gb_xml_content(node) {
          text += String(cString: content)
        }
        child = gb_xml_next(node)
      }
      return text
    }

    /// Every element below this one, in document order.
    func forEachDescendant(_ body: (Node) -> Void) {
      var child = gb_xml_first_child(pointer)
      while let node = child {
        if gb_xml_is_element(node) != 0 {
          let element = Node(pointer: node)
          body(element)
          element.forEachDescendant(body)
        }
        child = gb_xml_next(node)
      }
    }
  }

  /// Parses `bytes` (no network, no error output) and calls `body` with the root element;
  /// not well-formed XML is refused, naming `what`.
  static func parse<Result>(_ bytes: [UInt8], what: String, _ body: (Node) throws -> Result)
    throws -> Result
  {
    if let reason = gb_xml_load() { throw EpubError.library(String(cString: reason)) }
    guard bytes.count <= EpubPackage.documentLimit else {
      throw EpubError.tooLarge(what, limit: EpubPackage.documentLimit)
    }
    let document = bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.flatMap { base in
        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
          gb_xml_read($0, Int32(buffer.count))
        }
      }
    }
    guard let document else { throw EpubError.notEpub("\(what) is not well-formed XML") }
    defer { gb_xml_free_document(document) }
    guard let root = gb_xml_root(document) else {
      throw EpubError.notEpub("\(what) is empty")
    }
    return try body(Node(pointer: root))
  }
}
