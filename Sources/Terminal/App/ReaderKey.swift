/// One key pressed at the reader on a terminal, where it takes keys without Enter.
package enum ReaderKey: Sendable, Equatable {
  /// A printable character (a letter, a digit, `/`, `:`, a space...).
  case character(Character)
  /// Enter (Return, or Ctrl-J).
  case enter
  /// A control key other than Enter, by its letter: `l` for Ctrl-L.
  case control(Character)
  /// The arrow keys, Page Up/Down, Home and End.
  case up, down, pageUp, pageDown, home, end
  /// Escape alone, or a sequence the reader has no use for.
  case other

  /// The key a byte of the terminal's input stands for, when it is one on its own (not the
  /// start of an escape sequence or of a UTF-8 character).
  static func single(_ byte: UInt8) -> ReaderKey? {
    switch byte {
    case 0x0D, 0x0A: .enter
    case 0x01...0x1A: .control(Character(Unicode.Scalar(byte + 0x60)))
    case 0x20...0x7E: .character(Character(Unicode.Scalar(byte)))
    case 0x1B: nil
    case 0x80...: nil
    default: .other
    }
  }

  /// The key of a CSI or SS3 sequence (`ESC [ A`, `ESC [ 5 ~`, `ESC O H`) from its parameter
  /// bytes and final byte.
  static func sequence(parameters: String, final: UInt8) -> ReaderKey {
    switch (parameters, final) {
    case (_, 0x41): .up
    case (_, 0x42): .down
    case (_, 0x48): .home
    case (_, 0x46): .end
    case ("5", 0x7E): .pageUp
    case ("6", 0x7E): .pageDown
    case ("1", 0x7E), ("7", 0x7E): .home
    case ("4", 0x7E), ("8", 0x7E): .end
    default: .other
    }
  }
}

/// Where the reader takes its keys from on a terminal: one key at a time, without Enter, and
/// the lines a few of them ask for (`:` a command, `/` a search, `m` a note).
package protocol KeySource: Sendable {
  /// The next key; nil at the end of input (the terminal closed).
  func nextKey() async -> ReaderKey?
  /// A line typed after `prompt`, edited as the prompts are; nil when it was dropped (Ctrl-C,
  /// Ctrl-D on an empty line) or input ended.
  func line(prompt: String, typed: String) async -> String?
  /// Gives the terminal back as it was (before the reader returns).
  func stop()
}
