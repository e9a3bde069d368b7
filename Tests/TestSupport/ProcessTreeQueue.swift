import Foundation
import Synchronization

/// How long a process and its descendants have spent queued for a CPU since they were first
/// seen: per process the most any of its threads waited on the run queue
/// (`/proc/<pid>/task/<tid>/schedstat`, second field, ns), summed over the tree. Processes that
/// end keep the last value read for them, so a shell's finished commands still count.
///
/// Read at most once a second (a scan of /proc), for ``StarvedDeadline`` past its cap.
public final class ProcessTreeQueue: Sendable {
  private struct State {
    var waited: [Int32: Int] = [:]
    var lastScan: ContinuousClock.Instant?
  }

  private let root: pid_t
  private let state = Mutex(State())

  /// The tree rooted at `root`.
  public init(root: pid_t) {
    self.root = root
  }

  /// The time queued so far, read anew when the last read is a second old.
  public func queued() -> Duration {
    state.withLock { state in
      if let last = state.lastScan, ContinuousClock.now - last < .seconds(1) {
        return .nanoseconds(state.waited.values.reduce(0, +))
      }
      state.lastScan = .now
      for pid in Self.tree(root) {
        let waited = Self.waited(pid)
        state.waited[pid] = max(state.waited[pid] ?? 0, waited)
      }
      return .nanoseconds(state.waited.values.reduce(0, +))
    }
  }

  /// `root` and every live process below it (parents from `/proc/<pid>/stat`).
  static func tree(_ root: pid_t) -> [Int32] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
      return [root]
    }
    var children: [Int32: [Int32]] = [:]
    for entry in entries {
      guard let pid = Int32(entry),
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // After the command name: state, then the parent's pid.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
      children[parent, default: []].append(pid)
    }
    var out: [Int32] = []
    var pending = [root]
    while let pid = pending.popLast() {
      out.append(pid)
      pending += children[pid] ?? []
    }
    return out
  }

  /// The most any thread of `pid` has waited on the run queue, in ns (0 once it is gone).
  static func waited(_ pid: Int32) -> Int {
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    else { return 0 }
    var most = 0
    for thread in threads {
      guard
        let text = try? String(
          contentsOfFile: "/proc/\(pid)/task/\(thread)/schedstat", encoding: .utf8)
      else { continue }
      let fields = text.split(separator: " ")
      if fields.count > 1,
        let waited = Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
      {
        most = max(most, waited)
      }
    }
    return most
  }
}
