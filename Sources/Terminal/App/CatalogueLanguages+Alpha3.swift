extension CatalogueLanguages {
  /// ISO 639-2 codes (bibliographic and terminological) of the languages Gutendex codes in two
  /// letters, to those two letters: `eng` and `en`, `ger`/`deu` and `de`, `fre`/`fra` and `fr`.
  /// The three-letter codes Gutendex itself uses (`enm`, `fur`, `ang`, ...) are not here: they
  /// are codes of their own.
  static let isoAlpha3: [String: String] = [
    "eng": "en", "fre": "fr", "fra": "fr", "fin": "fi", "ger": "de", "deu": "de", "ita": "it",
    "dut": "nl", "nld": "nl", "spa": "es", "por": "pt", "hun": "hu", "chi": "zh", "zho": "zh",
    "swe": "sv", "gre": "el", "ell": "el", "lat": "la", "epo": "eo", "dan": "da", "cat": "ca",
    "tgl": "tl", "pol": "pl", "jpn": "ja", "nor": "no", "fry": "fy", "wel": "cy", "cym": "cy",
    "afr": "af", "cze": "cs", "ces": "cs", "rus": "ru", "heb": "he", "ice": "is", "isl": "is",
    "bul": "bg", "tel": "te", "rum": "ro", "ron": "ro", "srp": "sr", "slv": "sl", "gle": "ga",
    "glg": "gl", "oci": "oc", "mao": "mi", "mri": "mi", "kor": "ko", "san": "sa", "yid": "yi",
    "lit": "lt", "ina": "ia", "bre": "br", "iku": "iu", "ara": "ar", "est": "et", "per": "fa",
    "fas": "fa", "tib": "bo", "bod": "bo",
  ]
}
