/// Case folding the way the real server's case-insensitive match does it.
///
/// Gutendex filters with Django's `icontains`, which PostgreSQL runs as
/// `UPPER(x::text) LIKE UPPER(pattern)`. In a UTF-8 database with a libc collation, `UPPER()`
/// maps one code point at a time through glibc's `towupper`, that is Unicode's *simple* (1:1)
/// uppercase mapping, and `LIKE` then compares code points. So `ſ` and `ı` match `S` and `I`, a
/// final `ς` matches `Σ`, while `ß`, `ﬁ` and `İ` only match themselves and the Kelvin sign
/// (already upper case) does not match `k`. Swift's `lowercased()` disagrees on all of these.
enum UpperFold {
  /// The UTF-8 of `string` with every code point replaced by its simple uppercase mapping.
  static func bytes(_ string: String) -> [UInt8] {
    if string.utf8.allSatisfy({ $0 < 0x80 }) {
      return string.utf8.map { (0x61...0x7A).contains($0) ? $0 & ~0x20 : $0 }
    }
    var out: [UInt8] = []
    out.reserveCapacity(string.utf8.count)
    for scalar in string.unicodeScalars { UTF8.encode(upper(scalar)) { out.append($0) } }
    return out
  }

  /// The simple uppercase mapping of one code point (itself when it has none).
  ///
  /// Swift exposes the *full* mapping, which equals the simple one whenever it is a single code
  /// point. Where it is several (`ß` → `SS`, `ﬁ` → `FI`, `ᾳ` → `ΑΙ`), the simple mapping is the
  /// titlecase letter when that is a single code point (`ᾳ` → `ᾼ`, as in UnicodeData), and
  /// otherwise none. This agrees with glibc's `towupper` on every code point glibc knows
  /// (checked in the tests).
  static func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar.isASCII {
      let byte = UInt8(scalar.value)
      return Unicode.Scalar((0x61...0x7A).contains(byte) ? byte & ~0x20 : byte)
    }
    let properties = scalar.properties
    guard properties.changesWhenUppercased else { return scalar }
    let full = properties.uppercaseMapping.unicodeScalars
    if full.count == 1, let only = full.first { return only }
    let title = properties.titlecaseMapping.unicodeScalars
    if title.count == 1, let only = title.first { return only }
    return scalar
  }
}
