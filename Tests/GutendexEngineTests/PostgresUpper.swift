#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What PostgreSQL's `UPPER()` does in a UTF-8 database with a libc collation: glibc's
/// `towupper_l` on each code point (the reference the engine's ``UpperFold`` must follow).
enum PostgresUpper {
  private typealias Towupper = @convention(c) (UInt32, locale_t?) -> UInt32

  /// `towupper_l` and a `C.UTF-8` locale, looked up once; nil when the C library lacks them.
  ///
  /// `nonisolated(unsafe)` is safe: both are written once by the lazy initializer and then
  /// only read; glibc documents `towupper_l` as thread-safe on a locale nobody modifies.
  nonisolated(unsafe) private static let library: (Towupper, locale_t)? = {
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "towupper_l"),
      let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
    else { return nil }
    return (unsafeBitCast(symbol, to: Towupper.self), locale)
  }()

  /// True when glibc's case tables are available to compare with.
  static var isAvailable: Bool { library != nil }

  /// `towupper_l(scalar)` in `C.UTF-8`; the scalar itself without the library.
  static func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    guard let (towupper, locale) = library else { return scalar }
    return Unicode.Scalar(towupper(scalar.value, locale)) ?? scalar
  }

  /// `UPPER(text)`: every code point mapped on its own.
  static func upper(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { out.append(upper(scalar)) }
    return String(out)
  }

  /// `UPPER(haystack) LIKE '%' || UPPER(needle) || '%'`: code points compared, not
  /// characters (Swift's `contains` would compare canonically equivalent text as equal).
  static func contains(_ haystack: String, _ needle: String) -> Bool {
    let needle = Array(upper(needle).unicodeScalars)
    guard !needle.isEmpty else { return true }
    let haystack = Array(upper(haystack).unicodeScalars)
    guard haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains {
      haystack[$0..<($0 + needle.count)].elementsEqual(needle)
    }
  }
}
