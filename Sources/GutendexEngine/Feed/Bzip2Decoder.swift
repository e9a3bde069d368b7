import CBzip2

/// One thread's libbz2 decompressor, reused for stream after stream (its state and 3.6 MB
/// block buffer are kept, not allocated and faulted in again for every block).
final class Bzip2Decoder {
  /// What one call of ``run(_:into:)`` did.
  struct Step {
    /// libbz2's status: `BZ_OK`, `BZ_STREAM_END` or an error.
    var status: Int32
    /// Bytes of the input consumed.
    var consumed: Int
    /// Bytes written to the output.
    var produced: Int
  }

  private let decoder: OpaquePointer

  /// Nil when out of memory. libbz2 must have been loaded (``ParallelBzip2/loadFailure``).
  init?() {
    guard let decoder = gb_bz2_decoder_new() else { return nil }
    self.decoder = decoder
  }

  deinit {
    gb_bz2_decoder_free(decoder)
  }

  /// Starts a new stream; false when libbz2 could not (out of memory).
  func begin() -> Bool {
    gb_bz2_decoder_begin(decoder) == BZ_OK
  }

  /// Decompresses from `input` into `output`, as far as either goes.
  func run(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Step {
    var consumed = input.count
    var produced = output.count
    let status = gb_bz2_decoder_run(
      decoder, input.baseAddress, &consumed, output.baseAddress, &produced)
    return Step(status: status, consumed: consumed, produced: produced)
  }

  /// libbz2's status in words, for an error line.
  static func describe(_ status: Int32) -> String {
    switch status {
    case BZ_DATA_ERROR: "damaged data"
    case BZ_DATA_ERROR_MAGIC: "not bzip2 data"
    case BZ_MEM_ERROR: "out of memory"
    case BZ_UNEXPECTED_EOF: "cut off"
    default: "libbz2 error \(status)"
    }
  }
}
