import Gutendex

/// `GUTENBERG_MIN_SPEED`: the slowest a transfer may go, as `BYTES/SECONDS` (`0` turns the
/// rule off), like curl's `--speed-limit BYTES --speed-time SECONDS`.
enum MinimumSpeedText {
  /// The speed `text` names; nil for `0` (no minimum); throws for anything else.
  static func parse(_ text: String, name: String) throws(ConfigurationError) -> MinimumSpeed? {
    if text == "0" { return nil }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let bytes = Int(parts[0]), bytes > 0, let seconds = Double(parts[1]),
      seconds > 0, seconds <= 3_600
    else {
      throw ConfigurationError(
        name, text, isNot: "BYTES/SECONDS (for example 1024/60), or 0 for no minimum")
    }
    return MinimumSpeed(bytesPerSecond: bytes, window: .milliseconds(Int64(seconds * 1000)))
  }
}
