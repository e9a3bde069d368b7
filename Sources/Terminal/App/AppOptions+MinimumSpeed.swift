import Gutendex

extension AppOptions {
  /// Why `GUTENBERG_MIN_SPEED` cannot be used, in one line.
  struct BadMinimumSpeed: Error, Sendable {
    var message: String
  }

  /// The slowest a book download may go: `GUTENBERG_MIN_SPEED` as `BYTES/SECONDS` (`0` turns
  /// the rule off), else ``MinimumSpeed/standard`` (1,024 bytes/s over 60 s, as curl's
  /// `--speed-limit 1024 --speed-time 60`).
  func minimumSpeed() throws(BadMinimumSpeed) -> MinimumSpeed? {
    guard let text = environment["GUTENBERG_MIN_SPEED"], !text.isEmpty else {
      return .standard
    }
    if text == "0" { return nil }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let bytes = Int(parts[0]), bytes > 0, let seconds = Double(parts[1]),
      seconds > 0, seconds <= 3_600
    else {
      throw BadMinimumSpeed(
        message: "GUTENBERG_MIN_SPEED: '\(Sanitizer.sanitize(text))' is not BYTES/SECONDS "
          + "(for example 1024/60), or 0 for no minimum")
    }
    return MinimumSpeed(bytesPerSecond: bytes, window: .milliseconds(Int64(seconds * 1000)))
  }
}
