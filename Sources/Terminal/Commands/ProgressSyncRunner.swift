import Catalog
import Foundation

/// `gutenberg progress push|pull [ID]`: sends this device's places (a book's, and every one
/// queued), or takes another device's.
package struct ProgressSyncRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Pushes book `id`'s reading position (when given) and every queued place.
  package func push(id: Int?, format: ListFormat) async -> ExitStatus {
    let sync = context.progressSync
    let account: SyncAccount
    do { account = try sync.requireAccount() } catch { return fail(error) }
    let keys = ProgressKeys(context: context)
    var pushed: [Int] = []
    if let id {
      guard let position = (try? await service.readingPosition(id: id)) ?? nil,
        let text = await text(id: id)
      else {
        return fail("book \(id) has no place to push yet (gutenberg read \(id))", .usage)
      }
      let known = try? sync.state()[id]
      let key = await keys.keyFetching(id: id, method: account.method, known: known, mirror: nil)
      let offset = position.byteOffset ?? text.offset(ofLine: position.line)
      let percentage = ReaderProgress.percentage(of: offset, in: text)
      let progress = await keys.progress(id: id, at: percentage)
      do {
        let outcome = try await sync.push(
          id: id, document: key?.document, file: key?.file, percentage: percentage,
          progress: progress)
        if case .queued(let failure) = outcome { return fail(failure) }
        pushed.append(id)
      } catch {
        return fail(error)
      }
    }
    let before = Set(((try? sync.state().queued) ?? []).map(\.id))
    let flushed: (pushed: Int, failure: ProgressSyncError?)
    do {
      flushed = try await sync.flush(except: id) { queuedID in
        await keys.key(id: queuedID, method: account.method)
      }
    } catch {
      return fail(error)
    }
    let left = Set(((try? sync.state().queued) ?? []).map(\.id))
    pushed += before.subtracting(left).sorted()
    if format == .json {
      output.print(JSONText.object(["pushed": pushed, "queued": left.sorted()]))
    } else if pushed.isEmpty, left.isEmpty {
      output.print("nothing to push")
    } else {
      let done: String =
        pushed.isEmpty ? "nothing" : pushed.map { "book \($0)" }.joined(separator: ", ")
      let waiting: String = left.sorted().map { String($0) }.joined(separator: ", ")
      output.print("pushed \(done)" + (left.isEmpty ? "" : "; still queued: \(waiting)"))
    }
    return flushed.failure.map { fail($0) } ?? .ok
  }

  /// Takes the server's record of book `id` (or of every book sync knows): when another device
  /// read on since, its place becomes this one's, so `read` opens there.
  package func pull(id: Int?, format: ListFormat) async -> ExitStatus {
    let sync = context.progressSync
    let account: SyncAccount
    let deviceID: String
    do {
      account = try sync.requireAccount()
      deviceID = try sync.deviceID()
    } catch {
      return fail(error)
    }
    let known = (try? sync.state().books) ?? [:]
    let ids = id.map { [$0] } ?? known.keys.compactMap(Int.init).sorted()
    let keys = ProgressKeys(context: context)
    var results: [[String: Any]] = []
    var lines: [String] = []
    for book in ids {
      guard
        let key = await keys.keyFetching(
          id: book, method: account.method, known: known[String(book)], mirror: nil)
      else {
        if id != nil { return fail(.noDocument(id: book, reason: "its EPUB could not be fetched")) }
        continue
      }
      let record: RemoteProgress?
      do { record = try await sync.pull(id: book, document: key.document) } catch {
        return fail(error)
      }
      guard let record else {
        lines.append("book \(book): no record on the server")
        results.append(["id": book, "document": key.document, "applied": false])
        continue
      }
      var applied = false
      if record.deviceID != deviceID { applied = await take(record, id: book) }
      var object = ProgressJSON.remoteJSON(record)
      object["id"] = book
      object["applied"] = applied
      results.append(object)
      lines.append(
        "book \(book): \(ProgressText.line(record))"
          + (applied ? "; gutenberg read \(book) opens there" : ""))
    }
    if format == .json {
      output.print(results.isEmpty ? "[]" : JSONText.text(results, empty: "[]"))
    } else {
      output.print(lines.isEmpty ? ["no books to pull (read one first)"] : lines)
    }
    return .ok
  }

  /// Makes `record`'s place book `id`'s reading position when it is newer than the one here.
  private func take(_ record: RemoteProgress, id: Int) async -> Bool {
    guard let text = await text(id: id) else { return false }
    let saved = (try? await service.readingPosition(id: id)) ?? nil
    if let kept = saved?.updatedAt, let recorded = record.date, recorded <= kept { return false }
    let offset = text.index.lineStart(
      of: ReaderProgress.offset(of: record.percentage, in: text), in: text.bytes)
    let position = ReadingPosition(
      line: text.index.lineNumber(of: offset, in: text.bytes), byteOffset: offset,
      quote: PlaceQuote.quote(in: text, at: offset))
    return (try? await service.setReadingPosition(id: id, position)) != nil
  }

  /// The library's plain text of book `id`, nil when it has none.
  private func text(id: Int) async -> BookText? {
    let entries = (try? await service.downloads(id: id)) ?? []
    guard
      let entry = entries.first(where: { $0.format == BookFormat.text.description && $0.isPresent })
    else { return nil }
    return try? BookText(contentsOfFile: entry.path)
  }
}
