import Catalog
import Foundation

/// `gutenberg doctor`: the data directory's files checked, and damaged stores repaired. It
/// opens no store through the service (which would refuse a damaged one before the doctor
/// could look at it): only the location.
package enum DoctorRunner {
  /// `gutenberg doctor [--repair]`: one line per file on standard output (failures as `error:`
  /// lines on standard error). Built without the app, whose service would open the stores
  /// (and refuse a damaged one) before the doctor could look at them.
  ///
  /// Exit status: 0 when every file is sound or was repaired, 65 when damage is left, 1 when a
  /// file could not be checked or repaired.
  package static func run(
    location: StoreLocation, repair: Bool, output: TerminalOutput
  ) -> ExitStatus {
    let findings = StoreDoctor.examine(location, repair: repair)
    for finding in findings {
      if finding.state == .failed {
        output.printError("error: \(Sanitizer.sanitize(finding.detail))")
      } else {
        output.print(Sanitizer.sanitize(finding.line))
      }
    }
    // The catalogues are not repaired here (a sync, or a good copy, mends them).
    if !repair,
      findings.contains(where: { $0.state == .damaged && !$0.name.hasSuffix("catalogue") })
    {
      output.printError(
        "note: `gutenberg doctor --repair` copies what can be read of each damaged store into "
          + "a new file and keeps the damaged one beside it")
    }
    if findings.contains(where: { $0.state == .failed }) { return .failure }
    if findings.contains(where: { $0.state == .damaged }) { return .dataError }
    return .ok
  }
}
