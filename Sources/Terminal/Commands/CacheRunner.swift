import Catalog
import Foundation

/// `gutenberg cache`: how many pages the page cache holds, how big and how old; or clear it.
package struct CacheRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// `cache info`.
  package func info(format: ListFormat) async -> ExitStatus {
    do {
      let info = try await service.cacheInfo()
      switch format {
      case .json:
        output.print(
          JSONText.object([
            "entries": info.entries, "bytes": info.bytes, "path": info.path.path,
            "oldest": info.oldest.map(JSONText.iso8601) ?? NSNull(),
            "newest": info.newest.map(JSONText.iso8601) ?? NSNull(),
          ]))
      case .automatic:
        let now = Date()
        var lines = [
          "cache: \(TextFormat.plural(info.entries, "page")), \(TextFormat.bytes(info.bytes))",
          "file: \(info.path.path)",
        ]
        if let oldest = info.oldest {
          lines.append("oldest: \(TextFormat.age(max(0, now.timeIntervalSince(oldest))))")
        }
        if let newest = info.newest {
          lines.append("newest: \(TextFormat.age(max(0, now.timeIntervalSince(newest))))")
        }
        output.print(lines)
      }
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// `cache clear`.
  package func clear() async -> ExitStatus {
    do {
      let entries = try await service.clearCache()
      output.printError("Cleared \(TextFormat.plural(entries, "cached page"))")
      return .ok
    } catch {
      return fail(error)
    }
  }
}
