import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// Every command line of README.md and of `gutenberg --help` runs as written: exit status 0
/// (or the one its comment documents) and sensible output, against a loopback server. A README
/// edit that breaks an example fails here. How lines are adapted to the sandbox (the loopback
/// server for `--server`, the built binary for `swift run`) is told in ``DocsSandbox``.
@Suite(.serialized, .ownThread)
struct ReadmeExampleTests {
  /// The package's root directory, found from this file's path.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  static func readmeCommands() throws -> [DocumentedCommand] {
    let url = packageRoot.appendingPathComponent("README.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    return DocumentedCommand.extract(markdown: text, file: "README.md")
  }

  /// Runs the lines in order in one sandbox (the README's `favorites import` reads the file its
  /// `favorites export` wrote) and returns how each fared.
  static func runAll(_ commands: [DocumentedCommand]) async throws -> [DocsSandbox.Outcome] {
    let sandbox = try await DocsSandbox.start()
    var outcomes: [DocsSandbox.Outcome] = []
    do {
      for command in commands { outcomes.append(try await sandbox.run(command)) }
    } catch {
      await sandbox.stop()
      throw error
    }
    await sandbox.stop()
    return outcomes
  }

  @Test func everyReadmeCommandRunsAsWritten() async throws {
    let commands = try Self.readmeCommands()
    // The usage section alone has ten; fewer means the extraction broke, not the README.
    #expect(commands.count >= 10, "\(commands)")

    let outcomes = try await Self.runAll(commands)

    for outcome in outcomes {
      #expect(outcome.problems.isEmpty, "\(outcome)")
    }
    let skipped = outcomes.filter { $0.skipped != nil }
    // `make install` is a release build; InstallTests runs its copy step (`make install-files`).
    #expect(
      skipped.allSatisfy {
        $0.ranLine == nil && $0.command.line.contains(/\bswift (test|format)\b|^make install\b/)
      },
      "\(skipped)")
    if ProcessInfo.processInfo.environment["GUTENBERG_DOCS_VERBOSE"] != nil {
      for outcome in outcomes { print(outcome) }
    }
    #expect(outcomes.count - skipped.count >= 10)
  }

  /// The lines the README promises work, among those extracted; guards the extraction itself.
  @Test func theUsageExamplesAreAmongThem() throws {
    let lines = Set(try Self.readmeCommands().map(\.line))
    for line in [
      "gutenberg --source local list", "gutenberg --server https://gutendex.example.org list",
      "gutenberg sync", "gutenberg sync --json",
      "gutenberg status", "swift run gutenberg list", "printf 'n\\nf 3\\nF\\nq\\n' | gutenberg",
    ] {
      #expect(lines.contains(line), "\(line) not found in \(lines.sorted())")
    }
  }

  /// The help texts of the root and of each subcommand.
  static func helpTexts() async throws -> [(name: String, text: String)] {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let root = try await app.run(["--help"])
    try #require(root.status == 0, "\(root)")
    var texts = [("gutenberg --help", root.out)]
    let section = root.out.components(separatedBy: "SUBCOMMANDS:").dropFirst().first ?? ""
    let names = section.split(separator: "\n").compactMap { line -> String? in
      // `  name (default)   abstract` or `  a, b, c`: the subcommand's name starts a line.
      guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
      return line.split(whereSeparator: { $0 == " " || $0 == "," }).first.map(String.init)
    }
    #expect(names.count >= 6, "\(names)")
    for name in names {
      let run = try await app.run([name, "--help"])
      try #require(run.status == 0, "\(name): \(run)")
      texts.append(("gutenberg \(name) --help", run.out))
    }
    return texts
  }

  @Test func everyHelpExampleRuns() async throws {
    let commands = try await Self.helpTexts().flatMap {
      DocumentedCommand.extract(help: $0.text, origin: $0.name)
    }
    // The root's discussion shows how to drive the browser from a pipe.
    #expect(commands.contains { $0.line.contains("| gutenberg") }, "\(commands)")

    let outcomes = try await Self.runAll(commands)

    for outcome in outcomes {
      #expect(outcome.problems.isEmpty, "\(outcome)")
      #expect(outcome.skipped == nil, "\(outcome)")
    }
  }
}
