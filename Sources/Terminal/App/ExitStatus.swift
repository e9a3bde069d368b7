import Catalog
import Gutendex

/// The exit codes of `gutenberg` (sysexits.h where one fits).
package enum ExitStatus: Int32, Sendable {
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

  /// The exit code a failure maps to: one code per kind of failure, whichever command met it
  /// (a refused redirect is 69 in `show`, `list`, `get` and `read` alike).
  package init(_ error: CatalogError) {
    switch error {
    case .server(let error):
      self.init(error)
    case .download(let error):
      self.init(error)
    case .store(let error):
      switch error {
      case .corrupt, .invalidImport: self = .dataError
      default: self = .failure
      }
    case .invalidInput, .pageOutOfRange, .noSuchRow: self = .usage
    case .notAvailableOffline, .localCatalogueUnavailable, .needsNetwork: self = .unavailable
    case .cancelled, .unexpected, .cacheUnavailable, .notInLocalCatalogue: self = .failure
    }
  }

  /// The code for a server or network failure: a server that cannot be used (down,
  /// unreachable, a redirect we refuse to follow) is 69, bad data 65.
  init(_ error: GutendexError) {
    switch error {
    case .badData, .bodyTooLarge: self = .dataError
    case .invalidRequest: self = .usage
    case .http: self = .failure
    // The server sent us somewhere we will not go: as unusable as one that is down.
    case .redirectRefused: self = .unavailable
    default: self = error.isUnavailable ? .unavailable : .failure
    }
  }

  /// The code for a failed download: Ctrl-C 130, the network 69, the file on disk 1.
  init(_ error: DownloadError) {
    switch error {
    case .interrupted: self = .interrupted
    case .server(let server), .failedAfterRetries(let server, _, _): self.init(server)
    case .stalled, .redirectRefused, .tooManyRedirects: self = .unavailable
    case .lengthMismatch, .notTheFile: self = .dataError
    case .disk, .exists: self = .failure
    }
  }
}
