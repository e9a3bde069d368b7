import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import Testing

@testable import TestSupport

/// After `gutenberg sync` from a server holding the embedded catalogue plus 600 new books and
/// changed records of the books the user holds, `gutendex-server --data-dir` over the synced
/// catalogue answers 240 generated queries (every parameter, lists and details) exactly as that
/// server does: status and body, so count, ids in order, next/previous and every book's JSON.
@Suite(.serialized)
struct SyncFidelityTests {
  /// Books the user holds (favourites): the server changed each of them since the snapshot.
  static let held = [11, 46, 84, 98, 174, 345, 1342, 1661, 2554, 2701]

  /// A held book as the server has it now: more downloads, a summary, a new shelf.
  static func changed(_ json: Data, number: Int) throws -> Data {
    var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    object["download_count"] = (object["download_count"] as? Int ?? 0) + 1_000 + number
    object["summaries"] = ["A summary written after the snapshot (\(number))."]
    let shelves = (object["bookshelves"] as? [String] ?? []) + ["Category: Synced Shelf"]
    object["bookshelves"] = shelves.sorted()
    return try JSONSerialization.data(withJSONObject: object)
  }

  @Test func gutendexServerOverTheSyncedCatalogueAnswersLikeTheServer() async throws {
    let embedded = try SyncFixture.embeddedBooks()
    let firstID = try SyncFixture.embeddedMaxID() + 1
    let added = try SyncFixture.newBooks(600, firstID: firstID, seed: 11)
    let snapshot = try EmbeddedCatalogue.load()
    let changed = try Self.held.enumerated().map { number, id in
      try Self.changed(try #require(snapshot.bookJSON(id: id)), number: number)
    }
    let engine = try SyncFixture.server(embedded: embedded, upserting: added + changed)
    let upstream = LoopbackServer(handler: engine, port: 0)
    let upstreamURL = try await upstream.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let add = try await app.run(
      ["favorites", "add", "--source", "local"] + Self.held.map(String.init))
    let sync = try await app.run(
      ["sync", "--json", "--server", upstreamURL.absoluteString], timeout: .seconds(300))
    await upstream.stop()
    #expect(add.status == 0, "\(add)")
    #expect(sync.status == 0, "\(sync)")
    let report = try #require(try JSONSerialization.jsonObject(with: sync.stdout) as? [String: Any])
    #expect(report["added"] as? Int == 600, "\(report)")
    #expect(report["updated"] as? Int == Self.held.count, "\(report)")

    // The synced catalogue, served by the binary.
    let binary = URL(fileURLWithPath: Gutenberg.binary).deletingLastPathComponent()
      .appendingPathComponent("gutendex-server").path
    let local = try ChildProcess(
      executable: binary, arguments: ["--port", "0", "--data-dir", app.dataDirectory.path],
      environment: ["PATH": "/usr/bin:/bin"])
    let listening = await local.waitForOutput(timeout: .seconds(120)) { $0.hasSuffix("\n") }
    let localURL = try #require(
      URL(string: local.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(listening, "\(String(decoding: local.stderr, as: UTF8.self))")
    let reference = LoopbackServer(handler: engine, port: 0)
    let referenceURL = try await reference.start()

    var generator = SeededGenerator(seed: 20)
    let targets = QueryMaker(firstID: firstID, held: Self.held).targets(240, using: &generator)
    #expect(targets.count >= 240)
    let transport = CurlTransport()
    // What is compared is the answers, not their speed: on a loaded machine one query of the
    // child server outlasted the client's usual 15 s (the server starved, not hung).
    let patience = Duration.seconds(180)
    var differences: [String] = []
    var nonEmpty = 0
    for target in targets {
      let expected = try await transport.send(
        HTTPRequest(
          url: try #require(URL(string: referenceURL.absoluteString + target)), timeout: patience))
      let actual = try await transport.send(
        HTTPRequest(
          url: try #require(URL(string: localURL.absoluteString + target)), timeout: patience))
      let expectedBody = String(decoding: expected.body, as: UTF8.self)
        .replacingOccurrences(of: referenceURL.absoluteString, with: "http://HOST")
      let actualBody = String(decoding: actual.body, as: UTF8.self)
        .replacingOccurrences(of: localURL.absoluteString, with: "http://HOST")
      if expected.status == 200, !expectedBody.hasPrefix(#"{"count":0"#) { nonEmpty += 1 }
      if expected.status != actual.status || expectedBody != actualBody {
        differences.append(
          "\(target): \(expected.status) vs \(actual.status)\n  \(expectedBody.prefix(300))\n"
            + "  \(actualBody.prefix(300))")
      }
    }
    await reference.stop()
    local.kill(SIGTERM)
    _ = await local.wait(timeout: .seconds(60))

    #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(5))")
    // The queries find books: a suite of empty answers would prove nothing.
    #expect(nonEmpty >= targets.count / 2, "only \(nonEmpty) non-empty answers")
  }
}

/// Random Gutendex requests over every parameter, aimed at both the snapshot's books and the
/// synced ones (new ids, the held books' changed records, words of the new titles).
struct QueryMaker {
  let firstID: Int
  let held: [Int]

  func targets(_ count: Int, using generator: inout SeededGenerator) -> [String] {
    var targets: [String] = []
    let words = [
      "volume", "dickens", "austen", "shelley", "history", "the", "de", "war", "love", "poems",
      "frankenstein", "volume 3", "of the", "", "a b", "%", "_", "ÉMILE", "zzzz",
    ]
    let topics = [
      "fiction", "history", "Synced Shelf", "poetry", "children", "science", "", "category",
      "france -- ",
    ]
    let languages = ["en", "fr", "de", "fi", "en,fr", "es,it,nl", "EN", "", "xx", "en, fr"]
    let mimes = ["text/", "application/epub", "audio/", "TEXT/", "image/jpeg", "text/plain;"]
    let sorts = ["ascending", "descending", "popular", "bogus"]
    let copyrights = ["true", "false", "null", "false,null", "true,false", "yes"]
    func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &generator)] }
    func someIDs() -> String {
      (0..<Int.random(in: 1...6, using: &generator)).map { _ in
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: String(firstID + Int.random(in: 0..<620, using: &generator))
        case 1: String(pick(held))
        case 2: String(Int.random(in: 1...76_000, using: &generator))
        default: String(firstID + 700)
        }
      }.joined(separator: ",")
    }
    while targets.count < count {
      var parameters: [(String, String)] = []
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: parameters.append(("search", pick(words)))
        case 1: parameters.append(("languages", pick(languages)))
        case 2: parameters.append(("topic", pick(topics)))
        case 3:
          parameters.append(
            ("author_year_start", String(Int.random(in: -500...2000, using: &generator))))
        case 4:
          parameters.append(
            ("author_year_end", String(Int.random(in: -500...2000, using: &generator))))
        case 5: parameters.append(("copyright", pick(copyrights)))
        case 6: parameters.append(("ids", someIDs()))
        case 7: parameters.append(("mime_type", pick(mimes)))
        default: parameters.append(("sort", pick(sorts)))
        }
      }
      if Int.random(in: 0..<4, using: &generator) == 0 {
        parameters.append(("page", pick(["2", "3", "last", "0", "99999"])))
      }
      let query = BookQuery.encode(parameters.map { (name: $0.0, value: $0.1) })
      if Int.random(in: 0..<5, using: &generator) == 0 {
        // A detail: a new book, a held (changed) book, a snapshot book, none, not a number.
        let id = pick([
          String(firstID + Int.random(in: 0..<600, using: &generator)), String(pick(held)),
          String(Int.random(in: 1...70_000, using: &generator)), String(firstID + 9_999), "abc",
        ])
        targets.append("/books/\(id)/" + (query.isEmpty ? "" : "?\(query)"))
      } else {
        targets.append("/books/" + (query.isEmpty ? "" : "?\(query)"))
      }
    }
    return targets
  }
}
