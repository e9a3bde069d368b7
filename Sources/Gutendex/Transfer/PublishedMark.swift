import Foundation

/// `<name>.done`: the evidence that a file at `<name>` was published by this program and is
/// complete, kept from just before the file gets its name until its library row is recorded.
///
/// A kill between the two leaves the file without a row; the next `get` of the same book and
/// target finds the mark, checks the file's size against it, and adopts the file instead of
/// refusing it as "already exists".
package struct PublishedMark: Codable, Sendable, Hashable {
  /// The file name's suffix.
  static let suffix = ".done"

  /// The URL asked for (before redirects).
  package var url: String
  /// The size of the complete file.
  package var size: Int64
  /// The server's ETag or Last-Modified, for the library row.
  package var validator: String?

  static func path(for destination: URL) -> String {
    destination.path + suffix
  }

  /// Writes the mark for `destination` (whole, then renamed, never through a link).
  func write(for destination: URL) throws(DownloadFile.Failure) {
    let data: Data
    do {
      data = try JSONEncoder().encode(self)
    } catch {
      throw DownloadFile.Failure(reason: "cannot encode the download mark: \(error)")
    }
    try DownloadFile.writeAtomically(data, to: Self.path(for: destination))
  }

  /// The mark for `destination`, when there is a valid one.
  package static func read(for destination: URL) -> PublishedMark? {
    guard
      case .contents(let data) = DownloadFile.readSmall(path(for: destination), limit: 64 * 1024),
      let mark = try? JSONDecoder().decode(PublishedMark.self, from: data), mark.size >= 0,
      mark.validator.map({ PartialDownload.problem(validator: $0) == nil }) ?? true
    else { return nil }
    return mark
  }

  /// Removes the mark: the library row is recorded (or the file is not ours).
  static func remove(for destination: URL) {
    DownloadFile.removeRegular(path(for: destination))
  }
}
