import Foundation

/// The machine the figures come from, for the report.
enum Machine {
  static var description: String {
    let cpu =
      (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("model name") }?
      .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
    let memory =
      (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("MemTotal") }?
      .split(separator: " ").dropFirst().first.flatMap { Double($0) }
      .map { String(format: "%.1f GiB", $0 / 1_048_576) } ?? "unknown"
    #if DEBUG
      let build = "DEBUG build (figures not valid: use -c release)"
    #else
      let build = "release build"
    #endif
    return
      "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu), \(memory) RAM, \(build)"
  }

  /// The 1-minute load average: above the core count, other work competed with the bench.
  static var loadAverage: String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
      .split(separator: " ").first.map(String.init) ?? "unknown"
  }
}
