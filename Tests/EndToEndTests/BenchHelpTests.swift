import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// `gutenberg-bench --help` prints its usage and does nothing else: no build, no figure.
@Suite(.ownThread)
struct BenchHelpTests {
  @Test func benchHelpPrintsUsageOnly() async throws {
    let bench = URL(fileURLWithPath: Gutenberg.binary).deletingLastPathComponent()
      .appendingPathComponent("gutenberg-bench").path
    // `--no-build --only 0`: were the help ignored, the bench would still neither build nor
    // measure, and would print an empty table instead of the usage.
    let child = try ChildProcess(
      executable: bench, arguments: ["--help", "--no-build", "--only", "0"],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    child.closeInput()
    let exit = await child.wait(timeout: .seconds(60))
    let out = child.stdoutText
    #expect(exit.code == 0, "\(out)")
    #expect(out.hasPrefix("USAGE: gutenberg-bench"), "\(out)")
    #expect(out.contains("--only N,N,..."), "\(out)")
    // The figures it names: up to 24, the reader on an EPUB.
    #expect(out.contains("only these figures (1 to 25;"), "\(out)")
    #expect(child.stderr.isEmpty, "\(String(decoding: child.stderr, as: UTF8.self))")
  }
}
