import Catalog

extension CatalogueLanguages {
  /// The codes `arguments` name (see ``codes(for:catalogue:)``), resolved against the local
  /// catalogue of the data directory `options` name, which is mapped only when a word is not in
  /// the fixed table of names (a code that only synced books have, or none has).
  package static func codes(
    for arguments: [String], options: AppOptions
  ) throws(UnknownLanguage) -> [String] {
    try codes(for: arguments) {
      let directory = AppConfiguration.location(options: options).dataDirectory
      return LocalCatalogue(dataDirectory: directory, policy: SyncPolicy(maxAge: nil)).languageCodes
    }
  }
}
