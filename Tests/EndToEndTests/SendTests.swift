import Catalog
import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// `send ID --to DIR` and `send ID --to mail:ADDRESS` with the real binary: the book lands on
/// the "device" whole or not at all, under Project Gutenberg's name; a mail reaches a loopback
/// SMTP server with the EPUB attached, and a refusal is one line that keeps the book.
@Suite(.serialized, .ownThread)
struct SendTests {
  static func epub() -> Data {
    EPUBFixture.make(
      id: 84, title: "Frankenstein", chapters: 6, chapterBytes: 30_000, imageBytes: 150_000,
      seed: 5)
  }

  /// The fixture server with book 84's files, a device, and a folder standing for the e-reader.
  static func setUp() async throws -> (TestServer, Gutenberg, URL) {
    let server = try await TestServer.start()
    try BookFiles.serve84(
      on: server.server,
      epub: ServedFile(content: .bytes(epub()), contentType: "application/epub+zip"))
    let app = try Gutenberg().mirrored(to: server.url)
    let device = app.root.appendingPathComponent("KOBOeReader", isDirectory: true)
    try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
    return (server, app, device)
  }

  func send(_ app: Gutenberg, _ server: TestServer, _ arguments: [String]) async throws
    -> Gutenberg.Run
  {
    try await app.run(["send", "84"] + arguments + ["--server", server.url.absoluteString])
  }

  @Test func theBookLandsUnderGutenbergsNameOnceAndWhole() async throws {
    let (server, app, device) = try await Self.setUp()
    defer { app.cleanUp() }
    let run = try await send(app, server, ["--to", device.path])
    #expect(run.status == 0, "\(run)")
    let target = device.appendingPathComponent("pg84-images-3.epub")
    #expect(run.out == target.path + "\n", "\(run)")
    #expect(try Data(contentsOf: target) == Self.epub())
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: device.path) == ["pg84-images-3.epub"])
    let library = try await app.run(["library", "--json"])
    #expect(library.out.contains("\"epub\""), "the EPUB is in the library: \(library)")

    let again = try await send(app, server, ["--to", device.path])
    #expect(again.status == 0 && again.out == target.path + "\n", "\(again)")
    try Data("another book".utf8).write(to: target)
    let refused = try await send(app, server, ["--to", device.path])
    #expect(refused.status == 1, "\(refused)")
    #expect(
      refused.errLines == ["error: \(target.path) exists (another file); --force replaces it"])
    #expect(try Data(contentsOf: target) == Data("another book".utf8), "kept")
    let forced = try await send(app, server, ["--to", device.path, "--force"])
    #expect(forced.status == 0, "\(forced)")
    #expect(try Data(contentsOf: target) == Self.epub())

    let nowhere = try await send(app, server, ["--to", device.appendingPathComponent("no").path])
    #expect(nowhere.status == 64 && nowhere.errLines.count == 1, "\(nowhere)")
    await server.stop()
  }

  /// Killed after the first piece is written: the folder holds nothing at all, not even a
  /// hidden part; the next send puts the whole file there.
  @Test func aCopyKilledHalfWayLeavesNothing() async throws {
    let (server, app, device) = try await Self.setUp()
    defer { app.cleanUp() }
    // The EPUB must be in the library first, so the copy is what is killed.
    let fetch = try await send(app, server, ["--to", app.root.path])
    try #require(fetch.status == 0, "\(fetch)")
    var held = app
    let mark = app.root.appendingPathComponent("copying")
    held.extraEnvironment["GUTENBERG_TEST_SEND_HOLD"] = mark.path
    // 4 MiB pieces: a 9 MiB book is cut after the first.
    let big = EPUBFixture.make(
      id: 84, title: "Frankenstein", chapters: 4, chapterBytes: 20_000, imageBytes: 9_000_000,
      seed: 9)
    let books = app.dataDirectory.appendingPathComponent("books")
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: books.path).first {
        $0.hasSuffix(".epub")
      })
    try big.write(to: books.appendingPathComponent(name))
    let child = try held.start([
      "send", "84", "--to", device.path, "--server", server.url.absoluteString,
    ])
    try await Awaiting.condition("the first piece copied") {
      FileManager.default.fileExists(atPath: mark.path)
    }
    child.kill()
    _ = await child.wait()
    #expect(try FileManager.default.contentsOfDirectory(atPath: device.path) == [], "nothing left")

    let run = try await send(app, server, ["--to", device.path])
    #expect(run.status == 0, "\(run)")
    #expect(try Data(contentsOf: device.appendingPathComponent("pg84-images-3.epub")) == big)
    await server.stop()
  }

  @Test func aMailCarriesTheEPUBAndARefusalIsOneLine() async throws {
    let (server, app, _) = try await Self.setUp()
    defer { app.cleanUp() }
    let smtp = try SMTPDouble(
      login: ("reader@example.org", "mail-secret"), refusedRecipients: ["nobody@kindle.com"])
    defer { smtp.stop() }
    var mailer = app
    mailer.extraEnvironment["GUTENBERG_SMTP_URL"] = "smtp://127.0.0.1:\(smtp.port)"
    mailer.extraEnvironment["GUTENBERG_MAIL_FROM"] = "reader@example.org"
    try "machine 127.0.0.1 login reader@example.org password mail-secret\n".write(
      to: app.root.appendingPathComponent(".netrc"), atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600], ofItemAtPath: app.root.appendingPathComponent(".netrc").path)

    let sent = try await send(mailer, server, ["--to", "mail:me_abc@kindle.com"])
    #expect(sent.status == 0, "\(sent)")
    #expect(sent.out.hasPrefix("sent pg84-images-3.epub to me_abc@kindle.com"), "\(sent)")
    let delivery = try #require(smtp.deliveries.first)
    #expect(delivery.recipients == ["me_abc@kindle.com"] && delivery.from == "reader@example.org")
    let text = String(decoding: delivery.data, as: UTF8.self)
    #expect(text.contains("filename=\"pg84-images-3.epub\""), "\(text.prefix(800))")
    let encoded = try #require(
      text.components(separatedBy: "Content-Transfer-Encoding: base64\r\n\r\n").last?
        .components(separatedBy: "\r\n--").first)
    #expect(Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) == Self.epub())
    #expect(!sent.err.contains("mail-secret"))

    let refused = try await send(mailer, server, ["--to", "mail:nobody@kindle.com"])
    #expect(refused.status == 1, "\(refused)")
    #expect(
      refused.errLines == [
        "error: smtp://127.0.0.1:\(smtp.port) refused the recipient nobody@kindle.com (SMTP 550); "
          + "the book stays in the library"
      ], "\(refused)")
    var wrong = mailer
    wrong.extraEnvironment["GUTENBERG_SMTP_URL"] = "smtp://someone:bad@127.0.0.1:\(smtp.port)"
    let login = try await send(wrong, server, ["--to", "mail:me_abc@kindle.com"])
    #expect(login.status == 1 && login.errLines.count == 1, "\(login)")
    #expect(login.err.contains("refused the login") && !login.err.contains("bad@"), "\(login)")
    let library = try await app.run(["library", "--json"])
    #expect(library.out.contains("\"epub\""), "the book stays: \(library)")
    #expect(smtp.deliveries.count == 1)

    let small = try SMTPDouble(maxSize: 10_000)
    defer { small.stop() }
    var tiny = app
    tiny.extraEnvironment["GUTENBERG_SMTP_URL"] = "smtp://127.0.0.1:\(small.port)"
    tiny.extraEnvironment["GUTENBERG_MAIL_FROM"] = "reader@example.org"
    let large = try await send(tiny, server, ["--to", "mail:me_abc@kindle.com"])
    #expect(large.status == 1 && large.errLines.count == 1, "\(large)")
    #expect(large.err.contains("as too large"), "\(large)")
    await server.stop()
  }

  /// `smtps://`: TLS from the first byte (socat's TLS in front of the SMTP server), the
  /// certificate checked against the CA `SSL_CERT_FILE` names; without that CA, one line.
  @Test func smtpsSpeaksTLSAndChecksTheCertificate() async throws {
    let (server, app, _) = try await Self.setUp()
    defer { app.cleanUp() }
    let smtp = try SMTPDouble()
    defer { smtp.stop() }
    let authority = try await TestCertificateAuthority.make()
    defer { authority.remove() }
    let front = try await TLSFront.start(backendPort: smtp.port, authority: authority)
    var mailer = app
    mailer.extraEnvironment["GUTENBERG_SMTP_URL"] = "smtps://127.0.0.1:\(front.port)"
    mailer.extraEnvironment["GUTENBERG_MAIL_FROM"] = "reader@example.org"
    let untrusted = try await send(mailer, server, ["--to", "mail:me_abc@kindle.com"])
    #expect(untrusted.status == 69 && untrusted.errLines.count == 1, "\(untrusted)")
    #expect(smtp.deliveries.isEmpty, "nothing is sent over an unchecked connection")
    mailer.extraEnvironment["SSL_CERT_FILE"] = authority.certificatePath
    let sent = try await send(mailer, server, ["--to", "mail:me_abc@kindle.com"])
    #expect(sent.status == 0, "\(sent)")
    #expect(smtp.deliveries.first?.recipients == ["me_abc@kindle.com"])
    await front.stop()
    await server.stop()
  }
}
