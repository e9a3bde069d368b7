import Foundation
import Gutendex
import Synchronization
import Terminal
import Testing

/// One-shot commands on a terminal print their result and end: none of the interactive
/// browser's key hints or prompts, which would mean nothing outside it.
@MainActor
@Suite(.serialized)
struct OneShotOutputTests {
  /// Lines written to standard output and standard error.
  final class Capture: Sendable {
    private let text = Mutex((out: "", err: ""))
    var out: String { text.withLock { $0.out } }
    var err: String { text.withLock { $0.err } }

    func output() -> TerminalOutput {
      TerminalOutput(
        isTerminal: true, errorIsTerminal: false, style: .plain, width: 100,
        writeOut: { line in self.text.withLock { $0.out += line } },
        writeErr: { line in self.text.withLock { $0.err += line } })
    }
  }

  /// The browser's key hints as any of its screens ends with them.
  static let interactiveHints = ["q quit", "? help", "b back", "l links", "f fav", "Type f N"]

  static func app(_ capture: Capture) async throws -> (AppContext, URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-oneshot-\(UUID().uuidString)", isDirectory: true)
    let options = AppOptions(
      dataDirectory: directory.path, source: .embedded, color: .never, environment: [:])
    return (try await AppContext(options: options, output: capture.output()), directory)
  }

  static func expectNoHints(_ text: String, _ command: String) {
    for hint in interactiveHints {
      #expect(!text.contains(hint), "\(command) printed '\(hint)':\n\(text)")
    }
  }

  @Test func statusEndsWithItsLastField() async throws {
    let capture = Capture()
    let (app, directory) = try await Self.app(capture)
    defer { try? FileManager.default.removeItem(at: directory) }

    #expect(await StatusRunner(context: app).run(format: .automatic) == .ok)

    let lines = capture.out.split(separator: "\n").map(String.init)
    #expect(lines.first == "Status", "\(capture.out)")
    #expect(lines.contains { $0.hasPrefix("Source:") && $0.contains("embedded catalogue") })
    #expect(lines.last?.hasPrefix("Recent requests:") == true, "\(capture.out)")
    Self.expectNoHints(capture.out, "status")
  }

  @Test func showEndsWithTheBook() async throws {
    let capture = Capture()
    let (app, directory) = try await Self.app(capture)
    defer { try? FileManager.default.removeItem(at: directory) }

    #expect(await ShowRunner(context: app).run(id: 84, format: .automatic) == .ok)

    #expect(capture.out.hasPrefix("Frankenstein"), "\(capture.out)")
    #expect(capture.out.contains("Id:           84"), "\(capture.out)")
    let lines = capture.out.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("Summary:") }, "\(capture.out)")
    // Then every download link, the last line a URL: no keys to press after it.
    #expect(lines.contains { $0.hasPrefix("Links for 84 · ") }, "\(capture.out)")
    #expect(lines.last?.contains("https://www.gutenberg.org/") == true, "\(capture.out)")
    Self.expectNoHints(capture.out, "show 84")
  }

  @Test func emptyFavoritesSayHowToAddOneFromTheShell() async throws {
    let capture = Capture()
    let (app, directory) = try await Self.app(capture)
    defer { try? FileManager.default.removeItem(at: directory) }

    #expect(await FavoritesRunner(context: app).list(order: .newest, format: .automatic) == .ok)

    #expect(capture.out.contains("Favourites · 0 books"), "\(capture.out)")
    #expect(capture.out.contains("gutenberg favorites add ID"), "\(capture.out)")
    Self.expectNoHints(capture.out, "favorites list")
  }

  @Test func listAndCacheInfoPrintNoHints() async throws {
    let capture = Capture()
    let (app, directory) = try await Self.app(capture)
    defer { try? FileManager.default.removeItem(at: directory) }

    #expect(
      await ListRunner(context: app).run(query: .init(), all: false, format: .automatic) == .ok)
    #expect(await CacheRunner(context: app).info(format: .automatic) == .ok)

    #expect(capture.out.contains("page 1 of"), "\(capture.out)")
    #expect(capture.out.contains("cache: 0 pages"), "\(capture.out)")
    Self.expectNoHints(capture.out, "list, cache info")
  }

  /// The browser itself still shows its keys: the hints were taken only from one-shot output.
  @Test func theBrowserKeepsItsHints() async throws {
    let capture = Capture()
    let (app, directory) = try await Self.app(capture)
    defer { try? FileManager.default.removeItem(at: directory) }

    #expect(await BrowseRunner(context: app).run(query: .init(), input: Lines(["q"])) == .ok)

    #expect(capture.out.contains("? help · q quit"), "\(capture.out)")
  }

  /// Commands fed one at a time, as from a pipe.
  final class Lines: LineSource {
    private let remaining: Mutex<[String]>
    let isInteractive = false
    init(_ lines: [String]) { remaining = Mutex(lines) }
    func nextLine() async -> String? {
      remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
  }
}
