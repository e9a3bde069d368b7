import Foundation

/// An error as the user sees it: one line starting with `error:` (wrapped only when the
/// terminal is too narrow for it), sanitised.
package struct ErrorLine: Sendable, Hashable {
  /// What went wrong, without the `error:` prefix.
  package var message: String

  /// An error line with `message` (sanitised when rendered).
  package init(_ message: String) {
    self.message = message
  }

  /// The single line, for logs and standard error.
  package var text: String {
    "error: " + Sanitizer.sanitize(message)
  }
}

extension ErrorLine: LineRendering {
  /// `error: …`, wrapped under the message when wider than `width`.
  package func lines(width: Int, style: Style) -> [String] {
    let wrapped = TextWrapper.wrap(
      Sanitizer.sanitize(message), toCells: width, firstPrefix: "error: ", prefix: "       ")
    guard let first = wrapped.first else { return [style.red("error:")] }
    return [style.red("error:") + first.dropFirst("error:".count)] + wrapped.dropFirst()
  }
}
