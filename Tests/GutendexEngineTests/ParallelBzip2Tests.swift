import Foundation
import TestSupport
import Testing

@testable import GutendexEngine

/// ``ParallelBzip2`` gives back exactly what was compressed, in order, whatever the blocks and
/// streams: many small blocks, several streams one after another, a magic inside a block's
/// bits (taken for a block start, it must be joined with the next), a block too large for its
/// buffer; and damaged, cut off or foreign input is one ``ParallelBzip2/Failure``.
@Suite struct ParallelBzip2Tests {
  /// Words in no order (compressible as text is), `count` bytes of them.
  static func text(_ count: Int, seed: UInt64 = 1) -> Data {
    let words = [
      "the", "feed", "of", "Project", "Gutenberg", "holds", "one", "record", "per", "book,",
      "rdf:Description", "<pgterms:file>", "\n    ", "2025-08-01", "epub", "Dickens", "—", "é",
    ]
    var generator = Bzip2Writer.SplitMix(seed: seed)
    var out = Data(capacity: count + 32)
    while out.count < count {
      out.append(contentsOf: words[Int(generator.next() % UInt64(words.count))].utf8)
      out.append(0x20)
      if generator.next() % 7 == 0 { out.append(contentsOf: "\(generator.next() % 100_000)".utf8) }
    }
    return out.prefix(count)
  }

  /// Decompresses `compressed`, handed over `piece` bytes at a time; the output and the counts.
  static func decompress(
    _ compressed: Data, piece: Int = 7_001, bufferSize: Int = 4 << 20,
    cancelAfterFirst: Bool = false
  ) throws -> (Data, ParallelBzip2.Counts) {
    try #require(ParallelBzip2.loadFailure == nil)
    var offset = compressed.startIndex
    var cancelled = false
    let decoder = try ParallelBzip2(
      next: {
        guard offset < compressed.endIndex else { return nil }
        let end = min(offset + piece, compressed.endIndex)
        defer { offset = end }
        return Data(compressed[offset..<end])
      }, isCancelled: { cancelled }, bufferSize: bufferSize)
    defer { decoder.close() }
    var out = Data()
    while let chunk = try decoder.read() {
      out.append(contentsOf: chunk)
      cancelled = cancelAfterFirst
    }
    return (out, decoder.counts)
  }

  @Test func blocksOfSeveralStreamsComeBackInOrder() throws {
    let data = Self.text(1_500_000)
    // Level 1: blocks of 100 kB, so 15 or more, in three streams.
    let compressed = try Bzip2Writer.compress(data, level: 1, streams: 3)
    for piece in [1, 4_093, 1 << 20] where piece > 1 || compressed.count < 400_000 {
      let (out, counts) = try Self.decompress(compressed, piece: piece)
      #expect(out == data, "pieces of \(piece)")
      #expect(counts.streams == 3)
      #expect(counts.blocks >= 15, "\(counts)")
      #expect(counts.falseCandidates == 0, "\(counts)")
    }
  }

  @Test func aSingleStreamOfLevel9BlocksIsWhatBzip2Reads() throws {
    let data = Self.text(2_500_000, seed: 2)
    let compressed = try Bzip2Writer.compress(data, level: 9)
    let (out, counts) = try Self.decompress(compressed)
    #expect(out == data)
    #expect(counts.streams == 1)
    #expect(counts.blocks >= 2, "\(counts)")
  }

  /// Bytes whose blocks' headers spell a magic (``Bzip2Writer/falseMagicBytes``): the magic is
  /// found inside each block, a few bits after its start; the pair up to it fails and is joined
  /// with the next candidate, and the output is whole.
  @Test(arguments: [Bzip2Scanner.blockMagic, Bzip2Scanner.endMagic])
  func aMagicInsideABlockIsJoinedWithTheNextCandidate(magic: UInt64) throws {
    let data = Bzip2Writer.falseMagicBytes(count: 450_000, magic: magic)
    let compressed = try Bzip2Writer.compress(data, level: 1)
    let (out, counts) = try Self.decompress(compressed)
    #expect(out == data)
    #expect(counts.streams == 1)
    #expect(counts.blocks >= 4, "\(counts)")
    // The magic really is there, in every block: twice as many candidates as blocks and the
    // stream's end, each block's first pair failing.
    var scanner = Bzip2Scanner()
    var found: [Bzip2Scanner.Candidate] = []
    try compressed.withUnsafeBytes {
      try scanner.scan($0, base: 0, final: true) { found.append($0) }
    }
    #expect(found.count == 2 * counts.blocks + 1, "\(found)")
    #expect(counts.falseCandidates == counts.blocks, "\(counts)")
  }

  /// A block that expands past its buffer (runs of one byte, as a bzip2 bomb's) is checked on
  /// its worker without being kept, then decoded again a buffer at a time as it is read.
  @Test func aBlockLargerThanItsBufferIsReadABufferAtATime() throws {
    var data = Data(repeating: 0x20, count: 3_000_000)
    data.append(Self.text(200_000))
    data.append(Data(repeating: 0x41, count: 1_000_000))
    let compressed = try Bzip2Writer.compress(data, level: 9)
    #expect(compressed.count < 100_000)
    let (out, counts) = try Self.decompress(compressed, bufferSize: 256 << 10)
    #expect(out == data)
    #expect(counts.largeBlocks >= 1, "\(counts)")
  }

  @Test func damagedCutOffOrForeignInputIsOneFailure() throws {
    let data = Self.text(400_000, seed: 3)
    let compressed = try Bzip2Writer.compress(data, level: 1)
    func failure(_ input: Data) -> String? {
      do {
        _ = try Self.decompress(input)
        return nil
      } catch let failure as ParallelBzip2.Failure {
        return failure.reason
      } catch {
        return "another error: \(error)"
      }
    }
    // Cut in the middle of a block, and inside the stream's last ten bytes (its end and CRC).
    #expect(failure(compressed.prefix(compressed.count / 2))?.contains("cut off") == true)
    #expect(failure(compressed.prefix(compressed.count - 3))?.contains("cut off") == true)
    var flipped = compressed
    flipped[compressed.count / 3] ^= 0x10
    #expect(failure(flipped)?.contains("damaged") == true)
    #expect(failure(Data("BZh9 is not enough".utf8)) != nil)
    #expect(failure(Data("<html>Not Found</html>".utf8)) == "not a bzip2 file")
    // Bytes after the last stream that are not a stream are ignored, as bzip2 ignores them.
    let (out, _) = try Self.decompress(compressed + Data("trailing garbage".utf8))
    #expect(out == data)
  }

  @Test func aCancelledReadingStopsAtTheNextBlock() throws {
    let data = Self.text(1_000_000, seed: 4)
    let compressed = try Bzip2Writer.compress(data, level: 1)
    #expect(throws: CancellationError.self) {
      _ = try Self.decompress(compressed, cancelAfterFirst: true)
    }
    // The same input read to its end without the cancellation: the check is what stopped it.
    #expect(try Self.decompress(compressed).0 == data)
  }

  @Test func theScannerFindsEitherMagicAtEveryBitOffsetAcrossPieces() throws {
    for magic in [Bzip2Scanner.blockMagic, Bzip2Scanner.endMagic] {
      for shift in 0..<8 {
        // The magic at bit 8 * 5 + shift of 16 bytes of ones and zeros around it.
        var bits = [UInt8](repeating: 0, count: 16)
        let start = 40 + shift
        for bit in 0..<48 where (magic >> UInt64(47 - bit)) & 1 != 0 {
          bits[(start + bit) / 8] |= 0x80 >> UInt8((start + bit) % 8)
        }
        for split in [3, 6, 9, 16] {
          var scanner = Bzip2Scanner()
          var found: [Bzip2Scanner.Candidate] = []
          var held: [UInt8] = []
          var base = 0
          for (index, range) in [0..<split, split..<16].enumerated() {
            held += bits[range]
            try held.withUnsafeBytes {
              try scanner.scan($0, base: base, final: index == 1) { found.append($0) }
            }
            // What is scanned may be dropped (the reader drops what it has passed).
            let drop = scanner.next - base
            held.removeFirst(drop)
            base += drop
          }
          let kind: Bzip2Scanner.Kind = magic == Bzip2Scanner.blockMagic ? .block : .end
          #expect(found == [.init(bit: start, kind: kind)], "shift \(shift), split \(split)")
        }
      }
    }
  }
}
