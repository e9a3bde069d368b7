import Foundation

/// Fixed-width values sorted in bounded memory: they are gathered in a buffer of `capacity`
/// values; each time it fills, it is sorted and written to a nameless temporary file as a run
/// (``SpillFile``), and ``forEachSorted(_:)`` merges the runs, reading each a few thousand values at
/// a time. So an index writer can sort a million keys (the popular order, posting lists, the
/// books of a feed by id) holding a few megabytes, whatever the catalogue's size; a sort that
/// fits the buffer never touches the disk.
///
/// Equal values keep no particular order: callers that need a stable order put a sequence
/// number in the value. The owner calls ``close()`` once.
struct ExternalSorter<Element: BitwiseCopyable & Comparable & Sendable>: Sendable {
  private let directory: URL
  private let capacity: Int
  private var buffer: [Element] = []
  private var file: SpillFile?
  /// Each run's place in the file, in values.
  private var runs: [Range<Int>] = []
  /// How many values were appended.
  private(set) var count = 0
  private var sorted = false

  /// The most values a run's reader holds at once.
  private static var readAhead: Int { max(1, (64 << 10) / MemoryLayout<Element>.stride) }

  /// A sorter holding at most `capacity` values in memory, its runs in `directory`.
  init(in directory: URL, capacity: Int) {
    self.directory = directory
    self.capacity = max(1, capacity)
  }

  /// Adds a value (before the first ``forEachSorted(_:)``).
  mutating func append(_ element: Element) throws(SyncFileError) {
    sorted = false
    buffer.append(element)
    count += 1
    if buffer.count >= capacity { try writeRun() }
  }

  private mutating func writeRun() throws(SyncFileError) {
    buffer.sort()
    var spill = file ?? SpillFile(in: directory, bufferSize: 1 << 16)
    let start = spill.size / MemoryLayout<Element>.stride
    try spill.appendRaw(buffer)
    try spill.flush()
    file = spill
    runs.append(start..<(start + buffer.count))
    buffer.removeAll(keepingCapacity: true)
  }

  /// Calls `body` with every value appended, in ascending order. May be called again (the
  /// runs stay); appending after it starts the sort anew.
  mutating func forEachSorted(_ body: (Element) throws -> Void) throws {
    if runs.isEmpty {
      if !sorted {
        buffer.sort()
        sorted = true
      }
      for element in buffer { try body(element) }
      return
    }
    if !buffer.isEmpty { try writeRun() }
    guard let file else { return }
    try Self.merge(runs, of: file, body)
  }

  /// A k-way merge of sorted runs through a binary heap of their current values.
  private static func merge(
    _ runs: [Range<Int>], of file: SpillFile, _ body: (Element) throws -> Void
  ) throws {
    let width = MemoryLayout<Element>.stride
    var cursors = runs.map { RunCursor<Element>(next: $0.lowerBound, end: $0.upperBound) }
    func refill(_ cursor: inout RunCursor<Element>) throws(SyncFileError) -> Bool {
      let count = min(readAhead, cursor.end - cursor.next)
      guard count > 0 else { return false }
      var failure: SyncFileError?
      cursor.values = [Element](unsafeUninitializedCapacity: count) { values, initialized in
        do {
          try file.read(at: cursor.next * width, into: UnsafeMutableRawBufferPointer(values))
          initialized = count
        } catch let error as SyncFileError {
          failure = error
          initialized = 0
        } catch {
          initialized = 0
        }
      }
      if let failure { throw failure }
      cursor.next += count
      cursor.index = 0
      return true
    }
    // The heap holds the numbers of the cursors that have a value, smallest value on top.
    var heap: [Int] = []
    func value(_ cursor: Int) -> Element { cursors[cursor].values[cursors[cursor].index] }
    func siftDown(_ start: Int) {
      var parent = start
      while true {
        let left = 2 * parent + 1
        guard left < heap.count else { return }
        var child = left
        if left + 1 < heap.count, value(heap[left + 1]) < value(heap[left]) { child = left + 1 }
        guard value(heap[child]) < value(heap[parent]) else { return }
        heap.swapAt(child, parent)
        parent = child
      }
    }
    for number in cursors.indices where try refill(&cursors[number]) { heap.append(number) }
    for start in stride(from: heap.count / 2, through: 0, by: -1) { siftDown(start) }
    while let top = heap.first {
      try body(value(top))
      cursors[top].index += 1
      if cursors[top].index == cursors[top].values.count, !(try refill(&cursors[top])) {
        heap[0] = heap[heap.count - 1]
        heap.removeLast()
      }
      if !heap.isEmpty { siftDown(0) }
    }
  }

  /// Frees the runs' file.
  func close() {
    file?.close()
  }
}

/// Where a merge stands in one run of an ``ExternalSorter``: the next value's place in the
/// file, the run's end, and the values read ahead.
private struct RunCursor<Element> {
  var next: Int
  var end: Int
  var values: [Element] = []
  var index = 0
}
