import Foundation

/// The unfinished form of a download: `<name>.part` with the bytes so far, and
/// `<name>.part.info` saying where they came from and which version of the file they are, so a
/// later run can ask for the rest with `Range` and `If-Range`.
struct PartialDownload: Sendable {
  /// What the sidecar records.
  struct Info: Codable, Sendable, Hashable {
    /// The URL asked for (before redirects): another URL's part is never resumed.
    var url: String
    /// The strong ETag, else the Last-Modified date: sent as `If-Range`.
    var validator: String
    /// The full size, when known.
    var total: Int64?
  }

  let destination: URL

  var partURL: URL { URL(fileURLWithPath: destination.path + ".part") }
  var infoURL: URL { URL(fileURLWithPath: destination.path + ".part.info") }

  /// Where to resume a download of `url`: the part's size and validator, when both files are
  /// there and are for `url`.
  func resumePoint(for url: URL) -> (offset: Int64, info: Info)? {
    guard let data = try? Data(contentsOf: infoURL),
      let info = try? JSONDecoder().decode(Info.self, from: data), info.url == url.absoluteString,
      let attributes = try? FileManager.default.attributesOfItem(atPath: partURL.path),
      let size = (attributes[.size] as? NSNumber)?.int64Value, size > 0
    else { return nil }
    return (size, info)
  }

  /// Records the sidecar (written whole, then renamed, so it is never half there).
  func save(_ info: Info) throws {
    let data = try JSONEncoder().encode(info)
    try data.write(to: infoURL, options: .atomic)
  }

  /// Size of the part file now (0 when absent).
  var partSize: Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: partURL.path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }

  /// Forgets the sidecar: the part can no longer be resumed.
  func removeInfo() {
    unlink(infoURL.path)
  }

  /// Removes both files.
  func remove() {
    unlink(partURL.path)
    unlink(infoURL.path)
  }

  /// True when a part and its sidecar exist.
  var isResumable: Bool {
    FileManager.default.fileExists(atPath: partURL.path)
      && FileManager.default.fileExists(atPath: infoURL.path)
  }

  /// The size of the file at `path` (0 when absent).
  func sizeOf(_ path: String) -> Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }
}
