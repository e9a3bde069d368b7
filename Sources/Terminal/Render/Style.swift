/// Wraps text in SGR colour and emphasis codes when enabled, and returns it untouched when not.
///
/// Colour only ever adds emphasis: every meaning is also in the text itself (the favourite mark
/// is `*`, errors start with `error:`), so plain output loses nothing. Apply styles after
/// measuring and truncating: the codes take no cells but do count as characters.
package struct Style: Sendable, Hashable {
  /// Whether codes are written at all.
  package var isEnabled: Bool

  /// A style that writes codes only when `isEnabled`.
  package init(isEnabled: Bool) {
    self.isEnabled = isEnabled
  }

  /// No colour: every method returns its text as it is.
  package static let plain = Style(isEnabled: false)

  /// Bold (SGR 1).
  package func bold(_ text: String) -> String { wrap(text, "1") }
  /// Dim (SGR 2).
  package func dim(_ text: String) -> String { wrap(text, "2") }
  /// Reverse video (SGR 7).
  package func reverse(_ text: String) -> String { wrap(text, "7") }
  /// Red foreground (SGR 31).
  package func red(_ text: String) -> String { wrap(text, "31") }
  /// Green foreground (SGR 32).
  package func green(_ text: String) -> String { wrap(text, "32") }
  /// Yellow foreground (SGR 33).
  package func yellow(_ text: String) -> String { wrap(text, "33") }
  /// Cyan foreground (SGR 36).
  package func cyan(_ text: String) -> String { wrap(text, "36") }

  /// The escape sequences this type writes, for tests and for measuring styled text.
  package static let resetCode = "\u{1B}[0m"

  private func wrap(_ text: String, _ code: String) -> String {
    guard isEnabled, !text.allSatisfy(\.isWhitespace) else { return text }
    return "\u{1B}[\(code)m\(text)\(Self.resetCode)"
  }
}
