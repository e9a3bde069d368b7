import Catalog
import Foundation

/// The note after a download, for a person watching: how the file came to be (adopted,
/// already there, resumed, fetched again).
enum DownloadNotes {
  /// Prints the note for `done` on standard error, if there is one.
  static func print(_ done: DownloadOutcome, to output: TerminalOutput) {
    switch done.kind {
    case .adopted:
      output.printError(
        "note: an earlier download finished this file but stopped before recording it; "
          + "recorded it now")
    case .alreadyThere:
      output.printError("note: already downloaded")
    case .downloaded:
      guard let result = done.result else { return }
      switch result.restart {
      case .rangeNotSupported?:
        output.printError(
          "note: the server did not resume the partial download; fetched it again in full")
      case .validatorChanged?:
        output.printError(
          "note: the file changed on the server since the partial download; fetched it again")
      case nil:
        if result.resumedFrom > 0 {
          output.printError(
            "note: resumed at \(TextFormat.bytes(Int(result.resumedFrom))) of "
              + TextFormat.bytes(Int(result.size)))
        }
      }
    }
  }
}
