import Foundation

/// Everything that can go wrong opening, reading or writing the local store, always naming the
/// file or directory involved.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file is not SQLite, is damaged, or belongs to another program; it was not modified.
  case corrupt(path: String)
  /// A directory (or other non-file) sits where the database file should be.
  case notAFile(path: String)
  /// The file or its directory cannot be written (read-only, or a file is in the way).
  case notWritable(path: String)
  /// Any other SQLite or file-system failure, with SQLite's or the system's message.
  case io(path: String, reason: String)
  /// An import was refused; `location` is a JSON path (`favorites[3].book.id`) or
  /// `line L, column C` for a syntax error. Nothing was imported.
  case invalidImport(source: String, location: String, reason: String)
  /// An export could not be written; nothing was left at `path` or beside it.
  case exportFailed(path: String, reason: String)

  /// The file or directory the error is about (the import source for ``invalidImport``).
  public var path: String {
    switch self {
    case .corrupt(let path), .notAFile(let path), .notWritable(let path), .io(let path, _),
      .exportFailed(let path, _):
      path
    case .invalidImport(let source, _, _): source
    }
  }

  /// One line for a person: what happened, and where.
  public var description: String {
    switch self {
    case .corrupt(let path):
      "\(path) is not a gutenberg database (file is not SQLite or is damaged); "
        + "it was left untouched: `gutenberg doctor --repair` copies what can be read into a "
        + "new file and keeps this one beside it"
    case .notAFile(let path):
      "\(path) is a directory (or not a regular file) where the gutenberg database file "
        + "should be; nothing was changed"
    case .notWritable(let path):
      "cannot write to \(path): it is read-only, or a file is in the way of a directory"
    case .io(let path, let reason):
      "\(path): \(reason)"
    case .invalidImport(let source, let location, let reason):
      "cannot import \(source): \(location): \(reason); nothing was imported"
    case .exportFailed(let path, let reason):
      "cannot export to \(path): \(reason); nothing was written"
    }
  }
}

extension StoreError: LocalizedError {
  /// The same one line as ``description``.
  public var errorDescription: String? { description }
}
