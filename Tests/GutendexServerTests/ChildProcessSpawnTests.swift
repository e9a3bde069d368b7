import Foundation
import TestTraits
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// ``ChildProcess`` starts children as a shell would: nothing blocked, SIGINT, SIGTERM, SIGHUP
/// and SIGPIPE at their defaults, and no descriptor but its three streams. The test runner's
/// own threads block some of these signals, and a child inherits the spawning thread's mask
/// unless the spawn resets it; it inherits every descriptor not marked close-on-exec, too.
@Suite(.ownThread) struct ChildProcessSpawnTests {
  /// The hexadecimal mask of `field` (`SigBlk`, `SigIgn`) in `/proc/<pid>/status`.
  static func mask(_ field: String, of pid: pid_t) throws -> UInt64 {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
    return try #require(UInt64(line.split(separator: "\t").last ?? "", radix: 16), "\(line)")
  }

  /// A `sleep` that only a signal ends early, started from a thread of the cooperative pool
  /// (where tests spawn their children).
  static func sleeper() throws -> ChildProcess {
    let child = try ChildProcess(
      executable: try SystemTool.path("sleep"), arguments: ["60"], environment: [:])
    child.closeInput()
    return child
  }

  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func aSignalEndsTheChild(signal: Int32) async throws {
    let child = try Self.sleeper()
    child.kill(signal)
    // Far below sleep's 60 s: a blocked signal would leave it running until the harness
    // killed it at this deadline (timedOut, SIGKILL).
    let exit = await child.wait(timeout: .seconds(60))
    #expect(exit.signal == signal, "\(exit)")
    #expect(!exit.timedOut)
  }

  @Test func theChildBlocksAndIgnoresNothingItWouldNotUnderAShell() async throws {
    let child = try Self.sleeper()
    let blocked = try Self.mask("SigBlk", of: child.pid)
    let ignored = try Self.mask("SigIgn", of: child.pid)
    child.kill(SIGKILL)
    _ = await child.wait(timeout: .seconds(60))
    // `sleep` blocks and ignores nothing itself; bit n-1 stands for signal n.
    #expect(blocked == 0, "blocked: \(String(blocked, radix: 16))")
    for signal in ChildProcess.signalsReset {
      #expect(ignored & (1 << UInt64(signal - 1)) == 0, "signal \(signal) ignored")
    }
  }

  @Test func theChildGetsItsThreeStreamsAndNoOtherDescriptor() async throws {
    // A socket as FlyingSocks makes them (not close-on-exec), open while the child starts.
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socket >= 0)
    defer { close(socket) }
    let child = try Self.sleeper()
    // Listed once `sleep` sleeps (clock_nanosleep, 230 on x86_64; nanosleep, 35, elsewhere):
    // while its loader still runs it has ld.so.cache or a library open, as fd 3, and on a
    // loaded machine that lasts long enough to be listed.
    try await Awaiting.condition("sleep to be asleep, its start-up done") {
      let call = (try? String(contentsOfFile: "/proc/\(child.pid)/syscall", encoding: .utf8))?
        .split(separator: " ").first
      return call == "230" || call == "35"
    }
    let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd")
    child.kill(SIGKILL)
    _ = await child.wait(timeout: .seconds(60))
    #expect(open.sorted() == ["0", "1", "2"])
  }
}
