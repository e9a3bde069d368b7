import Catalog
import Gutendex

/// The exit codes of `gutenberg` (sysexits.h where one fits).
public enum ExitStatus: Int32, Sendable {
  case ok = 0
  /// Anything not covered below.
  case failure = 1
  /// Bad command-line usage or input.
  case usage = 64
  /// Bad data: from the server, in an import file, or a damaged database.
  case dataError = 65
  /// The server or the network could not be used.
  case unavailable = 69
  /// Stopped by Ctrl-C (128 + SIGINT, as shells report it).
  case interrupted = 130

  /// The exit code a failure maps to.
  public init(_ error: CatalogError) {
    switch error {
    case .server(let error):
      switch error {
      case .badData, .bodyTooLarge: self = .dataError
      case .invalidRequest: self = .usage
      case .http: self = .failure
      default: self = error.isUnavailable ? .unavailable : .failure
      }
    case .store(let error):
      switch error {
      case .corrupt, .invalidImport: self = .dataError
      default: self = .failure
      }
    case .invalidInput, .pageOutOfRange, .noSuchRow: self = .usage
    case .notAvailableOffline, .localCatalogueUnavailable: self = .unavailable
    case .cancelled, .unexpected, .cacheUnavailable: self = .failure
    }
  }
}
