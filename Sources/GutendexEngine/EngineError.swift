/// Why the engine could not load its books.
public enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A book's JSON was malformed; `offset` is the byte where reading failed.
  case badJSON(book: Int, offset: Int, reason: String)
  /// Two books had the same Project Gutenberg number.
  case duplicateID(Int)
  /// A snapshot file was damaged or of an unknown version.
  case badSnapshot(String)
  /// zlib refused the data.
  case compression(String)
  /// The embedded catalogue file is in none of the places looked at.
  case missingResource(String)

  /// One line saying what went wrong.
  public var description: String {
    switch self {
    case .badJSON(let book, let offset, let reason):
      "book #\(book): bad JSON at byte \(offset): \(reason)"
    case .duplicateID(let id): "two books have the id \(id)"
    case .badSnapshot(let reason): "damaged snapshot: \(reason)"
    case .compression(let reason): "compression failed: \(reason)"
    case .missingResource(let reason): "no catalogue: \(reason)"
    }
  }
}
