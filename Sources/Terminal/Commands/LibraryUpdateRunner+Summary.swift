import Catalog
import Foundation

extension LibraryUpdateRunner {
  /// The end of `library update`: one line, or JSON with the same per file, and the exit status.
  struct Summary {
    var checked: [Checked]
    var requests: Int
    var dryRun: Bool

    private func count(_ kinds: LibraryUpdateOutcome.Kind...) -> Int {
      checked.filter { $0.outcome.map { kinds.contains($0.kind) } ?? false }.count
    }

    private var failed: Int { checked.filter { $0.error != nil }.count }
    private var mayHaveMoved: Int { checked.reduce(0) { $0 + $1.bookmarks.mayHaveMoved } }
    private var highlightsMoved: Int { checked.reduce(0) { $0 + $1.bookmarks.highlightsMoved } }

    /// `Checked 12 books: 2 updated, 10 unchanged, 0 failed (14 requests)`, and what moved.
    var line: String {
      let books = Set(checked.map(\.entry.id)).count
      // A book kept in two formats is two files, each checked.
      let what =
        books == checked.count
        ? "\(books) \(books == 1 ? "book" : "books")"
        : "\(checked.count) files of \(books) \(books == 1 ? "book" : "books")"
      let changed =
        dryRun ? "\(count(.wouldUpdate)) would be updated" : "\(count(.updated)) updated"
      var text =
        "Checked \(what): \(changed), \(count(.unchanged, .sameBytes)) unchanged, \(failed) "
        + "failed (\(requests) \(requests == 1 ? "request" : "requests"))"
      if highlightsMoved > 0 {
        text +=
          "; \(highlightsMoved) \(highlightsMoved == 1 ? "highlight" : "highlights") "
          + "found again in the new text"
      }
      if mayHaveMoved > 0 {
        text += "; \(mayHaveMoved) \(mayHaveMoved == 1 ? "bookmark" : "bookmarks") may have moved"
      }
      if dryRun { text += "; nothing written" }
      return text
    }

    /// The same as data: the counts, and each file's result.
    var json: String {
      let books: [[String: Any]] = checked.map { item in
        var object: [String: Any] = ["id": item.entry.id]
        if !item.entry.path.isEmpty {
          object["format"] = item.entry.format
          object["path"] = item.entry.path
        }
        if let outcome = item.outcome {
          object["result"] = outcome.kind.rawValue
          object["compared_by"] = outcome.comparedBy.name
          object["size"] = outcome.after.size
          object["previous_size"] = outcome.before.size
          object["etag"] = outcome.after.etag ?? NSNull()
          object["last_modified"] = outcome.after.lastModified ?? NSNull()
          object["bookmarks_may_have_moved"] = item.bookmarks.mayHaveMoved
          object["highlights_moved"] = item.bookmarks.highlightsMoved
        } else {
          object["result"] = "failed"
          object["error"] = item.error ?? ""
        }
        return object
      }
      return JSONText.object([
        "checked": checked.count, "updated": count(.updated), "would_update": count(.wouldUpdate),
        "unchanged": count(.unchanged, .sameBytes), "failed": failed, "requests": requests,
        "dry_run": dryRun, "bookmarks_may_have_moved": mayHaveMoved,
        "highlights_moved": highlightsMoved, "books": books,
      ])
    }

    /// 0 when every file was checked; when some failed, 1 (the others are done and nothing is
    /// lost), or the failures' own status when every file failed the same way (69: the
    /// mirror could not be reached at all).
    var status: ExitStatus {
      let failures = checked.filter { $0.error != nil }.map(\.status)
      guard let first = failures.first else { return .ok }
      if failures.count == checked.count, failures.allSatisfy({ $0 == first }) { return first }
      return .failure
    }
  }
}
