import Catalog
import Foundation
import GutendexServer
import TestSupport
import Testing

@testable import Terminal

/// The progress sync captures: `progress status` (offline, so the login is not checked and
/// nothing depends on a port), from a data directory at a fixed path; and the reader's offer
/// line, pulled from a loopback kosync server holding a Kobo's record of book 84.
@MainActor
enum ProgressCaptures {
  static let directory = URL(fileURLWithPath: "/tmp/gutenberg-screens-progress", isDirectory: true)

  /// Writes the login and state a device that synced book 84 has: a Kobo's record two hours
  /// old, and a place of this device's queued.
  static func prepare(server: String) throws {
    try? FileManager.default.removeItem(at: directory)
    let progress = directory.appendingPathComponent("progress", isDirectory: true)
    try FileManager.default.createDirectory(at: progress, withIntermediateDirectories: true)
    let account = SyncAccount(
      server: server, user: "reader", key: MD5.hex("a password"), device: "gutenberg",
      match: .filename)
    let file = progress.appendingPathComponent("account.json")
    try JSONEncoder().encode(account).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    let two = Int(Date().timeIntervalSince1970) - 7_300
    let state = """
      {"device_id": "5A1D3F0C9B2E4C7D8E6F1A2B3C4D5E6F", "books": {"84": {
        "document": "\(DocumentKey.fileName("pg84-images-3.epub"))", "file": "pg84-images-3.epub",
        "remote": {"document": "\(DocumentKey.fileName("pg84-images-3.epub"))", "percentage": 0.42,
          "progress": "/body/DocFragment[9]/body/p[12]/text().0", "device": "Kobo",
          "device_id": "KOBO-1", "timestamp": \(two)},
        "queued": {"percentage": 0.12, "progress": "", "at": \(two), "reason": "no answer"}}}}
      """
    try Data(state.utf8).write(to: progress.appendingPathComponent("state.json"))
  }

  static func app(_ capture: OneShotOutputTests.Capture, offline: Bool) async throws -> AppContext {
    let options = AppOptions(
      dataDirectory: directory.path, offline: offline, source: .embedded, color: .never,
      environment: [:])
    return try await AppContext(options: options, output: capture.output())
  }

  /// `gutenberg progress status`.
  static func status() async throws -> String {
    try prepare(server: "https://sync.example.org")
    defer { try? FileManager.default.removeItem(at: directory) }
    let capture = OneShotOutputTests.Capture()
    let app = try await app(capture, offline: true)
    _ = await ProgressRunner(context: app).status(format: .automatic)
    await app.close()
    return capture.out
  }

  /// The line the reader prints before the first page when the Kobo read on.
  static func offer() async throws -> String {
    let double = KOSyncDouble()
    double.addUser("reader", key: MD5.hex("a password"))
    let document = DocumentKey.fileName("pg84-images-3.epub")
    double.record(
      user: "reader", document: document, percentage: 0.42,
      progress: "/body/DocFragment[9]/body/p[12]/text().0", device: "Kobo", deviceID: "KOBO-1",
      timestamp: Int(Date().timeIntervalSince1970) - 7_300)
    let server = LoopbackServer(handler: double)
    let url = try await server.start()
    try prepare(server: url.absoluteString)
    defer { try? FileManager.default.removeItem(at: directory) }
    let capture = OneShotOutputTests.Capture()
    let app = try await app(capture, offline: false)
    var hook = try #require(await ReaderProgress.open(context: app, id: 84, fetches: false))
    let text = BookText(data: try FixtureFiles.data("pg84-sample.txt"))
    let offered = try await hook.offer(
      text: text, saved: nil, top: nil, pageBytes: 80 * 22,
      input: OneShotOutputTests.Lines(["n"])
    ).top
    await app.close()
    await server.stop()
    guard offered == nil else { throw ProductionCaptures.CaptureFailure("n took the offer") }
    return capture.out
  }
}
