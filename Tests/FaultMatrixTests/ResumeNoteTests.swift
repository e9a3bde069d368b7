import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// On a terminal, a resumed `get` says how the file came to be before the line that it is
/// saved: "note: resumed at …" then "Saved …" (it used to be the other way round).
@Suite(.serialized, .ownThread)
struct ResumeNoteTests {
  @Test func theResumeNoteComesBeforeTheSavedLine() async throws {
    try await DownloadFaultTests.with(.http) { row in
      try BookFiles.serve84(on: row.server, epubSize: 1_000_000)
      row.server.faults = FaultPlan(truncateBody: true)
      let cut = try await row.get(["--timeout", "5"])
      #expect(cut.status == 69, "\(cut)")
      row.server.faults = .none
      // script(1) gives the binary a terminal (notes and the Saved line are drawn only there).
      let command =
        "cd '\(row.app.root.path)' && exec '\(Gutenberg.binary)' get 84 --source embedded"
      let child = try ChildProcess(
        executable: "/usr/bin/script", arguments: ["-qec", command, "/dev/null"],
        environment: row.app.environment)
      child.closeInput()
      let exit = await child.wait(timeout: .seconds(60))
      let screen = String(decoding: child.stdout, as: UTF8.self)
      #expect(exit.code == 0, "\(screen)")
      let note = try #require(screen.range(of: "note: resumed at"), "\(screen)")
      let saved = try #require(screen.range(of: "Saved "), "\(screen)")
      #expect(note.lowerBound < saved.lowerBound, "\(screen)")
    }
  }
}
