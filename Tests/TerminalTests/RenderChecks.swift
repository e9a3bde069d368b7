import Foundation

@testable import Terminal

/// Properties every rendered line must have.
enum RenderChecks {
  /// True when `text` holds a scalar a terminal would act on or that reorders text: ESC and
  /// every other C0 control, DEL, C1 controls, bidi embeddings, overrides, isolates and marks.
  static func hasForbiddenScalar(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
      switch scalar.value {
      case 0x00...0x1F, 0x7F...0x9F: true
      case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
      default: false
      }
    }
  }

  /// `line` without the SGR codes ``Style`` writes, which take no cells.
  static func strippingStyle(_ line: String) -> String {
    line.replacingOccurrences(
      of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
  }

  /// True when `line` holds only SGR codes from ``Style`` (ESC [ digits m) and no other
  /// forbidden scalar.
  static func hasOnlyOwnStyleCodes(_ line: String) -> Bool {
    !hasForbiddenScalar(strippingStyle(line))
  }
}
