import Foundation

/// A program of the system the harness runs (`openssl`, `socat`, `curl`), found on `PATH` or in
/// the usual directories, and run to its end with a deadline.
public enum SystemTool {
  /// A program that is not installed: `.ci/run` installs it (apt).
  public struct Missing: Error, CustomStringConvertible {
    /// The program's name.
    public var name: String
    /// One line for the test report.
    public var description: String {
      "\(name) is not installed (apt-get install \(name); .ci/run does it)"
    }
  }

  /// A run that did not exit with 0.
  public struct Failed: Error, CustomStringConvertible {
    /// The program and its arguments.
    public var command: [String]
    /// Its exit code, nil when a signal (or the deadline) ended it.
    public var code: Int32?
    /// What it wrote to standard error.
    public var stderr: String
    /// One line (and the program's own lines) for the test report.
    public var description: String {
      "\(command.joined(separator: " ")) exited \(code.map(String.init) ?? "by a signal"): "
        + stderr
    }
  }

  /// The absolute path of `name`.
  public static func path(_ name: String) throws -> String {
    let fromEnvironment = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(
      separator: ":"
    ).map(String.init)
    for directory in fromEnvironment + ["/usr/local/bin", "/usr/bin", "/bin"] {
      let candidate = directory + "/" + name
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw Missing(name: name)
  }

  /// Runs `name` with `arguments` in a minimal environment (plus `environment`) to its end;
  /// throws ``Failed`` unless it exits with 0. Standard input is empty.
  @discardableResult
  public static func run(
    _ name: String, _ arguments: [String], environment: [String: String] = [:],
    timeout: Duration = .seconds(30)
  ) async throws -> ChildProcess {
    let child = try ChildProcess(
      executable: try path(name), arguments: arguments,
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"].merging(environment) { $1 })
    child.closeInput()
    let exit = await child.wait(timeout: timeout)
    guard exit.code == 0 else {
      throw Failed(
        command: [name] + arguments, code: exit.code,
        stderr: String(decoding: child.stderr, as: UTF8.self))
    }
    return child
  }
}
