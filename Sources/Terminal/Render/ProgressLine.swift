import Foundation

/// The one-line download progress: name, bytes, percent, rate and time left; or the final line.
package struct ProgressLine: Sendable, Hashable {
  /// The file being written.
  package var name: String
  /// Bytes in the file so far.
  package var received: Int64
  /// The full size, when known.
  package var total: Int64?
  /// Bytes a second over this transfer.
  package var bytesPerSecond: Double
  /// Seconds since this transfer started.
  package var elapsed: Double
  /// True for the final line.
  package var finished: Bool

  /// A progress line.
  package init(
    name: String, received: Int64, total: Int64?, bytesPerSecond: Double, elapsed: Double,
    finished: Bool = false
  ) {
    self.name = name
    self.received = received
    self.total = total
    self.bytesPerSecond = bytesPerSecond
    self.elapsed = elapsed
    self.finished = finished
  }

  /// The longest time shown (99:59:59); a longer one is no estimate worth printing.
  static let longestClock = 359_999.0

  /// `1:05` or `1:02:03`; `--:--` for a time too long to mean anything (a server announcing
  /// exabytes at a few bytes a second), which would not even fit an `Int`.
  static func clock(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds <= longestClock else { return "--:--" }
    let whole = Int(max(0, seconds).rounded())
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    let pad = rest < 10 ? "0\(rest)" : "\(rest)"
    if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(pad)" }
    return "\(minutes):\(pad)"
  }

  /// The text, fitted to `width` cells (the name is shortened first).
  package func text(width: Int) -> String {
    let size = TextFormat.bytes(Int(received))
    let rate = TextFormat.bytes(Int(bytesPerSecond.isFinite ? min(bytesPerSecond, 1e18) : 0)) + "/s"
    var parts: [String]
    if finished {
      parts = ["\(size) in \(Self.clock(elapsed))", rate]
    } else if let total, total > 0 {
      // Clamped before the conversion: a server may send more than it announced.
      let percent = Int(min(999, max(0, Double(received) * 100 / Double(total))))
      let remaining =
        bytesPerSecond > 0 ? (Double(total) - Double(received)) / bytesPerSecond : .nan
      parts = [
        "\(size) / \(TextFormat.bytes(Int(total)))", "\(percent)%", rate,
        "ETA " + Self.clock(remaining),
      ]
    } else {
      parts = [size, rate]
    }
    let tail = "  " + parts.joined(separator: "  ")
    let room = width - DisplayWidth.cells(tail) - 1
    // The numbers matter more than the name: the name gives way first, then the line is cut.
    let label = room >= 4 ? DisplayWidth.truncate(Sanitizer.sanitize(name), toCells: room) : ""
    return DisplayWidth.truncate(label + tail, toCells: width - 1)
  }
}

extension ProgressLine: LineRendering {
  /// One line.
  package func lines(width: Int, style: Style) -> [String] {
    [text(width: width)]
  }
}
