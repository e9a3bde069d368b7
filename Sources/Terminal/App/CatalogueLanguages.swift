/// The language codes of the embedded catalogue, for shell completion of `--language`.
///
/// A fixed list rather than one read from the catalogue: completion builds the command's
/// options, and reading 76,696 books to list 70 codes would slow every start of `gutenberg`.
/// `CatalogueLanguagesTests` checks it against the embedded catalogue, so a new snapshot with a
/// new language fails the tests until the list is updated.
package enum CatalogueLanguages {
  /// Every language code some book of the 2025-08 catalogue has, most books first.
  package static let codes = [
    "en", "fr", "fi", "de", "it", "nl", "es", "pt", "hu", "zh", "sv", "el", "la", "eo", "da", "ca",
    "tl", "pl", "ja", "no", "fy", "cy", "af", "cs", "ru", "he", "is", "fur", "bg", "enm", "te",
    "ro", "ang", "sr", "sl", "nai", "nah", "myn", "ilo", "ga", "ceb", "gl", "nav", "grc", "oc",
    "mi", "arp", "gla", "brx", "ko", "sa", "ale", "yi", "lt", "kha", "ia", "kld", "nap", "br",
    "iu", "bgs", "csb", "rmq", "oji", "ar", "et", "fa", "sco", "bo", "hai",
  ]
}
