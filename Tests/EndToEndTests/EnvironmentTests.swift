import Foundation
import Testing

@testable import TestSupport

/// Every environment variable the program reads is checked by one rule before anything is
/// opened: a value that cannot be used is exit 64 and one line naming the variable and what it
/// accepts; nothing is created in the data directory and no request is sent.
@Suite struct EnvironmentTests {
  /// A variable, a value it cannot take, and the words the error must hold.
  struct Case: Sendable, CustomTestStringConvertible {
    var variable: String
    /// The value; `{file}` stands for a regular file, `{dir}` a directory, `{fifo}` a FIFO,
    /// `{missing}` a path that does not exist.
    var value: String
    var accepts: String
    var testDescription: String { "\(variable)=\(value)" }
  }

  static let cases: [Case] = [
    Case(variable: "GUTENDEX_URL", value: "ftp://mirror.example/", accepts: "an http(s) URL"),
    Case(variable: "GUTENDEX_URL", value: "gutendex.com", accepts: "an http(s) URL"),
    Case(variable: "GUTENBERG_DATA_DIR", value: "{file}", accepts: "a directory"),
    Case(variable: "GUTENBERG_CACHE_DIR", value: "{file}", accepts: "a directory"),
    Case(variable: "GUTENBERG_SOURCE", value: "bogus", accepts: "auto, server or local"),
    Case(variable: "GUTENBERG_TIMEOUT", value: "abc", accepts: "a number of seconds"),
    Case(variable: "GUTENBERG_TIMEOUT", value: "0", accepts: "a number of seconds"),
    Case(variable: "GUTENBERG_TIMEOUT", value: "601", accepts: "a number of seconds"),
    Case(variable: "GUTENBERG_MAX_AGE", value: "bogus", accepts: "a duration like 7d"),
    Case(variable: "GUTENBERG_SYNC_INTERVAL", value: "soon", accepts: "a duration like 24h"),
    Case(variable: "GUTENBERG_MIN_SPEED", value: "fast", accepts: "BYTES/SECONDS"),
    Case(variable: "GUTENBERG_MIRROR", value: "not a url", accepts: "an http(s) URL"),
    Case(
      variable: "GUTENBERG_MIRRORS", value: "https://ok.example/pg ftp://bad.example",
      accepts: "an http(s) URL"),
    Case(variable: "GUTENBERG_DOWNLOAD_DIR", value: "{file}", accepts: "a directory"),
    Case(variable: "GUTENBERG_FEED_URL", value: "feeds/rdf.tar.bz2", accepts: "an http(s) URL"),
    Case(variable: "GUTENBERG_FEED_MAX_AGE", value: "weekly", accepts: "a duration like 7d"),
    Case(variable: "GUTENBERG_PG_URL", value: "www.gutenberg.org", accepts: "an http(s) URL"),
    Case(variable: "GUTENBERG_PG_PAUSE", value: "-1", accepts: "a number of seconds"),
    Case(variable: "GUTENBERG_PG_PAUSE", value: "slow", accepts: "a number of seconds"),
    Case(variable: "GUTENBERG_INDEX", value: "{missing}", accepts: "a file that exists"),
    Case(variable: "GUTENBERG_INDEX", value: "{dir}", accepts: "a regular file"),
    Case(variable: "GUTENBERG_INDEX", value: "{fifo}", accepts: "a regular file"),
    Case(variable: "GUTENBERG_WPM", value: "fast", accepts: "a number of words a minute"),
    Case(variable: "GUTENBERG_WPM", value: "10", accepts: "a number of words a minute"),
    Case(
      variable: "GUTENBERG_SMTP_URL", value: "https://smtp.example.org",
      accepts: "an smtp:// or smtps:// URL"),
    Case(
      variable: "GUTENBERG_SMTP_URL", value: "smtp.example.org", accepts: "an smtp:// or smtps://"),
    Case(variable: "GUTENBERG_MAIL_FROM", value: "me at example.org", accepts: "a mail address"),
  ]

  @Test(arguments: cases)
  func aBadValueIsOneLineNamingTheVariableAndExit64(_ bad: Case) async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let file = app.root.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: file)
    let fifo = app.root.appendingPathComponent("a-fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let value = bad.value.replacingOccurrences(of: "{file}", with: file.path)
      .replacingOccurrences(of: "{dir}", with: app.root.path)
      .replacingOccurrences(of: "{fifo}", with: fifo)
      .replacingOccurrences(of: "{missing}", with: app.root.appendingPathComponent("none").path)
    app.extraEnvironment[bad.variable] = value
    let before = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)

    let run = try await app.run(["list"])
    #expect(run.status == 64, "\(run)")
    #expect(run.errLines.count == 1, "\(run)")
    #expect(run.err.hasPrefix("error: \(bad.variable): '"), "\(run)")
    #expect(run.err.contains(bad.accepts), "\(run)")
    #expect(run.out.isEmpty, "\(run)")
    if bad.variable != "GUTENBERG_DATA_DIR" {
      let after = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      #expect(after == before, "files were made: \(after)")
    }
  }

  /// An option wins over its variable, so a bad variable the option replaces is not used.
  @Test func anOptionReplacesItsVariable() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    app.extraEnvironment["GUTENBERG_SOURCE"] = "bogus"
    app.extraEnvironment["GUTENBERG_TIMEOUT"] = "abc"
    let run = try await app.run(["list", "--source", "local", "--timeout", "5"])
    #expect(run.status == 0, "\(run)")
    #expect(!run.out.isEmpty, "\(run)")
  }

  /// An empty variable counts as unset.
  @Test func anEmptyVariableIsUnset() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    app.extraEnvironment["GUTENBERG_SOURCE"] = "local"
    app.extraEnvironment["GUTENBERG_TIMEOUT"] = ""
    app.extraEnvironment["GUTENBERG_MIRROR"] = ""
    app.extraEnvironment["GUTENBERG_INDEX"] = ""
    let run = try await app.run(["list"])
    #expect(run.status == 0, "\(run)")
  }
}
