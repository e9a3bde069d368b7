import CZlib
import Foundation

/// The zlib calls the snapshot tools need (reading the gzip-compressed source catalogue).
enum Zlib {
  /// Decompresses gzip data (all members, like `gzip -dc`) or a zlib stream; throws once the
  /// output would pass `limit` bytes (a small file that expands without end is refused).
  static func gunzip(_ data: Data, limit: Int = .max) throws -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(min(limit, data.count * 4))
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      guard let base = raw.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return }
      var offset = 0
      while offset < raw.count {
        var stream = z_stream()
        // 15 + 32: a zlib or gzip header, detected automatically.
        var status = inflateInit2_(
          &stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw EngineError.compression("inflateInit2 \(status)") }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: base + offset)
        stream.avail_in = uInt(raw.count - offset)
        repeat {
          status = chunk.withUnsafeMutableBufferPointer { buffer in
            stream.next_out = buffer.baseAddress
            stream.avail_out = uInt(buffer.count)
            return inflate(&stream, Z_NO_FLUSH)
          }
          guard status == Z_OK || status == Z_STREAM_END else {
            throw EngineError.compression("inflate returned \(status)")
          }
          let produced = chunk.count - Int(stream.avail_out)
          guard out.count + produced <= limit else {
            throw EngineError.compression("expands to more than \(limit) bytes")
          }
          out.append(contentsOf: chunk[0..<produced])
        } while status != Z_STREAM_END
        offset = raw.count - Int(stream.avail_in)
      }
    }
    return out
  }
}
