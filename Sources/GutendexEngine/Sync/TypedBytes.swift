import Foundation

// `withUnsafeBytes` rethrows untyped errors; the catalogue's files throw `SyncFileError`, and
// these keep that type through the buffer's closure.
extension Array where Element == UInt8 {
  /// `withUnsafeBytes` for a body that throws ``SyncFileError``.
  func withFileBytes<Result>(
    _ body: (UnsafeRawBufferPointer) throws(SyncFileError) -> Result
  ) throws(SyncFileError) -> Result {
    let outcome = withUnsafeBytes { raw in
      Swift.Result { () throws(SyncFileError) in try body(raw) }
    }
    return try outcome.get()
  }

  /// `withUnsafeMutableBytes` for a body that throws ``SyncFileError``.
  mutating func withMutableFileBytes<Result>(
    _ body: (UnsafeMutableRawBufferPointer) throws(SyncFileError) -> Result
  ) throws(SyncFileError) -> Result {
    let outcome = withUnsafeMutableBytes { raw in
      Swift.Result { () throws(SyncFileError) in try body(raw) }
    }
    return try outcome.get()
  }
}

extension Data {
  /// `withUnsafeBytes` for a body that throws ``SyncFileError``.
  func withFileBytes<Result>(
    _ body: (UnsafeRawBufferPointer) throws(SyncFileError) -> Result
  ) throws(SyncFileError) -> Result {
    let outcome = withUnsafeBytes { raw in
      Swift.Result { () throws(SyncFileError) in try body(raw) }
    }
    return try outcome.get()
  }
}
