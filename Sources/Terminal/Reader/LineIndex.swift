/// Where lines are in a text, kept sparse: for each 64 KiB block, the number and start of the
/// line its first byte belongs to. One pass over the bytes builds it (a few milliseconds for
/// 50 MB, whatever the line lengths); a line's start or number is then found by scanning at
/// most one block.
///
/// `\n`, `\r\n` and `\r` each end a line; a line's number counts the line ends before it.
struct LineIndex: Sendable {
  /// Bytes per block, as a shift.
  static let blockShift = 16
  /// The number of the line holding each block's first byte.
  private var blockLine: [Int] = []
  /// The start of that line.
  private var blockLineStart: [Int] = []
  /// The first byte of the text (after a byte order mark).
  let origin: Int
  /// How many lines there are (a last line without a line end counts; an empty text has none).
  private(set) var lineCount = 0

  /// Indexes `bytes` from `origin`, releasing each scanned stretch of a mapped file.
  init(_ bytes: TextBytes, origin: Int) {
    self.origin = origin
    let count = bytes.count
    let blocks = (count >> Self.blockShift) + 1
    blockLine.reserveCapacity(blocks)
    blockLineStart.reserveCapacity(blocks)
    var line = 0
    var lineStart = origin
    var blockStart = 0
    // An empty text still has one block (line 0 at the origin).
    repeat {
      let blockEnd = min(count, blockStart + (1 << Self.blockShift))
      blockLine.append(line)
      blockLineStart.append(lineStart)
      if let base = bytes.base {
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
      }
      if blockEnd & ((1 << 22) - 1) == 0, blockEnd > 0 {
        bytes.release((blockEnd - (1 << 22))..<blockEnd)
      }
      blockStart = blockEnd
    } while blockStart < count
    bytes.release(0..<count)
    lineCount = line + (lineStart < count ? 1 : 0)
  }

  /// True for `\n` and `\r`.
  @inline(__always) static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

  /// The start of the line holding byte `offset` (a line's end bytes belong to it; pass the
  /// first of them).
  func lineStart(of offset: Int, in bytes: TextBytes) -> Int {
    let block = min(offset >> Self.blockShift, blockLine.count - 1)
    let lower = max(origin, block << Self.blockShift)
    var index = offset
    while index > lower {
      if Self.isLineEnd(bytes[index - 1]) { return index }
      index -= 1
    }
    return blockLineStart[block]
  }

  /// The number (from 0) of the line holding byte `offset`.
  func lineNumber(of offset: Int, in bytes: TextBytes) -> Int {
    let block = min(offset >> Self.blockShift, blockLine.count - 1)
    var line = blockLine[block]
    var index = max(origin, block << Self.blockShift)
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
    // The last block whose first byte is on line `number` or before it.
    var low = 0
    var high = blockLine.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if blockLine[middle] <= number { low = middle } else { high = middle - 1 }
    }
    if blockLine[low] == number { return blockLineStart[low] }
    var line = blockLine[low]
    var index = max(origin, low << Self.blockShift)
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0D || (byte == 0x0A && (index == origin || bytes[index - 1] != 0x0D)) {
        line += 1
        var next = index + 1
        if byte == 0x0D, next < bytes.count, bytes[next] == 0x0A { next += 1 }
        if line == number { return next }
        index = next
        continue
      }
      index += 1
    }
    return bytes.count
  }
}
