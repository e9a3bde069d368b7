import Foundation

/// The message `send --to mail:` sends: a short text and the book as an attachment (base64),
/// as Send-to-Kindle and similar services take it. Header values come from the catalogue and
/// the user, so they are cut at any line break and encoded when they are not ASCII: nothing
/// can add a header.
public enum MailMessage {
  /// Whether `text` is an address the message may be sent to or from (`name@host`, no spaces,
  /// no angle brackets, no line breaks).
  public static func isAddress(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
    let forbidden = Set("<>()[]\\,;:\"".unicodeScalars)
    return text.unicodeScalars.allSatisfy {
      $0.value > 0x20 && $0.value < 0x7F && !forbidden.contains($0)
    }
  }

  /// The whole message, CRLF line ends.
  public static func build(
    from: String, to recipient: String, title: String, id: Int, fileName: String,
    mimeType: String, attachment: Data, date: Date = Date()
  ) -> Data {
    let boundary = "gutenberg-" + UUID().uuidString.lowercased()
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
    let safeName = String(
      fileName.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
    let lines = [
      "From: <\(from)>", "To: <\(recipient)>", "Subject: \(header(title))",
      "Date: \(formatter.string(from: date))",
      "Message-ID: <\(UUID().uuidString.lowercased())@gutenberg>", "MIME-Version: 1.0",
      "Content-Type: multipart/mixed; boundary=\"\(boundary)\"", "",
      "--\(boundary)", "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit", "",
      "\(oneLine(title)): book \(id) of Project Gutenberg, https://www.gutenberg.org/ebooks/\(id)",
      "Sent by gutenberg.", "",
      "--\(boundary)", "Content-Type: \(mimeType); name=\"\(safeName)\"",
      "Content-Disposition: attachment; filename=\"\(safeName)\"",
      "Content-Transfer-Encoding: base64", "",
    ]
    var message = Data(lines.joined(separator: "\r\n").utf8)
    message.append(Data("\r\n".utf8))
    let encoded = attachment.base64EncodedData(options: [
      .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
    ])
    message.append(encoded)
    message.append(Data("\r\n--\(boundary)--\r\n".utf8))
    return message
  }

  /// `text` on one line, without control characters.
  static func oneLine(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map {
          $0.properties.generalCategory == .control ? " " : $0
        }))
  }

  /// A header value: as it is when ASCII, else an RFC 2047 encoded word.
  static func header(_ text: String) -> String {
    let line = oneLine(text)
    guard !line.unicodeScalars.allSatisfy({ $0.isASCII }) else { return line }
    return "=?UTF-8?B?\(Data(line.utf8).base64EncodedString())?="
  }
}
