import Foundation
import Gutendex
import GutendexEngine
import TestTraits
import Testing

@testable import TestSupport

/// The scriptable subcommands against the loopback engine.
@Suite(.serialized, .ownThread)
struct SubcommandTests {
  @Test func listPipedIsTSVWithTheEngineIDs() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    for (arguments, target) in [
      ([String](), "/books/"),
      (["--search", "dickens", "--sort", "ascending"], "/books/?search=dickens&sort=ascending"),
      (["--language", "fr", "--page", "2"], "/books/?languages=fr&page=2"),
      (["--language", "French,deutsch", "-l", "ESPAÑOL"], "/books/?languages=fr,de,es"),
      (["--topic", "fiction", "--copyright", "no"], "/books/?topic=fiction&copyright=false"),
      (
        ["--author-year-start", "1800", "--author-year-end", "1850"],
        "/books/?author_year_start=1800&author_year_end=1850"
      ),
    ] {
      let expected = try await server.engineIDs(target)
      let run = try await app.run(["list", "--server", server.url.absoluteString] + arguments)
      #expect(run.status == 0, "\(arguments): \(run)")
      #expect(run.err.isEmpty, "\(arguments): \(run)")
      let rows = run.outLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
      #expect(rows.allSatisfy { $0.count == 5 }, "\(arguments): \(run)")
      #expect(rows.map { Int($0[0]) } == expected.ids, "\(arguments): \(run)")
      // The fifth field is the download count, a plain number.
      #expect(rows.allSatisfy { Int($0[4]) != nil }, "\(arguments): \(run)")
    }
    await server.stop()
  }

  /// A search that finds almost nothing gets "did you mean" on standard error; standard output
  /// and the exit code are the server's answer, untouched.
  @Test func aSearchThatFindsLittleGetsASuggestionOnStandardError() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let engine = try EmbeddedCatalogue.load()
    let url = try #require(URL(string: "http://e.test/books/?search=les%20miserables"))
    let body = engine.respond(to: HTTPRequest(url: url)).body
    let expected = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    let arguments = ["list", "--search", "les miserables", "--source", "embedded"]

    let run = try await app.run(arguments)
    let json = try await app.run(arguments + ["--json"])
    let plenty = try await app.run(["list", "--search", "les misérables", "--source", "embedded"])

    #expect(run.status == 0, "\(run)")
    #expect(run.errLines == ["did you mean: les misérables (11 books)?"], "\(run)")
    #expect(run.outLines.count == expected["count"] as? Int, "\(run)")
    #expect(json.status == 0, "\(json)")
    #expect(json.errLines == run.errLines, "\(json)")
    let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
    #expect(object["count"] as? Int == expected["count"] as? Int)
    #expect(plenty.err.isEmpty, "\(plenty)")
    #expect(plenty.outLines.count == 11, "\(plenty)")
  }

  @Test func listJSONParsesWith32Results() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let expected = try await server.engineIDs("/books/")

    let run = try await app.run(["list", "--json", "--server", server.url.absoluteString])
    await server.stop()

    #expect(run.status == 0, "\(run)")
    let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let results = try #require(object["results"] as? [[String: Any]])
    #expect(results.count == 32)
    #expect(results.compactMap { $0["id"] as? Int } == expected.ids)
    #expect(object["count"] as? Int == expected.count)
    #expect(object["source"] as? String == "network")
  }

  @Test func listAllStreamsEveryPage() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    for (arguments, target) in [
      (["--search", "the"], "/books/?search=the"), (["--language", "fr"], "/books/?languages=fr"),
    ] {
      let expected = try await server.engineIDs(target)
      try #require(expected.count > 32, "the query must span pages")
      let run = try await app.run(
        ["list", "--all", "--server", server.url.absoluteString] + arguments)
      #expect(run.status == 0, "\(run)")
      let ids = run.outLines.compactMap { Int($0.split(separator: "\t").first ?? "") }
      #expect(ids.count == expected.count, "\(arguments): \(run)")
      #expect(Set(ids).count == ids.count)
      #expect(Array(ids.prefix(32)) == expected.ids)

      let json = try await app.run(
        ["list", "--all", "--json", "--server", server.url.absoluteString] + arguments)
      let array = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [Any])
      #expect(array.count == expected.count, "\(json)")
    }
    await server.stop()
  }

  @Test func showJSONEqualsTheEngineBytes() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let engineBytes = try #require(server.engine.bookJSON(id: 84))

    let run = try await app.run(["show", "84", "--json", "--server", server.url.absoluteString])
    let text = try await app.run(["show", "84", "--server", server.url.absoluteString])
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == engineBytes + Data("\n".utf8), "\(run)")
    #expect(text.status == 0, "\(text)")
    #expect(
      text.outLines.first?.hasPrefix("Frankenstein; Or, The Modern Prometheus") == true, "\(text)")
    #expect(text.out.contains("Id:           84"), "\(text)")
  }

  @Test func favouritesAddListRemoveExportImport() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    let other = try Gutenberg()
    defer {
      app.cleanUp()
      other.cleanUp()
    }
    let url = server.url.absoluteString

    let add = try await app.run(["favorites", "add", "84", "11", "1342", "--server", url])
    #expect(add.status == 0, "\(add)")
    #expect(
      add.errLines.count == 3 && add.errLines.allSatisfy { $0.hasPrefix("added: ") }, "\(add)")
    #expect(Set(try await app.favoriteIDs()) == [84, 11, 1342])

    let remove = try await app.run(["favorites", "remove", "11", "--server", url])
    #expect(remove.status == 0, "\(remove)")
    #expect(Set(try await app.favoriteIDs()) == [84, 1342])
    let removeAgain = try await app.run(["favorites", "remove", "11", "--server", url])
    #expect(removeAgain.status == 1, "\(removeAgain)")
    #expect(removeAgain.errLines == ["error: 11 is not a favourite"], "\(removeAgain)")
    // Several ids are removed together, and each is answered in the order named.
    _ = try await app.run(["favorites", "add", "11", "--server", url])
    let removeMany = try await app.run([
      "favorites", "rm", "11", "999", "1342", "11", "--server", url,
    ])
    #expect(removeMany.status == 1, "\(removeMany)")
    #expect(
      removeMany.errLines == [
        "removed: 11", "error: 999 is not a favourite", "removed: 1342",
        "error: 11 is not a favourite",
      ], "\(removeMany)")
    #expect(try await app.favoriteIDs() == [84])
    _ = try await app.run(["favorites", "add", "1342", "--server", url])

    let file = app.root.appendingPathComponent("export.json").path
    let export = try await app.run(["favorites", "export", "-o", file])
    #expect(export.status == 0, "\(export)")
    #expect(export.errLines == ["Exported 2 favourites to \(file)"], "\(export)")
    let stdoutExport = try await app.run(["favorites", "export"])
    // Byte-identical apart from `exported_at`: the two runs may fall in different seconds.
    func withoutExportDate(_ data: Data) -> [Substring] {
      String(decoding: data, as: UTF8.self).split(separator: "\n")
        .filter { !$0.contains("\"exported_at\"") }
    }
    let fileExport = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(withoutExportDate(fileExport) == withoutExportDate(stdoutExport.stdout))
    #expect(fileExport.count == stdoutExport.stdout.count)

    let importRun = try await other.run(["favorites", "import", file])
    #expect(importRun.status == 0, "\(importRun)")
    #expect(importRun.err.contains("2 added"), "\(importRun)")
    #expect(Set(try await other.favoriteIDs()) == [84, 1342])
    await server.stop()
  }

  @Test func statusAndCacheSubcommands() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let url = server.url.absoluteString

    _ = try await app.run(["list", "--server", url])
    _ = try await app.run(["list", "--page", "2", "--server", url])
    let status = try await app.run(["status", "--json", "--server", url])
    #expect(status.status == 0, "\(status)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
    #expect(object["server"] as? String == url)
    #expect(object["server_answers"] as? Bool == true)
    #expect((object["cache"] as? [String: Any])?["entries"] as? Int == 2, "\(status)")

    let info = try await app.run(["cache", "info"])
    #expect(info.status == 0 && info.outLines.first?.hasPrefix("cache: 2 pages") == true, "\(info)")
    let clear = try await app.run(["cache", "clear"])
    #expect(clear.status == 0 && clear.errLines == ["Cleared 2 cached pages"], "\(clear)")
    let after = try await app.run(["cache", "info"])
    #expect(after.outLines.first?.hasPrefix("cache: 0 pages") == true, "\(after)")
    await server.stop()
  }
}
