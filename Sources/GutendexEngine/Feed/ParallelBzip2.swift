import CBzip2
import Foundation

/// Decompresses a bzip2 file as it arrives, its blocks on several threads: bzip2 blocks are
/// independent, so each is found in the compressed bits (``Bzip2Scanner``: a block starts with
/// a 48-bit magic at any bit offset), decoded on a worker as a stream of its own
/// (``Bzip2Job``) a few blocks ahead of the reader, and handed on in order. A magic found
/// inside compressed data by chance makes a pair of candidates that does not decode (on its
/// CRC at the latest): it is joined with the next candidate and decoded again, here. The
/// streams' structure is checked as they end (each stream's combined CRC), and several
/// streams one after another (as pbzip2 writes) are read as one.
///
/// Memory is bounded whatever the input: a few blocks' compressed bits, one output buffer per
/// block in flight (a block that expands past it, a bzip2 bomb, is checked on its worker and
/// then decoded again a buffer at a time as it is read), and one decoder per thread.
final class ParallelBzip2 {
  /// Why libbz2 could not be opened, nil once it is (only a feed sync decompresses bzip2).
  static var loadFailure: UnsafePointer<CChar>? { gb_bz2_load() }

  /// Whether `bytes` begin as a bzip2 stream does ("BZh" and a block size digit).
  static func isBzip2(_ bytes: some Collection<UInt8>) -> Bool {
    let head = Array(bytes.prefix(4))
    return head.count == 4 && head[0] == 0x42 && head[1] == 0x5A && head[2] == 0x68
      && (0x31...0x39).contains(head[3])
  }

  /// The input is not a readable bzip2 stream: damaged, cut off, or not bzip2 at all.
  struct Failure: Error, Sendable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
  }

  /// What the reading found, for the tests and the bench.
  struct Counts: Equatable {
    /// Blocks decoded.
    var blocks = 0
    /// Streams ended (more than one in a multi-stream file).
    var streams = 0
    /// Magics found inside compressed data (each a candidate joined with the next one).
    var falseCandidates = 0
    /// Blocks too large for a buffer, decoded a second time as they were read.
    var largeBlocks = 0
  }

  /// No block's compressed bits are longer: at most 18,002 selectors of 50 symbols, each at
  /// most 20 bits, plus the tables (about 2.3 MB).
  static let maxBlockBits = 20_000_000

  /// Blocks decoded ahead of the one being read.
  let ahead: Int
  private(set) var counts = Counts()

  private let next: () throws -> Data?
  private let isCancelled: () -> Bool
  private let bufferSize: Int
  private var window = Bzip2Window()
  private var scanner = Bzip2Scanner()
  private var inputEnded = false
  // Candidates at or after `position`, in order (`candidateHead` is the first one still held).
  private var candidates: [Bzip2Scanner.Candidate] = []
  private var candidateHead = 0
  // The candidate (an index in `candidates`) whose block is the next to be given a job.
  private var jobCursor = 0
  // Jobs decoding ahead, in the order of their blocks (`jobHead` is the first one still held).
  private var jobs: [Bzip2Job] = []
  private var jobHead = 0
  private var free: [Bzip2Buffer] = []
  private var lent: Bzip2Buffer?
  private let workers: Bzip2Workers
  // The control thread's own decoder: joined candidates, and large blocks decoded again.
  private var own: Bzip2Decoder?
  private var streaming: Streaming?
  // Buffers in all (free, with a job, or lent): one more than `ahead` are kept.
  private var buffers = 0

  /// A large block being decoded again, a buffer at a time.
  private struct Streaming {
    var job: Bzip2Job
    var consumed = 0
    var begun = false
  }

  // Where the reading is: the bit every earlier block and stream has been confirmed up to.
  private var position = 0
  private var phase = Phase.header
  private var combined: UInt32 = 0

  private enum Phase {
    case header, blocks, done
  }

  /// Reads the compressed input from `first` (bytes already received) then `next` (the next
  /// piece, nil at the end; what it throws ends the reading); `isCancelled` is checked between
  /// blocks. libbz2 must have been loaded. Throws ``Failure`` as ``read()`` does (`first` is
  /// scanned for blocks here).
  init(
    first: Data = Data(), next: @escaping () throws -> Data?, isCancelled: @escaping () -> Bool,
    threads: Int = 2, ahead: Int = 3, bufferSize: Int = 4 << 20
  ) throws(Failure) {
    self.next = next
    self.isCancelled = isCancelled
    self.ahead = ahead
    self.bufferSize = bufferSize
    workers = Bzip2Workers(count: threads)
    free = (0...ahead).map { _ in Bzip2Buffer(size: bufferSize) }
    buffers = free.count
    if !first.isEmpty { try append(first) }
  }

  deinit {
    workers.close()
  }

  /// Stops the worker threads (after the block each is on).
  func close() {
    workers.close()
  }

  /// The next bytes of the decompressed output, in order, valid until the next call; nil at
  /// the end of the last stream. Throws ``Failure`` for input that is not bzip2, damaged or cut
  /// off, what `next` threw, or `CancellationError`.
  func read() throws -> UnsafeRawBufferPointer? {
    if let lent {
      recycle(lent)
      self.lent = nil
    }
    while true {
      if isCancelled() { throw CancellationError() }
      if let chunk = try readStreaming() { return chunk }
      switch phase {
      case .done:
        return nil
      case .header:
        let byte = position >> 3
        try fill(throughByte: byte + 4)
        guard window.end > byte else {
          guard counts.streams > 0 else { throw Failure(reason: "an empty file, not bzip2") }
          phase = .done
          return nil
        }
        let header = window.bytes[(byte - window.base)...].prefix(4)
        guard Self.isBzip2(header) else {
          guard counts.streams > 0 else { throw Failure(reason: "not a bzip2 file") }
          // What follows the last stream is not bzip2: ignored, as bzip2 itself does.
          phase = .done
          return nil
        }
        position += 32
        combined = 0
        phase = .blocks
      case .blocks:
        try topUp()
        try fill(throughByte: (position >> 3) + 16)
        guard window.end * 8 >= position + 48 else { throw cutOff() }
        let magic = try window.bits(at: position, width: 48)
        if magic == Bzip2Scanner.blockMagic {
          let job = try block(at: position)
          let crc = UInt32(try window.bits(at: position + 48, width: 32))
          combined = (combined << 1 | combined >> 31) ^ crc
          counts.blocks += 1
          advance(to: job.end)
          switch job.outcome {
          case .decoded(let count):
            guard count > 0 else {
              recycle(job.output)
              continue
            }
            lent = job.output
            return UnsafeRawBufferPointer(rebasing: job.output.bytes[..<count])
          case .large:
            counts.largeBlocks += 1
            streaming = Streaming(job: job)
          case .failed, .cutOff:
            // Unreachable: block(at:) returns a job only when it decoded (it throws otherwise).
            assertionFailure("block(at:) returns decoded blocks only")
            throw Failure(reason: "damaged bzip2 data at byte \(job.start >> 3)")
          }
        } else if magic == Bzip2Scanner.endMagic {
          guard window.end * 8 >= position + 80 else { throw cutOff() }
          let stored = UInt32(try window.bits(at: position + 48, width: 32))
          guard stored == combined else {
            throw Failure(
              reason: "a damaged bzip2 stream: its CRC does not match its blocks' "
                + "(byte \(position >> 3))")
          }
          counts.streams += 1
          advance(to: (position + 80 + 7) & ~7)
          phase = .header
        } else {
          throw Failure(reason: "damaged bzip2 data at byte \(position >> 3)")
        }
      }
    }
  }

  /// Reads on to the end of the last stream, checking it, and discards what it holds (the
  /// archive ended before: the end-of-archive blocks of a tar are its last bytes).
  func finish() throws {
    while try read() != nil {}
  }

  // MARK: - Blocks

  /// The decoded job of the block at `start`: the pair of candidates from `start` to the next
  /// one, else to the one after it (the one between was a magic inside the block's data), and
  /// so on.
  private func block(at start: Int) throws -> Bzip2Job {
    // Jobs of candidates passed over (inside a stream's end, or joined) are done with.
    while jobHead < jobs.count, jobs[jobHead].start < start { retire(jobs[jobHead]) }
    guard let first = candidates[candidateHead...].firstIndex(where: { $0.bit == start }) else {
      throw Failure(reason: "damaged bzip2 data at byte \(start >> 3)")
    }
    var last = first + 1
    while true {
      while last >= candidates.count, !inputEnded,
        window.end * 8 - start <= Self.maxBlockBits + 64
      {
        try readMore()
      }
      let end: Int
      if last < candidates.count {
        end = candidates[last].bit
      } else if inputEnded {
        end = window.end * 8
      } else {
        throw Failure(reason: "damaged bzip2 data at byte \(start >> 3): no block ends there")
      }
      guard end - start <= Self.maxBlockBits else {
        throw Failure(reason: "damaged bzip2 data at byte \(start >> 3): no block ends there")
      }
      let job: Bzip2Job
      if last == first + 1, jobHead < jobs.count, jobs[jobHead].start == start {
        job = jobs[jobHead]
        job.wait()
        jobHead += 1
      } else {
        // A candidate was not a block's end: this pair is decoded here, now.
        if own == nil { own = Bzip2Decoder() }
        job = try Bzip2Job(start: start, end: end, window: window, output: takeBuffer())
        job.run(on: own)
        job.wait()
      }
      switch job.outcome {
      case .decoded, .large:
        return job
      case .failed, .cutOff:
        recycle(job.output)
        guard last < candidates.count else {
          // Up to the end of the input and still no block: cut off when no stream end came
          // after it, else damaged.
          let ended = candidates[(first + 1)...].contains { $0.kind == .end }
          guard ended, case .failed(let reason) = job.outcome else { throw cutOff() }
          throw Failure(reason: "damaged bzip2 data at byte \(start >> 3) (\(reason))")
        }
      }
      counts.falseCandidates += 1
      last += 1
    }
  }

  /// The next buffer of a large block decoded again (nil when none is under way, or it ended).
  private func readStreaming() throws -> UnsafeRawBufferPointer? {
    guard var stream = streaming else { return nil }
    if own == nil { own = Bzip2Decoder() }
    guard let own else { throw Failure(reason: "out of memory") }
    if !stream.begun {
      guard own.begin() else { throw Failure(reason: "out of memory") }
      stream.begun = true
    }
    let job = stream.job
    while true {
      if isCancelled() { throw CancellationError() }
      let step = job.input.withUnsafeBytes { input in
        own.run(UnsafeRawBufferPointer(rebasing: input[stream.consumed...]), into: job.output.bytes)
      }
      stream.consumed += step.consumed
      switch step.status {
      case BZ_STREAM_END where stream.consumed == job.input.count:
        streaming = nil
        guard step.produced > 0 else {
          recycle(job.output)
          return nil
        }
        lent = job.output
      case BZ_OK where step.consumed > 0 || step.produced > 0:
        streaming = stream
        if step.produced == 0 { continue }
      default:
        // The same bits decoded on the worker: they cannot fail now unless memory ran out.
        throw Failure(reason: "damaged bzip2 data at byte \(job.start >> 3)")
      }
      return UnsafeRawBufferPointer(rebasing: job.output.bytes[..<step.produced])
    }
  }

  /// Gives blocks to the workers until `ahead` are in flight, reading more input as their
  /// ends are needed.
  private func topUp() throws {
    while jobs.count - jobHead < ahead, !free.isEmpty {
      while jobCursor < candidates.count,
        candidates[jobCursor].kind == .end || candidates[jobCursor].bit < position
      {
        jobCursor += 1
      }
      if jobCursor + 1 < candidates.count || (jobCursor < candidates.count && inputEnded) {
        let start = candidates[jobCursor].bit
        let end = jobCursor + 1 < candidates.count ? candidates[jobCursor + 1].bit : window.end * 8
        jobCursor += 1
        guard end - start <= Self.maxBlockBits else { continue }
        let job = try Bzip2Job(start: start, end: end, window: window, output: takeBuffer())
        jobs.append(job)
        workers.submit(job)
        continue
      }
      // No pair to give yet: more input, unless it ended or the last candidate is already
      // further back than any block is long (the stream is damaged; the reading will say so).
      let last = candidates.last?.bit ?? position
      guard !inputEnded, window.end * 8 - last <= Self.maxBlockBits else { return }
      try readMore()
    }
  }

  /// Done with a job the reading passed over: its buffer goes back once its worker is done.
  private func retire(_ job: Bzip2Job) {
    job.wait()
    recycle(job.output)
    jobHead += 1
  }

  /// A free buffer, or a new one when all are in use (a pair of candidates decoded here).
  private func takeBuffer() -> Bzip2Buffer {
    if let buffer = free.popLast() { return buffer }
    buffers += 1
    return Bzip2Buffer(size: bufferSize)
  }

  /// A buffer no longer used: kept for the next block, or freed when more than `ahead + 1`
  /// exist (after candidates were decoded here while every buffer was in use).
  private func recycle(_ buffer: Bzip2Buffer) {
    if buffers > ahead + 1 {
      buffers -= 1
    } else {
      free.append(buffer)
    }
  }

  /// Moves the confirmed position to `bit`, dropping what lies before it.
  private func advance(to bit: Int) {
    position = bit
    while candidateHead < candidates.count, candidates[candidateHead].bit < position {
      candidateHead += 1
    }
    if candidateHead > 256 {
      candidates.removeFirst(candidateHead)
      jobCursor = max(jobCursor - candidateHead, 0)
      candidateHead = 0
    }
    if jobHead > 64 {
      jobs.removeFirst(jobHead)
      jobHead = 0
    }
    window.drop(before: min(position >> 3, scanner.next))
  }

  private func cutOff() -> Failure {
    Failure(reason: "the bzip2 stream is cut off (\(window.end) bytes)")
  }

  // MARK: - Input

  /// Reads input until byte `index` is held or the input ended.
  private func fill(throughByte index: Int) throws {
    while window.end <= index, !inputEnded { try readMore() }
  }

  private func readMore() throws {
    if isCancelled() { throw CancellationError() }
    guard let piece = try next() else {
      inputEnded = true
      try scan()
      return
    }
    try append(piece)
  }

  private func append(_ piece: Data) throws(Failure) {
    piece.withUnsafeBytes { window.append($0) }
    try scan()
  }

  private func scan() throws(Failure) {
    let bytes = window.bytes
    try scanner.scan(bytes, base: window.base, final: inputEnded) { candidates.append($0) }
  }
}
