import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The unfinished form of a download: `<name>.part` with the bytes so far, and
/// `<name>.part.info` saying where they came from and which version of the file they are, so a
/// later run can ask for the rest with `Range` and `If-Range`.
///
/// Nothing here follows a symbolic link: the files are opened with `O_NOFOLLOW` and must be
/// regular files, and everything read from them is checked before it is used (a validator goes
/// out as a request header, so it must be a valid header value).
package struct PartialDownload: Sendable {
  /// What the sidecar records.
  package struct Info: Codable, Sendable, Hashable {
    /// The URL asked for (before redirects): another URL's part is never resumed.
    var url: String
    /// The strong ETag, else the Last-Modified date: sent as `If-Range`.
    var validator: String
    /// The full size, when known.
    var total: Int64?
  }

  /// What the sidecar on disk is worth.
  package enum Sidecar: Sendable, Hashable {
    /// No sidecar.
    case absent
    /// A sidecar that can be trusted.
    case valid(Info)
    /// A sidecar that must not be used, and why (damaged JSON, a validator with control
    /// characters, a negative size, not a regular file).
    case damaged(String)
  }

  let destination: URL

  /// The part files of a download to `destination`.
  package init(destination: URL) {
    self.destination = destination
  }

  var partURL: URL { URL(fileURLWithPath: destination.path + ".part") }
  package var infoURL: URL { URL(fileURLWithPath: destination.path + ".part.info") }
  var lockURL: URL { URL(fileURLWithPath: destination.path + ".part.lock") }

  /// Largest sidecar read: a real one is a few hundred bytes.
  static let sidecarLimit = 64 * 1024

  /// Where to resume a download of `url`: the part's size and validator, when both files are
  /// there, are regular files, the sidecar is valid and is for `url` or one of `sameFile` (the
  /// same file at another mirror: `If-Range` and the size check on the 206 make that server
  /// continue it only when its copy has the same validator and size).
  func resumePoint(for url: URL, sameFile: [URL] = []) -> (offset: Int64, info: Info)? {
    guard case .valid(let info) = sidecar(),
      info.url == url.redacted || sameFile.contains(where: { $0.redacted == info.url }),
      case .regular(let size) = DownloadFile.kind(partURL.path), size > 0
    else { return nil }
    if let total = info.total, size > total { return nil }
    return (size, info)
  }

  /// Reads and checks the sidecar, without following a link.
  package func sidecar() -> Sidecar {
    let data: Data
    switch DownloadFile.readSmall(infoURL.path, limit: Self.sidecarLimit) {
    case .missing: return .absent
    case .failed(let reason): return .damaged(reason)
    case .contents(let contents): data = contents
    }
    guard let info = try? JSONDecoder().decode(Info.self, from: data) else {
      return .damaged("it is not the JSON this program writes")
    }
    if let problem = Self.problem(validator: info.validator) {
      return .damaged("its validator \(problem)")
    }
    if let total = info.total, total < 0 { return .damaged("its size is negative") }
    guard let parsed = URL(string: info.url), parsed.scheme != nil else {
      return .damaged("its URL is not a URL")
    }
    return .valid(info)
  }

  /// Why `value` cannot be sent as an HTTP header value, nil when it can: only visible ASCII
  /// and spaces, checked scalar by scalar (in Swift `"\r\n"` is one `Character`, so a check on
  /// characters would miss it).
  static func problem(validator value: String) -> String? {
    if value.isEmpty { return "is empty" }
    if value.utf8.count > 1024 { return "is longer than 1024 bytes" }
    for byte in value.utf8 where byte < 0x20 || byte > 0x7E {
      return byte < 0x20 || byte == 0x7F
        ? "contains a control character" : "contains a character that is not ASCII"
    }
    return nil
  }

  /// Records the sidecar (written whole, then renamed over the old one, which replaces a link
  /// rather than writing through it).
  func save(_ info: Info) throws {
    if let problem = Self.problem(validator: info.validator) {
      throw DownloadFile.Failure(reason: "the server's validator \(problem)")
    }
    try DownloadFile.writeAtomically(JSONEncoder().encode(info), to: infoURL.path)
  }

  /// Size of the part file now (0 when absent or not a regular file).
  var partSize: Int64 {
    if case .regular(let size) = DownloadFile.kind(partURL.path) { return size }
    return 0
  }

  /// Forgets the sidecar: the part can no longer be resumed.
  func removeInfo() {
    DownloadFile.removeRegular(infoURL.path)
  }

  /// Removes both files (never a link or anything else put in their place).
  package func remove() {
    DownloadFile.removeRegular(partURL.path)
    DownloadFile.removeRegular(infoURL.path)
  }

  /// Where ``setAside()`` keeps another mirror's part while this one starts over.
  var asideURL: URL { URL(fileURLWithPath: destination.path + ".part.prev") }
  var asideInfoURL: URL { URL(fileURLWithPath: destination.path + ".part.prev.info") }

  /// Moves the part and its sidecar to `<name>.part.prev` (rename(2): a link put in their
  /// place is replaced, never followed), so a part another mirror left is not lost when this
  /// mirror's copy differs and the file starts over: it stays until the new one completes.
  func setAside() {
    guard case .regular = DownloadFile.kind(partURL.path),
      case .regular = DownloadFile.kind(infoURL.path)
    else { return }
    if rename(partURL.path, asideURL.path) == 0 {
      _ = rename(infoURL.path, asideInfoURL.path)
    }
  }

  /// Removes what ``setAside()`` kept: the file is complete.
  func removeAside() {
    DownloadFile.removeRegular(asideURL.path)
    DownloadFile.removeRegular(asideInfoURL.path)
  }

  /// True when a part and a valid sidecar exist.
  var isResumable: Bool {
    guard case .regular = DownloadFile.kind(partURL.path), case .valid = sidecar() else {
      return false
    }
    return true
  }

  /// The first of the part files that exists but is not a regular file (a link, a directory,
  /// a FIFO), nil when all are absent or regular.
  func unsafeFile() -> (path: String, kind: String)? {
    for path in [partURL.path, infoURL.path, destination.path + PublishedMark.suffix] {
      switch DownloadFile.kind(path) {
      case .absent, .regular: continue
      case .other(let kind): return (path, kind)
      }
    }
    return nil
  }

  /// The size of the file at `path` (0 when absent).
  func sizeOf(_ path: String) -> Int64 {
    if case .regular(let size) = DownloadFile.kind(path) { return size }
    return 0
  }
}
