import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// Command-line mistakes: exit 64 and exactly one `error:` line on standard error.
@Suite(.serialized, .ownThread)
struct UsageTests {
  @Test(arguments: [
    ["list", "--bogus"], ["list", "--page", "0"], ["show", "abc"], ["show", "0"],
    ["list", "--copyright", "maybe"], ["--timeout", "0"], ["list", "--language", "e1"],
    ["frobnicate"], ["list", "--server", "ftp://example.invalid"],
    ["list", "--language", "klingon"],
    ["list", "--language", "englsh"],
  ])
  func usageErrorsExit64WithOneLine(arguments: [String]) async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run(arguments + ["--source", "embedded"])

    #expect(run.status == 64, "\(arguments): \(run)")
    #expect(run.errLines.count == 1, "\(arguments): \(run)")
    #expect(run.err.hasPrefix("error: "), "\(arguments): \(run)")
    #expect(run.stdout.isEmpty, "\(arguments): \(run)")
  }

  /// A negative number is refused as a value, not reported missing.
  @Test(arguments: [
    (["list", "--page", "-1"], "error: --page must be 1 or more"),
    (["--timeout", "-5", "list"], "error: --timeout must be more than 0 and at most 600 seconds"),
    (["--max-age", "-5", "list"], "error: --max-age: '-5' is not a duration like 7d"),
  ])
  func aNegativeNumberIsRefusedAsGiven(arguments: [String], message: String) async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run(arguments + ["--source", "embedded"])

    #expect(run.status == 64, "\(run)")
    #expect(run.err.hasPrefix(message), "\(run)")
    #expect(!run.err.contains("Missing value"), "\(run)")
  }

  /// A mistyped subcommand is refused with the one it resembles.
  @Test(arguments: [("lsit", "list"), ("favorits", "favorites"), ("shwo", "show")])
  func aMistypedCommandNamesTheNearest(typed: String, meant: String) async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run([typed, "--source", "embedded"])

    #expect(run.status == 64, "\(run)")
    #expect(
      run.errLines == ["error: unknown command '\(typed)'; did you mean '\(meant)'?"], "\(run)")
  }

  /// An unknown language is refused with the nearest codes named, never an empty list.
  @Test func anUnknownLanguageNamesTheClosest() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run(["list", "--language", "englsh", "--source", "embedded"])

    #expect(run.status == 64, "\(run)")
    #expect(run.err.contains("unknown language 'englsh'; did you mean en (English)"), "\(run)")
  }

  @Test(arguments: [["--help"], ["list", "--help"], ["favorites", "--help"], ["--version"]])
  func helpAndVersionExit0(arguments: [String]) async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run(arguments)

    #expect(run.status == 0, "\(run)")
    #expect(run.err.isEmpty, "\(run)")
    #expect(!run.stdout.isEmpty)
  }
}
