import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// ``ProcessTreeQueue`` finds a child's whole tree and the time it spent queued for a CPU, which
/// ``StarvedDeadline`` discounts past its cap.
@Suite(.serialized, .ownThread) struct ProcessTreeQueueTests {
  /// A shell that starts `count` busy loops (`yes > /dev/null`) and waits for them.
  static func busyShell(_ count: Int) throws -> ChildProcess {
    let loops = Array(repeating: "yes > /dev/null &", count: count).joined(separator: " ")
    let child = try ChildProcess(
      executable: try SystemTool.path("sh"), arguments: ["-c", "\(loops) wait"], environment: [:])
    child.closeInput()
    return child
  }

  @Test func theTreeHoldsTheGrandchildrenAndTheirQueueing() async throws {
    // More busy loops than cores: each has to queue for a CPU, whatever else runs.
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let shell = try Self.busyShell(cores + 2)
    defer {
      for pid in ProcessTreeQueue.tree(shell.pid) where pid != shell.pid { kill(pid, SIGKILL) }
      shell.kill()
    }
    try await Awaiting.condition("the shell's \(cores + 2) busy loops to start") {
      ProcessTreeQueue.tree(shell.pid).count == cores + 3
    }
    let queue = ProcessTreeQueue(root: shell.pid)
    // The shell itself sleeps in `wait`: what queued is the grandchildren, summed.
    try await Awaiting.condition("the busy loops to have queued for a CPU") {
      queue.queued() > .nanoseconds(ProcessTreeQueue.waited(shell.pid)) + .milliseconds(100)
    }
  }

  @Test func aChildWithoutChildrenIsItsOwnTree() async throws {
    let child = try ChildProcess(
      executable: try SystemTool.path("sleep"), arguments: ["60"], environment: [:])
    child.closeInput()
    defer { child.kill() }
    #expect(ProcessTreeQueue.tree(child.pid) == [child.pid])
    // A process that is gone is a tree of itself, queued for nothing.
    #expect(ProcessTreeQueue.tree(-1) == [-1])
    #expect(ProcessTreeQueue.waited(-1) == 0)
  }
}
