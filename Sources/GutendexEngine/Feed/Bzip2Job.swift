import CBzip2
import Dispatch

/// One block of a bzip2 stream to decode on a worker: a candidate's bits (``Bzip2Scanner``) up
/// to the next candidate, wrapped as a stream of its own so libbz2 decodes it alone (the
/// header `BZh9`, the block's bits moved to a byte boundary, the end-of-stream magic and, as
/// the stream's CRC, the block's own CRC, which is what a one-block stream's CRC is). The
/// block is decoded whole before any of it is used: a pair of candidates that is not a
/// block (a magic found inside compressed data by chance) fails here, on its CRC at the
/// latest, and its output is never handed on.
final class Bzip2Job: @unchecked Sendable {
  // Sendable: `start`, `end` and `input` never change; `output`'s bytes and `outcome` are
  // written only by the one worker running the job, before it signals `done`, and read by
  // the control thread only after `wait()` returned (the semaphore orders the writes first).

  /// What decoding the block gave.
  enum Outcome: Equatable {
    /// A block, verified: its bytes are the first `count` of ``output``.
    case decoded(Int)
    /// A block, verified, whose `count` bytes did not fit ``output``: none were kept (it is
    /// decoded again as it is read, a buffer at a time).
    case large(Int)
    /// Not a block (or a damaged one), and why.
    case failed(String)
    /// The bits end before the block does.
    case cutOff
  }

  /// The block's bits in the input: from its magic to the next candidate.
  let start: Int
  let end: Int
  /// The one-block stream libbz2 decodes.
  let input: [UInt8]
  /// Where the block's bytes go.
  let output: Bzip2Buffer
  private(set) var outcome = Outcome.failed("not decoded")
  private let done = DispatchSemaphore(value: 0)
  private var finished = false

  /// Throws when `start..<end` is not held in `window` (see ``Bzip2Window/copyBits(from:to:into:)``).
  init(
    start: Int, end: Int, window: borrowing Bzip2Window, output: Bzip2Buffer
  ) throws(ParallelBzip2.Failure) {
    self.start = start
    self.end = end
    self.output = output
    var input: [UInt8] = [0x42, 0x5A, 0x68, 0x39]  // "BZh9": the largest blocks allowed
    input.reserveCapacity(4 + (end - start + 80) / 8 + 2)
    var used = try window.copyBits(from: start, to: end, into: &input)
    // The end of the stream: its magic, then the block's CRC (the 32 bits after its magic).
    let crc = try window.bits(at: start + 48, width: 32)
    for (value, width) in [(Bzip2Scanner.endMagic, 48), (crc, 32)] {
      for bit in (0..<width).reversed() {
        if used == 8 {
          input.append(0)
          used = 0
        }
        if (value >> UInt64(bit)) & 1 != 0 {
          input[input.count - 1] |= 0x80 >> UInt8(used)
        }
        used += 1
      }
    }
    self.input = input
  }

  /// Decodes the block with `decoder` (on a worker), then lets ``wait()`` return.
  func run(on decoder: Bzip2Decoder?) {
    outcome = decode(decoder)
    done.signal()
  }

  /// Waits until the job has run (at once after the first time).
  func wait() {
    guard !finished else { return }
    done.wait()
    finished = true
  }

  private func decode(_ decoder: Bzip2Decoder?) -> Outcome {
    guard let decoder, decoder.begin() else { return .failed("out of memory") }
    let output = self.output.bytes
    return input.withUnsafeBytes { input in
      var consumed = 0
      var kept = 0
      var total = 0
      var large = false
      while true {
        let step = decoder.run(
          UnsafeRawBufferPointer(rebasing: input[consumed...]),
          into: UnsafeMutableRawBufferPointer(rebasing: output[kept...]))
        consumed += step.consumed
        kept += step.produced
        total += step.produced
        switch step.status {
        case BZ_STREAM_END:
          guard consumed == input.count else { return .failed("data after the block's end") }
          return large ? .large(total) : .decoded(kept)
        case BZ_OK:
          if kept == output.count {
            // Too large to hold: decoded on to check it, then decoded again as it is read.
            large = true
            kept = 0
          } else if step.consumed == 0, step.produced == 0 {
            return .cutOff
          }
        default:
          return .failed(Bzip2Decoder.describe(step.status))
        }
      }
    }
  }
}

/// A block's output buffer, reused from block to block.
final class Bzip2Buffer: @unchecked Sendable {
  // Sendable: handed whole from the control thread to one worker with its job and back (see
  // ``Bzip2Job``); never used by two threads at once.
  let bytes: UnsafeMutableRawBufferPointer

  init(size: Int) {
    bytes = .allocate(byteCount: size, alignment: 16)
  }

  deinit {
    bytes.deallocate()
  }
}
