import Foundation

/// `synced-ids.json`: the ids of books whose record came from a server or the feed, a JSON
/// array of ascending numbers. After a feed refresh it lists every book, so it is read and
/// written as a stream: adding ids merges the file with them as both are read, and the new file
/// is written as it is made.
extension LocalCatalogueFiles {
  /// Adds the ids `fresh` gives (ascending; repeats are fine) to the synced ids; returns how
  /// many the file then holds. A file that is not such an array counts as empty (as it did
  /// when it was decoded whole); one whose numbers are not ascending is read whole and sorted.
  @discardableResult
  func addSyncedIDs(_ fresh: (_ body: (Int) throws -> Void) throws -> Void) throws -> Int {
    let path = syncedIDsURL.path
    var held: [Int]?
    switch SyncedIDReader.check(path) {
    case .ascending: held = nil
    case .unsorted: held = Array(readSyncedIDs()).sorted()
    case .none: held = []
    }
    var reader = held == nil ? SyncedIDReader(path: path) : nil
    defer { reader?.close() }
    var index = 0
    func nextHeld() -> Int? {
      if let held {
        defer { index += 1 }
        return index < held.count ? held[index] : nil
      }
      return reader?.next()
    }
    // Merged into a nameless temporary file first, then copied into place atomically.
    var merged = SpillFile(in: directory, bufferSize: 1 << 16)
    defer { merged.close() }
    var count = 0
    var last: Int?
    try merged.append(CollectionOfOne(UInt8(ascii: "[")))
    func put(_ id: Int) throws {
      guard id != last else { return }
      if last != nil { try merged.append(CollectionOfOne(UInt8(ascii: ","))) }
      try merged.append(String(id).utf8)
      last = id
      count += 1
    }
    var pending = nextHeld()
    try fresh { id in
      while let old = pending, old < id {
        try put(old)
        pending = nextHeld()
      }
      try put(id)
    }
    while let old = pending {
      try put(old)
      pending = nextHeld()
    }
    try merged.append(CollectionOfOne(UInt8(ascii: "]")))
    let result = merged
    try AtomicFile.write(to: syncedIDsURL) { (emit) throws(SyncFileError) in
      var piece: [UInt8] = []
      var offset = 0
      while offset < result.size {
        let length = min(SpillFile.largeBuffer, result.size - offset)
        try result.read(at: offset, count: length, into: &piece)
        try piece.withFileBytes { (bytes) throws(SyncFileError) in try emit(bytes) }
        offset += length
      }
    }
    return count
  }
}

/// Reads `synced-ids.json` one number at a time.
struct SyncedIDReader {
  private var file: FileReader?
  private var piece: [UInt8] = []
  private var position = 0

  /// What a file holds, found by reading it once.
  enum Shape {
    /// A JSON array of ascending numbers (what the writer writes).
    case ascending
    /// A JSON array of numbers not in order (written by hand?).
    case unsorted
  }

  init(path: String) {
    file = FileReader(path: path)
  }

  func close() {
    file?.close()
  }

  /// The file's shape; nil when it is absent or not a JSON array of non-negative numbers.
  static func check(_ path: String) -> Shape? {
    guard var file = FileReader(path: path) else { return nil }
    defer { file.close() }
    enum State { case start, opened, number, afterNumber, afterComma, closed }
    var state = State.start
    var piece: [UInt8] = []
    var number = 0
    var previous = -1
    var ascending = true
    while true {
      file.next(into: &piece)
      if piece.isEmpty { break }
      for byte in piece {
        let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        if state == .number, !digit {
          // A number ends: the ids must climb.
          if number <= previous { ascending = false }
          previous = number
        }
        switch (state, byte) {
        case (_, _) where isSpace && state != .number: continue
        case (.start, UInt8(ascii: "[")): state = .opened
        case (.opened, UInt8(ascii: "]")): state = .closed
        case (.opened, _) where digit, (.afterComma, _) where digit:
          number = Int(byte - UInt8(ascii: "0"))
          state = .number
        case (.number, _) where digit:
          let (times, overflow) = number.multipliedReportingOverflow(by: 10)
          guard !overflow, times <= Int.max - 9 else { return nil }
          number = times + Int(byte - UInt8(ascii: "0"))
        case (.number, _) where isSpace: state = .afterNumber
        case (.number, UInt8(ascii: ",")): state = .afterComma
        case (.number, UInt8(ascii: "]")): state = .closed
        case (.afterNumber, UInt8(ascii: ",")): state = .afterComma
        case (.afterNumber, UInt8(ascii: "]")): state = .closed
        default: return nil
        }
      }
    }
    guard state == .closed else { return nil }
    return ascending ? .ascending : .unsorted
  }

  /// The next number, nil at the end (only for a file ``check(_:)`` found ascending).
  mutating func next() -> Int? {
    var number: Int?
    while true {
      if position >= piece.count {
        guard var reader = file else { return number }
        reader.next(into: &piece)
        file = reader
        position = 0
        if piece.isEmpty { return number }
      }
      let byte = piece[position]
      if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        number = (number ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
        position += 1
      } else if let number {
        return number
      } else {
        position += 1
      }
    }
  }
}
