import Foundation
import Gutendex

/// An error as the user sees it: one line starting with `error:` (wrapped only when the
/// terminal is too narrow for it), sanitised.
public struct ErrorLine: Sendable, Hashable {
  /// What went wrong, without the `error:` prefix.
  public var message: String

  /// An error line with `message` (sanitised when rendered).
  public init(_ message: String) {
    self.message = message
  }

  /// The line for a failed request.
  public init(_ error: GutendexError) {
    switch error {
    case .rateLimited(let retryAfter, _):
      self = .rateLimited(retryAfter: retryAfter)
    default:
      self.init(error.description)
    }
  }

  /// `rate limited, retry in 2 s` (or `retry later` when the server did not say).
  public static func rateLimited(retryAfter: Duration?) -> ErrorLine {
    guard let retryAfter else { return ErrorLine("rate limited, retry later") }
    let seconds = max(
      1,
      Int(
        (Double(retryAfter.components.seconds)
          + Double(retryAfter.components.attoseconds) / 1e18).rounded(.up)))
    return ErrorLine("rate limited, retry in \(seconds) s")
  }

  /// `page 9 is out of range (1–3)`.
  public static func pageOutOfRange(page: Int, pageCount: Int) -> ErrorLine {
    let last = max(1, pageCount)
    let range = last == 1 ? "only page 1" : "1–\(TextFormat.grouped(last))"
    return ErrorLine("page \(TextFormat.grouped(page)) is out of range (\(range))")
  }

  /// `unknown command 'xyz' — type ? for help`.
  public static func unknownCommand(_ command: String) -> ErrorLine {
    ErrorLine("unknown command '\(command)' — type ? for help")
  }

  /// The single line, for logs and standard error.
  public var text: String {
    "error: " + Sanitizer.sanitize(message)
  }
}

extension ErrorLine: LineRendering {
  /// `error: …`, wrapped under the message when wider than `width`.
  public func lines(width: Int, style: Style) -> [String] {
    let wrapped = TextWrapper.wrap(
      Sanitizer.sanitize(message), toCells: width, firstPrefix: "error: ", prefix: "       ")
    guard let first = wrapped.first else { return [style.red("error:")] }
    return [style.red("error:") + first.dropFirst("error:".count)] + wrapped.dropFirst()
  }
}
