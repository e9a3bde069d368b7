import Foundation
import Synchronization

/// An EPUB turned into the reader's text on a thread of its own, its spine's documents in
/// reading order, so the first page can be shown as soon as the first documents are read
/// (``text(covering:)``) while the rest goes on. The text of the first documents is the start
/// of the whole text, byte for byte: a place on the first page is the same place in the whole.
///
/// The conversion is deterministic, so a book's offsets (its reading position, bookmarks) are
/// the same every time it is opened.
package final class EpubConversion: RestOfText {
  /// The most text a book may be turned into.
  static let textLimit = 128 << 20
  /// The blank lines set between two documents of the spine.
  static let separator: [UInt8] = [0x0A, 0x0A]

  /// One document read.
  private struct Document: Sendable {
    let bytes: [UInt8]
    let headings: [TableOfContents.Entry]
  }

  private struct State {
    var spine: [String] = []
    var documents: [String: Document] = [:]
    /// Spine entries read from the first on, and the bytes of their text.
    var ready = 0
    var readyBytes = 0
    var finished = false
    var failure: EpubError?
    var whole: BookText?
    var waiters: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())

  /// The text an EPUB's first page waits for past the place it opens at: more than any window
  /// shows.
  package static let firstPageBytes = 256 * 1024

  /// Starts reading the EPUB at `path`.
  package init(path: String) {
    let thread = Thread { [self] in convert(path) }
    thread.name = "epub"
    thread.start()
  }

  /// The text of the spine's first documents once they hold at least `bytes` bytes, or the
  /// whole text when it is finished first (``BookText/isPartial`` says which).
  package func text(covering bytes: Int) async throws(EpubError) -> BookText {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state in
        if state.finished || state.failure != nil || state.readyBytes >= bytes { return true }
        state.waiters.append((bytes, continuation))
        return false
      }
      if now { continuation.resume() }
    }
    return try state.withLock { state throws(EpubError) -> BookText in
      if let failure = state.failure { throw failure }
      if let whole = state.whole { return whole }
      if state.finished {
        let whole = Self.join(state.spine, state.documents, partial: false)
        state.whole = whole
        // The whole text holds them now.
        state.documents = [:]
        return whole
      }
      return Self.join(Array(state.spine.prefix(state.ready)), state.documents, partial: true)
    }
  }

  /// The whole text.
  package func whole() async throws(EpubError) -> BookText {
    try await text(covering: .max)
  }

  /// The documents of `spine` one after another, blank lines between them.
  private static func join(_ spine: [String], _ documents: [String: Document], partial: Bool)
    -> BookText
  {
    let parts = spine.compactMap { documents[$0] }.filter { !$0.bytes.isEmpty }
    let total = parts.reduce(0) { $0 + $1.bytes.count } + max(0, parts.count - 1) * 2
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: total)
    var outline: [TableOfContents.Entry] = []
    var offset = 0
    for (number, part) in parts.enumerated() {
      if number > 0 {
        for byte in separator {
          buffer[offset] = byte
          offset += 1
        }
      }
      outline += part.headings.map { .init(title: $0.title, offset: $0.offset + offset) }
      _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + part.bytes.count)])
        .initialize(from: part.bytes)
      offset += part.bytes.count
    }
    return BookText(epubText: buffer, outline: outline, isPartial: partial)
  }

  // MARK: - The conversion's thread

  private func convert(_ path: String) {
    do throws(EpubError) {
      let archive = EpubArchive(path: path)
      // The container and package documents first (the package is found through the
      // container, which may come after it), then the spine's documents, read as they come.
      var documents: [String: [UInt8]] = [:]
      try Self.catching {
        try archive.forEachEntry { entry in
          let lower = entry.path.lowercased()
          guard entry.path == EpubPackage.containerPath || lower.hasSuffix(".opf") else { return }
          documents[entry.path] = try entry.bytes(limit: EpubPackage.documentLimit)
        }
      }
      let package = try Self.catching { try EpubPackage(documents: documents) }
      state.withLock { $0.spine = package.spine }
      let wanted = Dictionary(
        package.spine.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
      var total = 0
      try Self.catching {
        try archive.forEachEntry { entry in
          guard let path = wanted[entry.path.lowercased()] else { return }
          let text = try XHTMLText.read { feed in try entry.read(feed) }
          total += text.bytes.count
          guard total <= Self.textLimit else {
            throw EpubError.tooLarge("the book's text", limit: Self.textLimit)
          }
          publish(
            path,
            Document(
              bytes: text.bytes,
              headings: text.headings.map { .init(title: $0.title, offset: $0.offset) }))
        }
      }
      let found = state.withLock { state in
        state.spine.filter { state.documents[$0] != nil }.count
      }
      guard found > 0 else {
        throw EpubError.notEpub("none of the documents its spine lists is in it")
      }
      finish(failure: nil)
    } catch {
      finish(failure: error)
    }
  }

  /// `body`'s failure as an ``EpubError`` (libarchive's and libxml2's readers throw them).
  private static func catching<Value>(_ body: () throws -> Value) throws(EpubError) -> Value {
    do {
      return try body()
    } catch let error as EpubError {
      throw error
    } catch {
      throw .damaged("\(error)")
    }
  }

  /// Keeps document `path`, and wakes the readers waiting for the text it completes.
  private func publish(_ path: String, _ document: Document) {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.documents[path] = document
      while state.ready < state.spine.count, let next = state.documents[state.spine[state.ready]] {
        state.readyBytes += next.bytes.count + Self.separator.count
        state.ready += 1
      }
      let bytes = state.readyBytes
      let woken = state.waiters.filter { $0.bytes <= bytes }.map(\.continuation)
      state.waiters.removeAll { $0.bytes <= bytes }
      return woken
    }
    for continuation in woken { continuation.resume() }
  }

  private func finish(failure: EpubError?) {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.finished = true
      state.failure = failure
      let woken = state.waiters.map(\.continuation)
      state.waiters = []
      return woken
    }
    for continuation in woken { continuation.resume() }
  }
}

/// The rest of a text whose start the reader shows (an EPUB still being read).
protocol RestOfText: Sendable {
  /// The whole text, once it is there.
  func whole() async throws(EpubError) -> BookText
}
