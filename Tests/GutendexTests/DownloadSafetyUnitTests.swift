import Foundation
import Testing

@testable import Gutendex

/// The pieces that keep a download's own files safe: the sidecar's checks, the lock, and file
/// operations that never follow a link.
@Suite struct DownloadSafetyUnitTests {
  /// A scratch directory, removed by the caller.
  static func scratch() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "download-safety-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test(
    arguments: [
      ("\"v1\"", nil),
      ("Sat, 01 Mar 2025 12:00:00 GMT", nil),
      ("\"v1\"\r\nX-Injected: yes", "contains a control character"),
      ("\"v1\"\n", "contains a control character"),
      ("\"v1\"\r", "contains a control character"),
      ("a\u{0}b", "contains a control character"),
      ("a\u{7F}", "contains a control character"),
      ("\"caf\u{E9}\"", "contains a character that is not ASCII"),
      ("", "is empty"),
    ] as [(String, String?)])
  func aValidatorMustBeAPlainHeaderValue(value: String, problem: String?) {
    #expect(PartialDownload.problem(validator: value) == problem)
  }

  @Test func theSidecarIsCheckedBeforeItIsUsed() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let partial = PartialDownload(destination: directory.appendingPathComponent("book.epub"))
    let url = URL(string: "http://127.0.0.1:1/ebooks/84.epub3.images")!
    #expect(partial.sidecar() == .absent)
    try Data(repeating: 7, count: 10).write(to: partial.partURL)

    try partial.save(.init(url: url.absoluteString, validator: "\"v1\"", total: 20))
    #expect(
      partial.sidecar() == .valid(.init(url: url.absoluteString, validator: "\"v1\"", total: 20)))
    #expect(partial.resumePoint(for: url)?.offset == 10)
    #expect(partial.resumePoint(for: URL(string: "http://127.0.0.1:1/other")!) == nil)

    // A part longer than the whole file is not resumed either.
    try partial.save(.init(url: url.absoluteString, validator: "\"v1\"", total: 5))
    #expect(partial.resumePoint(for: url) == nil)

    #expect(throws: DownloadFile.Failure.self) {
      try partial.save(.init(url: url.absoluteString, validator: "a\r\nb", total: 20))
    }
    let injected = #"{"url":"\#(url.absoluteString)","validator":"a\r\nb","total":20}"#
    try Data(injected.utf8).write(to: partial.infoURL)
    #expect(partial.sidecar() == .damaged("its validator contains a control character"))
    #expect(partial.resumePoint(for: url) == nil)
    #expect(!partial.isResumable)
  }

  @Test func linksAreNeitherFollowedNorRemoved() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let victim = directory.appendingPathComponent("victim")
    try Data("keep".utf8).write(to: victim)
    let link = directory.appendingPathComponent("book.epub.part").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim.path)
    #expect(DownloadFile.kind(link) == .other("a symbolic link"))
    #expect(throws: FileSink.Failure.self) { try FileSink(path: link, truncate: true) }
    DownloadFile.removeRegular(link)
    #expect(DownloadFile.kind(link) == .other("a symbolic link"), "the link is left alone")
    #expect(try Data(contentsOf: victim) == Data("keep".utf8))
    let partial = PartialDownload(destination: directory.appendingPathComponent("book.epub"))
    #expect(partial.unsafeFile()?.path == link)
  }

  /// A second taker waits (told the holder's PID) until the first lets go, and a cancelled
  /// waiter gives up with nothing written.
  @Test func theLockIsHeldUntilReleased() async throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let destination = directory.appendingPathComponent("book.epub")
    let first = try await DownloadLock.acquire(for: destination) { _ in
      Issue.record("the first taker waited")
    }
    let lockFile = destination.path + ".part.lock"
    #expect(try String(contentsOfFile: lockFile, encoding: .utf8) == "\(getpid())\n")

    // flock(2) locks are per open file, so a second open in this process is a real contender.
    let told = AsyncStream<Int32?>.makeStream()
    let second = Task {
      try await DownloadLock.acquire(for: destination) { told.continuation.yield($0) }
    }
    var events = told.stream.makeAsyncIterator()
    #expect(await events.next() == .some(getpid()), "the waiter is told who holds it")

    let cancelled = Task {
      try await DownloadLock.acquire(for: destination) { _ in }
    }
    cancelled.cancel()
    await #expect(throws: DownloadError.interrupted(kept: 0, resumable: false)) {
      try await cancelled.value
    }

    first.release()
    let taken = try await second.value
    #expect(try String(contentsOfFile: lockFile, encoding: .utf8) == "\(getpid())\n")
    taken.release()
    #expect(DownloadFile.kind(lockFile) == .absent, "the lock file is removed on release")
  }
}
