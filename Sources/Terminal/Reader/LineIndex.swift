import Synchronization

/// Where lines are in a text, kept sparse: for each 64 KiB block, the number and start of the
/// line its first byte belongs to. It is built as it is needed, block after block from the
/// start, so the first page of a 50 MB book is shown before the rest is read (a line's start
/// or number near the top needs only the first blocks); ``indexAll()`` finishes it (the reader
/// does so off the main actor). Once built, a line's start or number is found by scanning at
/// most one block.
///
/// `\n`, `\r\n` and `\r` each end a line; a line's number counts the line ends before it.
final class LineIndex: Sendable {
  /// Bytes per block, as a shift.
  static let blockShift = 16
  /// A text this small is indexed whole when it is opened (a few milliseconds at most).
  static let indexedAtOnce = 8 << 20

  /// What has been indexed: every block before `next`.
  private struct State {
    /// The number of the line holding each indexed block's first byte.
    var blockLine: [Int] = []
    /// The start of that line.
    var blockLineStart: [Int] = []
    /// The line and line start reached at the end of the last indexed block.
    var line = 0
    var lineStart: Int
    /// The first byte not yet indexed.
    var next = 0
    /// How many lines there are, once every block is indexed.
    var lineCount: Int?
  }

  private let bytes: TextBytes
  private let state: Mutex<State>
  /// The first byte of the text (after a byte order mark).
  let origin: Int

  /// An index of `bytes` from `origin`; a small text is indexed at once, a large one as it is
  /// needed.
  init(_ bytes: TextBytes, origin: Int) {
    self.bytes = bytes
    self.origin = origin
    state = Mutex(State(lineStart: origin))
    if bytes.count <= Self.indexedAtOnce { indexAll() }
  }

  /// How many lines there are (a last line without a line end counts; an empty text has none).
  var lineCount: Int {
    indexAll()
    return state.withLock { $0.lineCount ?? 0 }
  }

  /// True once every block is indexed (the line count is known without reading more).
  var isComplete: Bool { state.withLock { $0.lineCount != nil } }

  /// Indexes the rest of the text, a block at a time (the lock is free between blocks, so the
  /// reader's page turns are not held up while another thread finishes it).
  func indexAll() {
    var block = state.withLock { $0.blockLine.count }
    while !isComplete {
      index(through: block)
      block += 1
    }
  }

  /// Indexes blocks until block `block` is (or the text ends).
  private func index(through block: Int) {
    state.withLock { state in
      let count = bytes.count
      // An empty text still has one block (line 0 at the origin).
      while state.lineCount == nil, state.blockLine.count <= block {
        let blockStart = state.next
        let blockEnd = min(count, blockStart + (1 << Self.blockShift))
        state.blockLine.append(state.line)
        state.blockLineStart.append(state.lineStart)
        if let base = bytes.base {
          var line = state.line
          var lineStart = state.lineStart
          var index = max(origin, blockStart)
          while index < blockEnd {
            let byte = base[index]
            // One compare skips nearly every byte of a text.
            if byte <= 0x0D {
              if byte == 0x0D {
                line += 1
                lineStart = index + 1
              } else if byte == 0x0A {
                if index == origin || base[index - 1] != 0x0D { line += 1 }
                lineStart = index + 1
              }
            }
            index += 1
          }
          state.line = line
          state.lineStart = lineStart
        }
        // One pass over a 50 MB book leaves its pages in the page cache, not in this process.
        if blockEnd & ((1 << 22) - 1) == 0, blockEnd > 0 {
          bytes.release((blockEnd - (1 << 22))..<blockEnd)
        }
        state.next = blockEnd
        if blockEnd >= count {
          bytes.release((blockEnd & ~((1 << 22) - 1))..<count)
          state.lineCount = state.line + (state.lineStart < count ? 1 : 0)
        }
      }
    }
  }

  /// The entry of block `block` (indexed first when it is not yet), clamped to the last.
  private func entry(_ block: Int) -> (index: Int, line: Int, lineStart: Int) {
    index(through: block)
    return state.withLock { state in
      let index = min(block, state.blockLine.count - 1)
      return (index, state.blockLine[index], state.blockLineStart[index])
    }
  }

  /// True for `\n` and `\r`.
  @inline(__always) static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

  /// The start of the line holding byte `offset` (a line's end bytes belong to it; pass the
  /// first of them).
  func lineStart(of offset: Int, in bytes: TextBytes) -> Int {
    // Past the last block (the text's end): that block's entry is needed to know where.
    let found = offset < bytes.count ? nil : entry(offset >> Self.blockShift)
    let block = found?.index ?? offset >> Self.blockShift
    let lower = max(origin, block << Self.blockShift)
    var index = offset
    while index > lower {
      if Self.isLineEnd(bytes[index - 1]) { return index }
      index -= 1
    }
    // No line end in the block before `offset`: the line began where the block's did.
    return (found ?? entry(block)).lineStart
  }

  /// The number (from 0) of the line holding byte `offset`.
  func lineNumber(of offset: Int, in bytes: TextBytes) -> Int {
    let found = entry(offset >> Self.blockShift)
    var line = found.line
    var index = max(origin, found.index << Self.blockShift)
    while index < offset {
      let byte = bytes[index]
      if byte == 0x0D || (byte == 0x0A && (index == origin || bytes[index - 1] != 0x0D)) {
        line += 1
      }
      index += 1
    }
    return line
  }

  /// Where line `number` (from 0, within `0..<lineCount`) starts.
  func start(ofLine number: Int, in bytes: TextBytes) -> Int {
    // Index until a block starts past the line (or the text ends).
    var block = state.withLock { max(0, $0.blockLine.count - 1) }
    while !isComplete, state.withLock({ ($0.blockLine.last ?? 0) <= number }) {
      block += 1
      index(through: block)
    }
    let (low, line, lineStart) = state.withLock { state -> (Int, Int, Int) in
      // The last block whose first byte is on line `number` or before it.
      var low = 0
      var high = state.blockLine.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if state.blockLine[middle] <= number { low = middle } else { high = middle - 1 }
      }
      return (low, state.blockLine[low], state.blockLineStart[low])
    }
    if line == number { return lineStart }
    var current = line
    var index = max(origin, low << Self.blockShift)
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0D || (byte == 0x0A && (index == origin || bytes[index - 1] != 0x0D)) {
        current += 1
        var next = index + 1
        if byte == 0x0D, next < bytes.count, bytes[next] == 0x0A { next += 1 }
        if current == number { return next }
        index = next
        continue
      }
      index += 1
    }
    return bytes.count
  }
}
