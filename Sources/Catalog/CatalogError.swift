import Foundation
import Gutendex

/// Everything a catalogue action can fail with, as one clear line for a person.
public enum CatalogError: Error, Sendable, Hashable {
  /// The server (or the local engine) answered with an error or could not be reached.
  case server(GutendexError)
  /// The local database failed.
  case store(StoreError)
  /// A page number outside 1...pageCount.
  case pageOutOfRange(page: Int, pageCount: Int)
  /// A row number that is not on the screen.
  case noSuchRow(row: Int, rowCount: Int)
  /// Input that makes no sense (an empty search, a year that is not a number, ...).
  case invalidInput(String)
  /// Offline, and neither the cache nor the local catalogue has what was asked for.
  case notAvailableOffline(String)
  /// The action was cancelled before it finished; nothing changed.
  case cancelled
  /// The local catalogue, asked on its own (`--source local`), has no book with this id.
  case notInLocalCatalogue(Int)
  /// The catalogue on this machine (the embedded snapshot) cannot be opened.
  case localCatalogueUnavailable(String)
  /// The page cache could not be opened when the program started (the reason, when known).
  case cacheUnavailable(String?)
  /// Offline (simulated or `--offline`), and this action needs the network.
  case needsNetwork(String)
  /// A download failed (what was kept is in the error).
  case download(DownloadError)
  /// A failure of a kind no other case names (a bug or a broken installation, not bad input).
  case unexpected(String)
}

extension CatalogError: CustomStringConvertible, LocalizedError {
  /// One line for a person, as printed after `error:`.
  public var description: String {
    switch self {
    case .server(let error): error.description
    case .store(let error): error.description
    case .pageOutOfRange(let page, let pageCount):
      // Grouped as the page headers group them ("page 1 of 2,397").
      pageCount == 1
        ? "page \(Self.grouped(page)) is out of range (there is only page 1)"
        : "page \(Self.grouped(page)) is out of range (1–\(Self.grouped(pageCount)))"
    case .noSuchRow(let row, let rowCount):
      rowCount == 0
        ? "there is no row \(row): the list is empty"
        : "there is no row \(row) (rows are 1–\(rowCount))"
    case .invalidInput(let message): message
    case .notAvailableOffline(let what):
      "offline, and \(what) is not in the cache or the local catalogue"
    case .cancelled: "cancelled"
    case .notInLocalCatalogue(let id): "book \(id) is not in the local catalogue"
    case .needsNetwork(let what): "offline: \(what) needs the network (without --offline)"
    case .download(let error): error.description
    case .localCatalogueUnavailable(let message): message
    case .unexpected(let message): message
    case .cacheUnavailable(let reason):
      "the page cache is unavailable" + (reason.map { ": \($0)" } ?? "")
    }
  }

  /// `1234567` as `1,234,567`, whatever the locale (the screens group numbers so everywhere).
  static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return number < 0 ? "-" + out : out
  }

  /// The same line, for Foundation's error reporting.
  public var errorDescription: String? { description }

  /// Wraps any error from a lower layer.
  public init(_ error: any Error) {
    switch error {
    case let error as CatalogError: self = error
    case let error as GutendexError:
      if case .cancelled = error { self = .cancelled } else { self = .server(error) }
    case let error as StoreError: self = .store(error)
    case let error as DownloadError: self = .download(error)
    case is CancellationError: self = .cancelled
    // Not `.invalidInput`: that is the user's mistake (exit 64), and this is not.
    default: self = .unexpected(String(describing: error))
    }
  }
}
