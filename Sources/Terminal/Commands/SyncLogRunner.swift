import Catalog
import Foundation

/// `gutenberg sync --log`: the last 20 syncs, oldest first, as lines or JSON.
package struct SyncLogRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// `gutenberg sync --log`: the last 20 syncs, oldest first.
  package func run(format: ListFormat) async -> ExitStatus {
    let runs: [SyncReport]
    do {
      runs = try service.syncHistory()
    } catch {
      return fail(error)
    }
    switch format {
    case .json:
      let objects = runs.map(SyncText.object)
      output.print(JSONText.text(objects, empty: "[]"))
    case .automatic:
      if runs.isEmpty { output.printError("No sync yet: `gutenberg sync` makes the first.") }
      for run in runs { output.print(SyncText.logLine(run, timeZone: .current)) }
    }
    return .ok
  }
}
