import Catalog
import Foundation
import Gutendex

/// `gutenberg send ID --to DIR|mail:ADDRESS`: the book (its EPUB unless `--format`) onto a
/// mounted e-reader under Project Gutenberg's own file name, atomically, or mailed as an
/// attachment through the user's SMTP server; downloaded into the library first when needed.
/// A failure is one line, and the book stays in the library.
package struct SendRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Sends book `id` to `destination` (a folder, or `mail:ADDRESS`).
  package func run(
    id: Int, to destination: String, format formatText: String?, force: Bool, mirror: String?,
    ownsInterrupts: Bool = true
  ) async -> ExitStatus {
    let format: BookFormat
    if let formatText {
      guard let parsed = BookFormat(argument: formatText) else {
        return fail(
          "--format: '\(Sanitizer.sanitize(formatText))' is not one of "
            + BookFormat.names.joined(separator: ", ") + " (or a MIME type)", .usage)
      }
      format = parsed
    } else {
      format = .epub
    }
    var folder: String?
    var address: String?
    if destination.lowercased().hasPrefix("mail:") {
      let text = String(destination.dropFirst("mail:".count))
      guard MailMessage.isAddress(text) else {
        return fail("'\(Sanitizer.sanitize(text))' is not a mail address", .usage)
      }
      address = text
    } else {
      let path = HomePath.expand(destination)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        return fail(
          "\(Sanitizer.sanitize(path)) is not a folder (the e-reader's, mounted)", .usage)
      }
      folder = path
    }
    if address != nil, configuration.smtpServer == nil {
      return fail(
        "GUTENBERG_SMTP_URL is not set (smtps://user@smtp.example.org:465, the password in "
          + "~/.netrc)", .usage)
    }
    let entry: LibraryEntry
    switch await LibraryFiles(context: context).file(
      id: id, format: format, mirror: mirror, ownsInterrupts: ownsInterrupts)
    {
    case .success(let found): entry = found.entry
    case .failure(let failure): return failure.status
    }
    let name =
      URL(string: entry.url).flatMap { DocumentKey.gutenbergFileName(id: id, url: $0) }
      ?? (entry.path as NSString).lastPathComponent
    if let folder {
      do {
        switch try DeviceCopy.copy(source: entry.path, to: folder, name: name, replace: force) {
        case .copied(let path), .alreadyThere(let path): output.print(path)
        }
        return .ok
      } catch {
        return fail(Sanitizer.sanitize(error.description), .failure)
      }
    }
    return await mail(entry, name: name, to: address ?? "")
  }

  /// Mails the library's file as an attachment.
  private func mail(_ entry: LibraryEntry, name: String, to address: String) async -> ExitStatus {
    guard let server = configuration.smtpServer else { return .usage }
    guard let from = configuration.mailFrom else {
      return fail(
        "GUTENBERG_MAIL_FROM is not set (the address the message is from, as your SMTP "
          + "server knows it)", .usage)
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: entry.path), options: .alwaysMapped)
    } catch {
      return fail("cannot read \(entry.path): \(InteractiveSession.reason(error))", .failure)
    }
    let mimeType =
      BookFormat(argument: entry.format).map { format -> String in
        switch format {
        case .epub, .epubNoImages: "application/epub+zip"
        case .mobi: "application/x-mobipocket-ebook"
        case .text: "text/plain; charset=utf-8"
        case .html: "text/html; charset=utf-8"
        case .mime(let type): type
        }
      } ?? "application/octet-stream"
    let message = MailMessage.build(
      from: from, to: address, title: entry.title, id: entry.id, fileName: name,
      mimeType: mimeType, attachment: data)
    do {
      try await CurlMail.send(
        message, from: from, to: address, server: server, timeout: configuration.timeout)
    } catch {
      let status: ExitStatus =
        switch error {
        case .unavailable, .network, .noTLS: .unavailable
        case .loginRefused, .recipientRefused, .tooLarge: .failure
        }
      return fail(Sanitizer.sanitize(error.description) + "; the book stays in the library", status)
    }
    output.print("sent \(name) to \(address) through \(server.redacted)")
    return .ok
  }
}

extension SendRunner {
  /// The destination the browser's last `send` used, for a `send N` that names none.
  @MainActor static var lastDestination: String?

  /// The browser's `send [N] [DIR|mail:ADDRESS]`: as the command, its lines printed under the
  /// screen; without a destination, the last one this session used.
  func sendFromBrowser(id: Int, to destination: String?) async {
    guard let destination = destination ?? Self.lastDestination else {
      output.printError(
        "error: usage: send N DIR or send N mail:ADDRESS (put book N on an e-reader)")
      return
    }
    Self.lastDestination = destination
    _ = await run(
      id: id, to: destination, format: nil, force: false, mirror: nil, ownsInterrupts: false)
  }
}
