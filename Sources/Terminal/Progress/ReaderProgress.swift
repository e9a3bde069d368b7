import Catalog
import Foundation

/// Progress sync around the reader: before the first page one pull (the only request there,
/// bounded by the request timeout), and when another device read further since, one line
/// offers its place (`Kobo is at 42%, 2 h ago: Enter jumps there, n stays`), never a silent
/// jump; when the reader closes, one push of where it stopped. A failure is one note, and the
/// place is queued for the next read or `progress push`.
///
/// Places map through the fraction of the text: the terminal keeps a byte offset in the plain
/// text, KOReader a percentage of its EPUB, and both files hold the same book with Project
/// Gutenberg's header and licence.
@MainActor
struct ReaderProgress {
  let context: AppContext
  let id: Int
  let sync: ProgressSync
  let account: SyncAccount
  let deviceID: String
  let key: (document: String, file: String)?
  /// Set when the pull failed for the network or the login: the push at the end is queued at
  /// once, with that failure, instead of waiting for the same failure again.
  private(set) var pullFailure: ProgressSyncError?

  /// The hook for book `id` when progress sync is set up (nil otherwise: no note, no request);
  /// `fetches`: get the book's EPUB into the library when the key needs it.
  static func open(context: AppContext, id: Int, fetches: Bool) async -> ReaderProgress? {
    let sync = context.progressSync
    let account: SyncAccount?
    do {
      account = try sync.account()
    } catch {
      // A key file other users may read, or one damaged: said, and the book opens unsynced.
      context.output.printError(
        "note: \(Sanitizer.sanitize(error.description)); the book opens without progress sync")
      return nil
    }
    guard let account, let deviceID = try? sync.deviceID() else { return nil }
    let known = try? sync.state()[id]
    let keys = ProgressKeys(context: context)
    let key =
      fetches
      ? await keys.keyFetching(id: id, method: account.method, known: known, mirror: nil)
      : await keys.key(id: id, method: account.method, known: known)
    return ReaderProgress(
      context: context, id: id, sync: sync, account: account, deviceID: deviceID, key: key)
  }

  /// Pulls the book's record and, when another device has read on since `saved` was kept and
  /// stands more than a page away from `top`, offers its place on one line; the offset to open
  /// at when the reader took it (nil to stay), and the text it is an offset of: the whole of
  /// an EPUB whose start `text` is (`rest`), read to its end only when there is another
  /// device's place to find in it.
  mutating func offer(
    text: BookText, rest: (any RestOfText)? = nil, saved: ReadingPosition?, top: Int?,
    pageBytes: Int, input: any LineSource
  ) async throws(EpubError) -> (top: Int?, text: BookText) {
    guard let key else { return (nil, text) }
    let record: RemoteProgress?
    do {
      record = try await sync.pull(id: id, document: key.document)
    } catch {
      if error.keepsQueued { pullFailure = error }
      context.output.printError(
        "note: \(Sanitizer.sanitize(error.description)); your place here is kept and pushed "
          + "next time")
      return (nil, text)
    }
    guard let record, record.deviceID != deviceID || record.device != account.device else {
      return (nil, text)
    }
    let whole = text.isPartial ? try await rest?.whole() ?? text : text
    let top = await offer(
      record, in: whole, saved: saved, top: top, pageBytes: pageBytes, input: input)
    return (top, whole)
  }

  /// Offers `record`'s place in `text` (see the other `offer`).
  private func offer(
    _ record: RemoteProgress, in text: BookText, saved: ReadingPosition?, top: Int?,
    pageBytes: Int, input: any LineSource
  ) async -> Int? {
    let there = Self.offset(of: record.percentage, in: text)
    let here = top ?? saved?.byteOffset ?? text.bodyBytes.lowerBound
    guard abs(there - here) > pageBytes else { return nil }
    if let kept = saved?.updatedAt, let recorded = record.date, recorded <= kept { return nil }
    let line = "\(ProgressText.line(record)): Enter jumps there, n stays"
    let answer: String?
    if input.editsLines {
      answer = await input.nextLine(prompt: line + " ", remember: false)
    } else {
      context.output.print(line)
      answer = await input.nextLine()
    }
    let word = answer?.trimmingCharacters(in: .whitespaces).lowercased()
    guard let word, ["", "y", "yes", "j"].contains(word) else { return nil }
    return there
  }

  /// Pushes where the reader stopped (the reading position it saved), or queues it.
  func close(text: BookText) async {
    guard let position = (try? await context.service.readingPosition(id: id)) ?? nil else {
      return
    }
    let offset = position.byteOffset ?? text.offset(ofLine: position.line)
    let percentage = Self.percentage(of: offset, in: text)
    let progress = await ProgressKeys(context: context).progress(id: id, at: percentage)
    let outcome: ProgressSync.PushOutcome
    do {
      if let pullFailure {
        // The pull failed a moment ago and said so: queued without another wait or note.
        try sync.queue(
          id: id, document: key?.document, file: key?.file, percentage: percentage,
          progress: progress, reason: pullFailure)
        return
      }
      outcome = try await sync.push(
        id: id, document: key?.document, file: key?.file, percentage: percentage,
        progress: progress)
    } catch {
      context.output.printError("note: \(Sanitizer.sanitize(error.description))")
      return
    }
    switch outcome {
    case .pushed:
      // The place of other books read while the server could not be reached goes with it.
      _ = try? await sync.flush(except: id) { _ in nil }
    case .queued(let failure):
      context.output.printError(
        "note: \(Sanitizer.sanitize(failure.description)); your place "
          + "(\(ProgressText.percent(percentage))) is kept and pushed next time")
    }
  }

  /// The fraction of the file before byte `offset`.
  static func percentage(of offset: Int, in text: BookText) -> Double {
    let all = text.allBytes
    guard all.count > 0 else { return 0 }
    return Double(min(max(offset, all.lowerBound), all.upperBound) - all.lowerBound)
      / Double(all.count)
  }

  /// The byte offset at `fraction` of the file.
  static func offset(of fraction: Double, in text: BookText) -> Int {
    let all = text.allBytes
    let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
    return min(all.upperBound, all.lowerBound + Int(Double(all.count) * clamped))
  }
}

extension ReaderProgress {
  /// The details' `Progress:` line of book `id` from what sync last saw (no request): `on Kobo:
  /// 42%, 2 h ago`, and a place of this device not pushed yet; nil when sync knows nothing.
  static func detailLine(context: AppContext, id: Int) -> String? {
    guard let book = try? context.progressSync.state()[id] else { return nil }
    var parts: [String] = []
    if let remote = book.remote { parts.append(ProgressText.detail(remote)) }
    if let queued = book.queued {
      parts.append("here \(ProgressText.percent(queued.percentage)), not pushed yet")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }
}
