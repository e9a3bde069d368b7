import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The name a kosync server files a book's progress under, computed as KOReader computes it,
/// so a Kobo and this program meet on one record.
///
/// KOReader's progress sync has two "document matching methods": **binary** (its default), the
/// MD5 of up to twelve 1,024-byte samples of the file, taken at offsets 0, 1 KiB, 4 KiB, 16 KiB,
/// … 1 GiB (each four times the one before; LuaJIT's `bit.lshift(1024, 2*i)` for i = -1 wraps
/// its shift of -2 to 30 bits, which gives 0, not 256), stopping at the first offset past the end
/// of the file, a short last sample included; and **file name**, the MD5 of the file's base name.
public enum DocumentKey {
  /// How a document is matched, as KOReader's setting names it.
  public enum Method: String, Sendable, Hashable, CaseIterable {
    /// "Binary. Only identical files will sync progress." (KOReader's default).
    case binary
    /// "Filename. Files with the same name will sync progress."
    case filename
  }

  /// The offsets KOReader samples, in order.
  public static let sampleOffsets: [Int] = (0...11).map { $0 == 0 ? 0 : 1024 << (2 * ($0 - 1)) }
  /// The size of each sample.
  public static let sampleSize = 1024

  /// The binary key of the file at `path`: the MD5 of its samples; nil when it cannot be read.
  public static func binary(path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    var digest = MD5()
    var sample = [UInt8](repeating: 0, count: sampleSize)
    for offset in sampleOffsets {
      var filled = 0
      while filled < sampleSize {
        let count = sample.withUnsafeMutableBytes { buffer in
          pread(
            descriptor, buffer.baseAddress! + filled, sampleSize - filled, off_t(offset + filled))
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        filled += count
      }
      // Past the end, the read gives nothing and the sampling stops there.
      guard filled > 0 else { break }
      digest.update(sample[..<filled])
    }
    return digest.finish()
  }

  /// The file-name key of a file called `name` (its base name: the folders do not count).
  public static func fileName(_ name: String) -> String {
    MD5.hex(String(name.split(separator: "/").last ?? Substring(name)))
  }

  /// Project Gutenberg's own name for the file behind `url` (`pg84-images-3.epub` for
  /// `https://www.gutenberg.org/ebooks/84.epub3.images`), the name a file downloaded from
  /// Project Gutenberg, or sent by `gutenberg send`, has on a device; nil for a link of another
  /// shape.
  public static func gutenbergFileName(id: Int, url: URL) -> String? {
    let last = url.lastPathComponent
    let editions: [String: String] = [
      "epub3.images": "-images-3.epub", "epub.images": "-images.epub", "epub.noimages": ".epub",
      "kf8.images": "-images-kf8.mobi", "kindle.images": "-images.mobi",
      "kindle.noimages": ".mobi", "txt.utf-8": ".txt", "html.images": "-images.html",
      "html.noimages": ".html",
    ]
    if last.hasPrefix("\(id)."), let suffix = editions[String(last.dropFirst("\(id).".count))] {
      return "pg\(id)\(suffix)"
    }
    // A cache link already names the file (`/cache/epub/84/pg84-images-3.epub`).
    if last.hasPrefix("pg\(id)"), last.contains("."),
      last.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
    {
      return last
    }
    return nil
  }
}
