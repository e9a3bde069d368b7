import Foundation

/// File names for downloads, made by us from the id and title, never taken from the server.
public enum DownloadNaming {
  /// `<id>-<slug>[suffix].<ext>`, e.g. `84-frankenstein-or-the-modern-prometheus.epub`.
  public static func fileName(id: Int, title: String, choice: BookFormat.Choice) -> String {
    "\(id)-\(slug(title))\(choice.nameSuffix).\(choice.fileExtension)"
  }

  /// Lower-case ASCII letters and digits joined by single dashes, accents folded, at most
  /// `limit` characters (cut at a dash when one is near); `book` when nothing is left.
  public static func slug(_ title: String, limit: Int = 60) -> String {
    let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
      .lowercased()
    var slug = ""
    var pendingDash = false
    for scalar in folded.unicodeScalars {
      let isSafe = scalar.isASCII && (("a"..."z").contains(scalar) || ("0"..."9").contains(scalar))
      if isSafe {
        if pendingDash, !slug.isEmpty { slug.append("-") }
        pendingDash = false
        slug.unicodeScalars.append(scalar)
      } else {
        pendingDash = true
      }
    }
    if slug.count > limit {
      let cut = String(slug.prefix(limit))
      if let dash = cut.lastIndex(of: "-"), cut.distance(from: cut.startIndex, to: dash) > limit / 2
      {
        slug = String(cut[..<dash])
      } else {
        slug = cut
      }
    }
    return slug.isEmpty ? "book" : slug
  }
}
