import Foundation
import Testing

@testable import Terminal

/// Produces every capture the way a user reaches the screen (``ProductionCaptures``) and
/// compares it with its file in `Screens/`; with `GUTENBERG_RECORD_SCREENS=1` rewrites the files
/// instead. `EndToEndTests/CaptureBinaryTests` checks that the built binary prints the same.
@MainActor
@Suite(.serialized) struct ScreenCaptureTests {
  static let screensDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Screens")

  static var isRecording: Bool {
    ProcessInfo.processInfo.environment["GUTENBERG_RECORD_SCREENS"] == "1"
  }

  @Test func everyCaptureMatchesWhatTheAppPrints() async throws {
    let captures = try await ProductionCaptures.all()
    var names = Set<String>()
    for capture in captures {
      names.insert(capture.name + ".txt")
      let file = Self.screensDirectory.appendingPathComponent("\(capture.name).txt")
      #expect(!capture.text.isEmpty, "\(capture.name) printed nothing")
      if Self.isRecording {
        try capture.text.write(to: file, atomically: true, encoding: .utf8)
        continue
      }
      let saved = try String(contentsOf: file, encoding: .utf8)
      let difference = Self.diff(saved, capture.text)
      #expect(
        difference.isEmpty,
        "Screens/\(capture.name).txt differs (GUTENBERG_RECORD_SCREENS=1 rewrites it):\n\(difference)"
      )
    }
    // No stale capture of a screen that no longer exists.
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.screensDirectory.path)
      .filter { $0.hasSuffix(".txt") }
    #expect(Set(files) == names)
  }

  /// The first few differing lines, `-` saved and `+` rendered.
  static func diff(_ saved: String, _ rendered: String) -> String {
    let old = saved.components(separatedBy: "\n")
    let new = rendered.components(separatedBy: "\n")
    var out: [String] = []
    for index in 0..<max(old.count, new.count) where out.count < 12 {
      let before = index < old.count ? old[index] : "(none)"
      let after = index < new.count ? new[index] : "(none)"
      if before != after {
        out.append("line \(index + 1):")
        out.append("- \(before)")
        out.append("+ \(after)")
      }
    }
    return out.joined(separator: "\n")
  }
}
