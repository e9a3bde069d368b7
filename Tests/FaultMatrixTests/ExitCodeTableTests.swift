import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// One exit code per kind of failure, whichever command meets it: the same fault is driven
/// through `show`, `list`, `get` and `read` of the real binary, and every one ends the same way
/// with one `error:` line.
@Suite(.serialized, .ownThread)
struct ExitCodeTableTests {
  /// The commands that ask the API, with `SERVER` standing for the loopback server's URL.
  static let apiCommands: [[String]] = [
    ["show", "84", "--server", "SERVER"],
    ["list", "--search", "frankenstein", "--server", "SERVER"],
    ["get", "84", "--server", "SERVER"],
    ["read", "84", "--server", "SERVER"],
  ]

  /// The commands that fetch a book file (the metadata from the embedded catalogue).
  static let fileCommands: [[String]] = [
    ["get", "84", "--format", "txt", "--source", "embedded"],
    ["read", "84", "--source", "embedded"],
  ]

  /// Runs each command against a fresh server set up by `prepare`; returns (command, run).
  static func runEach(
    _ commands: [[String]], prepare: (LoopbackServer) throws -> Void
  ) async throws -> [(String, Gutenberg.Run)] {
    var runs: [(String, Gutenberg.Run)] = []
    for command in commands {
      let server = LoopbackServer(handler: try Fixture.engine())
      let url = try await server.start()
      try BookFiles.serve84(on: server)
      try prepare(server)
      let app = try Gutenberg().mirrored(to: url)
      let arguments = command.map { $0 == "SERVER" ? url.absoluteString : $0 }
      let run = try await app.run(arguments, timeout: .seconds(60))
      runs.append((command.joined(separator: " "), run))
      await server.stop()
      app.cleanUp()
    }
    return runs
  }

  /// The API redirects every request to a foreign http host: refused everywhere, 69.
  @Test func aRefusedRedirectFromTheAPIIs69Everywhere() async throws {
    let runs = try await Self.runEach(Self.apiCommands) { server in
      server.faults = FaultPlan(redirectToForeignHost: true)
    }
    for (command, run) in runs {
      #expect(run.status == 69, "\(command): \(run)")
      #expect(run.errLines.count == 1, "\(command): \(run)")
      #expect(run.err.contains("redirect"), "\(command): \(run)")
    }
  }

  /// A book file redirected to a foreign http host: refused, 69, in `get` and `read` alike.
  @Test func aRefusedRedirectOfABookFileIs69InGetAndRead() async throws {
    let runs = try await Self.runEach(Self.fileCommands) { server in
      server.redirect("/ebooks/84.txt.utf-8", to: "http://example.invalid/84.txt")
    }
    for (command, run) in runs {
      #expect(run.status == 69, "\(command): \(run)")
      #expect(
        run.errLines == [
          "error: refused redirect from 127.0.0.1 to http://example.invalid/84.txt: only "
            + "https is followed (http only on this machine)"
        ], "\(command): \(run)")
    }
  }

  /// A book file behind a redirect loop: too many redirects, 69, in `get` and `read` alike.
  @Test func tooManyRedirectsIs69InGetAndRead() async throws {
    let runs = try await Self.runEach(Self.fileCommands) { server in
      for hop in 0..<6 { server.redirect("/loop/\(hop)", to: "/loop/\(hop + 1)") }
      server.redirect("/ebooks/84.txt.utf-8", to: "/loop/0")
    }
    for (command, run) in runs {
      #expect(run.status == 69, "\(command): \(run)")
      #expect(run.errLines.count == 1, "\(command): \(run)")
      #expect(run.err.contains("too many redirects (more than 5)"), "\(command): \(run)")
    }
  }
}
