import Foundation

/// One line of the results table: a figure, its samples, the baseline's, and the target.
struct ResultRow: Sendable {
  /// What a value is, for formatting.
  enum Unit: Sendable {
    case seconds, bytes
    /// A plain number (requests).
    case count
  }

  /// The target a median must meet (at most), if the figure has one.
  enum Target: Sendable {
    case none
    case atMost(Double)
    /// At most this value and at least this many times better than the baseline.
    case atMostAndRatio(Double, Double)
    /// A ratio to the baseline of at most this (1.11: at least 0.9x the baseline's rate).
    case ratioAtMost(Double)
    /// The 99th percentile at most this (a latency every keypress must meet, not the typical).
    case p99AtMost(Double)
  }

  var figure: String
  var unit: Unit
  var samples: Samples
  var baselineName: String
  var baseline: Samples
  var target: Target
  /// Extra facts shown under the table (throughput, page counts).
  var note: String?

  /// How many times the figure's median is the baseline's (>1 means slower than the baseline).
  var ratio: Double { samples.median / baseline.median }

  /// `2.04x`, or `1/290x` for ratios far below 1 (a speed-up over the baseline).
  var ratioText: String {
    guard ratio.isFinite, ratio > 0 else { return "-" }
    return ratio < 0.1 ? "1/\(Int((1 / ratio).rounded()))x" : String(format: "%.2fx", ratio)
  }

  var met: Bool? {
    switch target {
    case .none: nil
    case .atMost(let limit): samples.median <= limit
    case .atMostAndRatio(let limit, let times):
      samples.median <= limit && baseline.median / samples.median >= times
    case .ratioAtMost(let limit): ratio <= limit
    case .p99AtMost(let limit): samples.quantile(0.99) <= limit
    }
  }

  func format(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    switch unit {
    case .seconds:
      if value < 0.001 { return String(format: "%.1f µs", value * 1e6) }
      if value < 1 { return String(format: "%.2f ms", value * 1e3) }
      return String(format: "%.2f s", value)
    case .bytes:
      return String(format: "%.1f MiB", value / 1_048_576)
    case .count:
      return String(format: value == value.rounded() ? "%.0f" : "%.1f", value)
    }
  }

  var targetText: String {
    switch target {
    case .none: "-"
    case .atMost(let limit): "<= \(format(limit))"
    case .atMostAndRatio(let limit, let times): "<= \(format(limit)), ratio <= 1/\(Int(times))"
    case .ratioAtMost(let limit): String(format: "ratio <= %.2f", limit)
    case .p99AtMost(let limit): "p99 <= \(format(limit)) (p99 \(format(samples.quantile(0.99))))"
    }
  }

  var cells: [String] {
    let metText: String =
      switch met {
      case nil: "n/a"
      case true?: "yes"
      case false?: "NO"
      }
    return [
      figure, "\(samples.count)", format(samples.median), format(samples.p90),
      "\(format(samples.min)) – \(format(samples.max))",
      "\(baselineName): \(format(baseline.median))", ratioText, targetText,
      metText,
    ]
  }

  static let headers = [
    "figure", "n", "median", "p90", "min – max", "baseline (median)", "ratio", "target", "met?",
  ]

  /// The rows as a Markdown table (also readable as plain text).
  static func table(_ rows: [ResultRow]) -> String {
    let all = [headers] + rows.map(\.cells)
    var widths = Array(repeating: 0, count: headers.count)
    for cells in all {
      for (index, cell) in cells.enumerated() {
        widths[index] = Swift.max(widths[index], cell.count)
      }
    }
    func line(_ cells: [String]) -> String {
      "| "
        + cells.enumerated().map { index, cell in
          cell + String(repeating: " ", count: widths[index] - cell.count)
        }.joined(separator: " | ") + " |"
    }
    var lines = [line(headers), line(widths.map { String(repeating: "-", count: $0) })]
    lines += rows.map { line($0.cells) }
    return lines.joined(separator: "\n")
  }
}
