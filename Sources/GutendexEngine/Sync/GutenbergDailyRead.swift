import Foundation
import Gutendex

/// One reading of Project Gutenberg's small files for a ``CatalogueSync``: what changed since the
/// last sync, each changed book's record appended to the pending list the sync then merges.
struct GutenbergDailyRead: Sendable {
  /// The client whose pipeline (and timeout) every request goes through.
  let client: GutendexClient
  /// The local catalogue's files: the pending list and the arrivals.
  let files: LocalCatalogueFiles
  /// Hears each record fetched, for the progress line.
  let events: (@Sendable (SyncEvent) -> Void)?
  let now: @Sendable () -> Date

  /// What reading Project Gutenberg's small files found (see ``read(_:state:base:)``).
  struct Reading: Sendable {
    /// `today.rss`, the catalogue list and the records, as they went.
    var rss = SourceCounts(source: .rss)
    var csv: SourceCounts?
    var records = SourceCounts(source: .records)
    /// Books whose record was fetched and put in the pending list.
    var fetched: Set<Int> = []
    /// Books the newer complete list lacks: to be removed.
    var gone: [Int] = []
    /// More records were due than are worth fetching one by one: the whole feed is taken.
    var needsFeed = false
    /// What stopped it early (the network, a 429 held too long, Ctrl-C); nil when it finished.
    var stop: GutendexError?
    /// A file that is not what PG publishes, one line; nil when all were.
    var badFile: String?
    /// The state to keep once what was fetched is merged (validators, the catalogue's date).
    var next: GutenbergState?

    /// The counts of every source used, in the order they were asked.
    var sources: [SourceCounts] {
      [rss] + (csv.map { [$0] } ?? []) + (records.requests > 0 ? [records] : [])
    }
  }

  /// The largest `today.rss` read (it is a few kilobytes) and catalogue list (about 5 MB).
  static let rssLimit = 4 << 20
  static let csvLimit = 64 << 20
  /// The largest record of one book (a few kilobytes; the largest real ones ~1 MB).
  static let recordLimit = 8 << 20

  /// Reads what changed at Project Gutenberg since the last sync, from its small files:
  /// `today.rss` (conditional) names the books posted or updated in the last day; when the
  /// catalogue's last complete state is older than that file covers, `pg_catalog.csv.gz`
  /// (conditional) lists every book, so the ones new here and the ones PG removed are known;
  /// then the record of each new or changed book is fetched, one at a time with
  /// `policy.pause` between them, read by the feed's own rules and appended to the pending
  /// list, which the sync then merges as it merges any page. More records than
  /// `policy.recordLimit` are not fetched: the whole feed is cheaper (``needsFeed``).
  /// Called with the sync lock held; never throws.
  func read(_ policy: GutenbergPolicy, state: SyncState, base: GutendexEngine) async -> Reading {
    var reading = Reading()
    let site = policy.site
    var next =
      state.gutenberg.flatMap { $0.site == site.base.absoluteString ? $0 : nil }
      ?? GutenbergState(site: site.base.absoluteString)
    let fetcher = PoliteFetcher(
      pipeline: client.pipeline, timeout: client.timeout, maxRetryAfter: policy.maxRetryAfter)

    // 1. today.rss.
    var named: [Int] = []
    var listDate: Date?
    do throws(GutendexError) {
      switch try await fetcher.get(
        site.todayRSS, validators: next.rss, limit: Self.rssLimit, counts: &reading.rss)
      {
      case .unchanged:
        reading.rss.unchanged = true
      case .missing(let status):
        reading.badFile = "today.rss: HTTP \(status) from \(site.todayRSS.absoluteString)"
        return reading
      case .body(let data, let validators, let modified):
        let rss: TodayRSS
        do {
          rss = try TodayRSS(data)
        } catch {
          reading.badFile = "today.rss: \(error.reason) (\(site.todayRSS.absoluteString))"
          return reading
        }
        listDate = rss.built ?? modified ?? now()
        if rss.builtText != nil, rss.builtText == next.rssBuilt {
          // The same file again (a server that ignores validators): nothing new in it.
          reading.rss.unchanged = true
        } else {
          named = rss.ids
        }
        next.rss = validators
        next.rssBuilt = rss.builtText
      }
    } catch {
      reading.stop = error
      return reading
    }

    // 2. The catalogue list, when the days since the last complete state are more than the
    // RSS covers (or there never was one).
    var fresh: [Int] = []
    let reference = listDate ?? now()
    let gap = next.currentAsOf.map { reference.timeIntervalSince($0) > GutenbergPolicy.rssSpan }
    if gap ?? true {
      var counts = SourceCounts(source: .csv)
      // Kept whatever happens below (a `defer` would run after the value returned is taken).
      func stopping() -> Reading {
        reading.csv = counts
        return reading
      }
      do throws(GutendexError) {
        switch try await fetcher.get(
          site.catalogCSV, validators: next.csv, limit: Self.csvLimit, counts: &counts)
        {
        case .unchanged:
          counts.unchanged = true
        case .missing(let status):
          reading.badFile =
            "pg_catalog.csv.gz: HTTP \(status) from \(site.catalogCSV.absoluteString)"
          return stopping()
        case .body(let data, let validators, let modified):
          let list: CatalogCSV
          do {
            list = try CatalogCSV(compressed: data)
          } catch {
            reading.badFile =
              "pg_catalog.csv.gz: \(error.reason) (\(site.catalogCSV.absoluteString))"
            return stopping()
          }
          let made = modified ?? now()
          let listed = Set(list.ids)
          let held = base.bookIDs
          let heldSet = Set(held)
          fresh = list.ids.filter { !heldSet.contains($0) }
          // A book that arrived after the list was made is newer than the list, not gone.
          let later = Set(files.readArrivals().filter { $0.added > made }.map(\.id))
          let today = Set(named)
          reading.gone = held.filter {
            !listed.contains($0) && !later.contains($0) && !today.contains($0)
          }
          next.csv = validators
          listDate = max(listDate ?? made, made)
        }
        reading.csv = counts
      } catch {
        reading.stop = error
        return stopping()
      }
    }

    // 3. The records, one at a time; past the limit, the feed instead.
    var wanted = named
    let namedSet = Set(named)
    wanted += fresh.filter { !namedSet.contains($0) }
    if wanted.count > policy.recordLimit {
      reading.needsFeed = true
      // The feed lists every book: it decides what is gone.
      reading.gone = []
      next.currentAsOf = nil
      reading.next = next
      return reading
    }
    for (number, id) in wanted.enumerated() {
      if number > 0, policy.pause > .zero {
        do {
          try await Task.sleep(for: policy.pause)
        } catch {
          reading.stop = .cancelled(url: site.record(id))
          return reading
        }
      }
      do throws(GutendexError) {
        switch try await fetcher.get(
          site.record(id), validators: nil, limit: Self.recordLimit, counts: &reading.records)
        {
        case .unchanged, .missing:
          // Named but not (yet) there: the next list says whether it is gone.
          reading.records.skipped += 1
        case .body(let data, _, _):
          let read = data.withUnsafeBytes { bytes in
            Result { () throws(FeedRecordError) in
              try FeedRecordReader.read(id: id, bytes: bytes)
            }
          }
          switch read {
          case .success(let record?):
            do {
              try files.appendPending([Data(record.json)], durable: false)
            } catch {
              reading.badFile = "cannot write the local catalogue: \(error)"
              return reading
            }
            reading.fetched.insert(id)
            events?(.record(books: reading.fetched.count, of: wanted.count))
          case .success(nil), .failure:
            // Hidden by the server's rules (no title or count), or not a record it could read.
            reading.records.skipped += 1
          }
        }
      } catch {
        reading.stop = error
        return reading
      }
    }
    next.currentAsOf = max(next.currentAsOf ?? .distantPast, listDate ?? now())
    reading.next = next
    return reading
  }
}
