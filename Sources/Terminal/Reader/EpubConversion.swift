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

  /// One document read, waiting for the documents before it in the spine.
  private struct Document: Sendable {
    let bytes: [UInt8]
    let headings: [TableOfContents.Entry]
  }

  private struct State {
    var spine: [String] = []
    /// Where each of the spine's documents is listed last.
    var lastMention: [String: Int] = [:]
    /// The text so far: the spine's documents from the first on, blank lines between them,
    /// each written there as soon as the ones before it are (and then no longer kept).
    var text: EpubTextBuffer?
    /// The headings of the text so far, at their offsets in it.
    var outline: [TableOfContents.Entry] = []
    /// Documents read before their turn (a zip need not keep the spine's order), or listed
    /// again later in the spine.
    var documents: [String: Document] = [:]
    /// Spine entries written, from the first on.
    var ready = 0
    var finished = false
    var failure: EpubError?
    var whole: BookText?
    var waiters: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Writes `document` (the next spine entry's) into the text; false when it does not fit.
    mutating func write(_ document: Document) -> Bool {
      guard let text, !document.bytes.isEmpty else { return true }
      let offset = text.count == 0 ? 0 : text.count + EpubConversion.separator.count
      guard text.count == 0 || text.append(EpubConversion.separator),
        text.append(document.bytes)
      else { return false }
      outline += document.headings.map { .init(title: $0.title, offset: $0.offset + offset) }
      return true
    }

    /// The text written so far, its headings; `partial` for the start of it.
    func bookText(partial: Bool) -> BookText {
      let bytes = text?.text(count: text?.count ?? 0) ?? TextBytes(data: Data())
      return BookText(
        bytes: bytes, outline: outline, linesAreParagraphs: true, isPartial: partial)
    }
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
  /// whole text when it is finished first (``BookText/isPartial`` says which). Either is the
  /// text as written so far, not a copy of it.
  package func text(covering bytes: Int) async throws(EpubError) -> BookText {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state in
        if state.finished || state.failure != nil || (state.text?.count ?? 0) >= bytes {
          return true
        }
        state.waiters.append((bytes, continuation))
        return false
      }
      if now { continuation.resume() }
    }
    return try state.withLock { state throws(EpubError) -> BookText in
      if let failure = state.failure { throw failure }
      if let whole = state.whole { return whole }
      if state.finished {
        let whole = state.bookText(partial: false)
        state.whole = whole
        return whole
      }
      return state.bookText(partial: true)
    }
  }

  /// The whole text.
  package func whole() async throws(EpubError) -> BookText {
    try await text(covering: .max)
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
      // Room for the most text a book may be, and the blank lines between its documents.
      let text = try EpubTextBuffer(
        capacity: Self.textLimit + Self.separator.count * package.spine.count)
      state.withLock { state in
        state.spine = package.spine
        state.lastMention = Dictionary(
          package.spine.enumerated().map { ($1, $0) }, uniquingKeysWith: { max($0, $1) })
        state.text = text
      }
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
          try publish(
            path,
            Document(
              bytes: text.bytes,
              headings: text.headings.map { .init(title: $0.title, offset: $0.offset) }))
        }
      }
      try finish()
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

  /// Writes document `path` into the text when the documents before it are there (else keeps
  /// it until they are), with those it was the last one missing for, and wakes the readers
  /// waiting for the text written.
  private func publish(_ path: String, _ document: Document) throws(EpubError) {
    let woken = try state.withLock {
      state throws(EpubError) -> [CheckedContinuation<Void, Never>] in
      state.documents[path] = document
      while state.ready < state.spine.count, let next = state.documents[state.spine[state.ready]] {
        guard state.write(next) else {
          throw EpubError.tooLarge("the book's text", limit: Self.textLimit)
        }
        let written = state.spine[state.ready]
        // Kept only for the spine's later mention of it.
        if state.lastMention[written] == state.ready { state.documents[written] = nil }
        state.ready += 1
      }
      return Self.wake(&state)
    }
    for continuation in woken { continuation.resume() }
  }

  /// The readers waiting for no more text than is written.
  private static func wake(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    let bytes = state.text?.count ?? 0
    let woken = state.waiters.filter { $0.bytes <= bytes }.map(\.continuation)
    state.waiters.removeAll { $0.bytes <= bytes }
    return woken
  }

  /// Writes the documents a missing one held back (one the spine lists and the zip has not),
  /// then ends the text; fails when the zip has none of the spine's documents.
  private func finish() throws(EpubError) {
    try state.withLock { state throws(EpubError) in
      var found = state.ready
      while state.ready < state.spine.count {
        if let next = state.documents[state.spine[state.ready]] {
          guard state.write(next) else {
            throw EpubError.tooLarge("the book's text", limit: Self.textLimit)
          }
          found += 1
        }
        state.ready += 1
      }
      state.documents = [:]
      guard found > 0 else {
        throw EpubError.notEpub("none of the documents its spine lists is in it")
      }
    }
    finish(failure: nil)
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
