import Foundation
import Testing

@testable import Terminal

/// Renders every screen and compares it with its capture in `Screens/`; with
/// `GUTENBERG_RECORD_SCREENS=1` rewrites the captures instead.
@Suite struct ScreenCaptureTests {
  static let screensDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Screens")

  static var isRecording: Bool {
    ProcessInfo.processInfo.environment["GUTENBERG_RECORD_SCREENS"] == "1"
  }

  @Test(arguments: try SampleScreens.all().map(\.name))
  func captureMatches(name: String) throws {
    let capture = try #require(try SampleScreens.all().first { $0.name == name })
    let rendered = capture.screen.text(width: capture.width, style: .plain)
    let file = Self.screensDirectory.appendingPathComponent("\(name).txt")
    if Self.isRecording {
      try rendered.write(to: file, atomically: true, encoding: .utf8)
      #expect(try String(contentsOf: file, encoding: .utf8) == rendered)
      return
    }
    let saved = try String(contentsOf: file, encoding: .utf8)
    let difference = Self.diff(saved, rendered)
    #expect(
      difference.isEmpty,
      "Screens/\(name).txt differs (GUTENBERG_RECORD_SCREENS=1 rewrites it):\n\(difference)")
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
