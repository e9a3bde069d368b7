import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// A hint runs as printed: the resume line of a cut download, pasted into a shell, resumes it,
/// even when the data directory and the server were given as options (issue 27).
@Suite(.serialized, .ownThread)
struct ResumeHintTests {
  @Test func theResumeLineRunsThroughTheShellAndResumes() async throws {
    try await DownloadFaultTests.with(.http) { row in
      let size = 1_000_000
      try BookFiles.serve84(on: row.server, epubSize: size)
      row.server.faults = FaultPlan(truncateBody: true)
      // A data directory with a space, given as an option, and the server as an option: the
      // environment's data directory is another one, and the default server is unreachable.
      let data = row.app.root.appendingPathComponent("my data", isDirectory: true)
      let cut = try await row.app.run(
        [
          "get", "84", "--data-dir", data.path, "--server", row.url.absoluteString, "--timeout",
          "5",
        ],
        inputData: Data(), timeout: .seconds(120))
      #expect(cut.status == 69, "\(cut)")
      let hint = try #require(
        cut.err.components(separatedBy: "is kept: run `").last?.components(separatedBy: "`").first,
        "\(cut)")
      #expect(hint.contains("--data-dir '\(data.path)'"), "\(hint)")
      #expect(hint.contains("--server \(row.url.absoluteString)"), "\(hint)")
      let kept = try #require(row.size(row.part))

      row.server.faults = .none
      var environment = row.app.environment
      let binaries = URL(fileURLWithPath: Gutenberg.binary).deletingLastPathComponent().path
      environment["PATH"] = binaries + ":/usr/bin:/bin"
      let shell = try ChildProcess(
        executable: "/bin/sh",
        arguments: ["-c", "cd \"$1\" && " + hint, "sh", row.app.root.path],
        environment: environment)
      shell.closeInput()
      let exit = await shell.wait(timeout: .seconds(120))
      let err = String(decoding: shell.stderr, as: UTF8.self)
      #expect(exit.code == 0, "`\(hint)` failed: \(err)")
      #expect(row.server.fileRangeHeaders.last == "bytes=\(kept)-", "it resumed: \(err)")
      #expect(row.size(row.target) == size)
    }
  }
}
