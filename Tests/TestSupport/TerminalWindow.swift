import Foundation

/// The binary in a real terminal window: a tmux session of a chosen size on a socket of its
/// own, driven by keys (`send-keys`) and read as a person sees it (`capture-pane`), so the
/// tests check the screen after the terminal has interpreted every escape sequence.
struct TerminalWindow {
  let socket: String
  let app: Gutenberg

  /// Starts `gutenberg arguments` in a `columns`×`rows` window, with ``Gutenberg``'s environment
  /// (less `COLUMNS`, so the window's own width is used) and `TERM` set to `term`.
  init(
    _ app: Gutenberg, _ arguments: [String], columns: Int, rows: Int,
    term: String = "xterm-256color"
  ) async throws {
    try await self.init(
      app, program: [Gutenberg.binary] + arguments, columns: columns, rows: rows, term: term)
  }

  /// An interactive shell (bash, with job control, prompt `$ `) in the window, with the app's
  /// environment: the program is started by typing it (``typeCommand(_:)``), as a user would.
  static func shell(_ app: Gutenberg, columns: Int, rows: Int) async throws -> TerminalWindow {
    var app = app
    app.extraEnvironment["PS1"] = "$ "
    return try await TerminalWindow(
      app, program: [try SystemTool.path("bash"), "--norc", "--noprofile", "-i"],
      columns: columns, rows: rows, term: "xterm-256color")
  }

  private init(
    _ app: Gutenberg, program: [String], columns: Int, rows: Int, term: String
  ) async throws {
    self.app = app
    socket = app.root.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8))").path
    var environment = app.environment
    environment["COLUMNS"] = nil
    environment["TERM"] = term
    let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    let command =
      ["cd", Self.quoted(app.root.path), "&&", "env", "-i"]
      + assignments.map(Self.quoted) + program.map(Self.quoted)
    // After the program, the shell says how it ended and the terminal's mode it left
    // (`[tty icanon echo]` when given back as it was), and keeps the window (and its last
    // screen) until ``close()``.
    let script =
      command.joined(separator: " ")
      + #"; status=$?; mode=$(stty -a | tr ' ;' '\n\n' | grep -x -e '-*icanon' -e '-*echo')"#
      + #"; printf '\n[exited %s]\n[tty %s]\n' "$status" "$(echo $mode)"; exec sleep 120"#
    try await tmux([
      "-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), script,
    ])
    // Keep the window at the size asked for, whatever client attaches (none does).
    try await tmux(["set-option", "-g", "window-size", "manual"])
  }

  /// Types `gutenberg arguments` and Enter (in a ``shell(_:columns:rows:)`` window).
  func typeCommand(_ arguments: [String]) async throws {
    try await type(([Gutenberg.binary] + arguments).map(Self.quoted).joined(separator: " "))
    try await press("Enter")
  }

  /// Types `text` as it is (no key names).
  func type(_ text: String) async throws {
    try await tmux(["send-keys", "-l", "--", text])
  }

  /// Presses keys by tmux's names: `Enter`, `Up`, `C-r`, `Tab`, `C-d`.
  func press(_ keys: String...) async throws {
    try await tmux(["send-keys", "--"] + keys)
  }

  /// What the window shows now, one string per row (trailing spaces removed).
  func screen() async throws -> [String] {
    let child = try await tmux(["capture-pane", "-p"])
    return String(decoding: child.stdout, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map { String($0.reversed().drop { $0 == " " }.reversed()) }
  }

  /// The row the cursor is on, and its column.
  func cursor() async throws -> (row: Int, column: Int) {
    let child = try await tmux(["display-message", "-p", "#{cursor_y} #{cursor_x}"])
    let parts = String(decoding: child.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    return (Int(parts.first ?? "") ?? -1, Int(parts.dropFirst().first ?? "") ?? -1)
  }

  /// Changes the window's size (the program gets SIGWINCH).
  func resize(columns: Int, rows: Int) async throws {
    try await tmux(["resize-window", "-x", String(columns), "-y", String(rows)])
  }

  /// Polls the screen until `predicate` holds: whether it did before the deadline (time the
  /// machine was starved of CPU not counted), and the last screen seen (for the failure's
  /// message).
  func waitForScreen(
    timeout: Duration = .seconds(60), _ predicate: ([String]) -> Bool
  ) async throws -> (held: Bool, screen: String) {
    let deadline = StarvedDeadline(timeout)
    var last: [String] = []
    while !deadline.hasPassed {
      last = try await screen()
      if predicate(last) { return (true, last.joined(separator: "\n")) }
      try await Task.sleep(for: .milliseconds(50))
    }
    last = try await screen()
    return (predicate(last), last.joined(separator: "\n"))
  }

  /// Waits for the program to exit (the window stays, showing its last screen and
  /// `[exited N]`); false at the deadline.
  func waitForExit(timeout: Duration = .seconds(60)) async throws -> Bool {
    try await waitForScreen(timeout: timeout) { $0.contains { $0.hasPrefix("[exited ") } }.held
  }

  /// Sends `signal` to the `gutenberg` processes running in the window (found under the
  /// window's own process, as `kill` from another terminal would find them); returns how many.
  @discardableResult
  func signalProgram(_ signal: Int32) async throws -> Int {
    let shown = try await tmux(["display-message", "-p", "#{pane_pid}"])
    let text = String(decoding: shown.stdout, as: UTF8.self)
    guard let root = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return 0 }
    // Parent of every process, from /proc/PID/stat (the field after the command's ")").
    var parents: [Int32: Int32] = [:]
    var names: [Int32: String] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = Int32(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")"), let open = stat.firstIndex(of: "(")
      else { continue }
      names[pid] = String(stat[stat.index(after: open)..<close])
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 1, let parent = Int32(fields[1]) { parents[pid] = parent }
    }
    func descends(_ pid: Int32) -> Bool {
      var current = pid
      for _ in 0..<64 {
        guard let parent = parents[current] else { return false }
        if parent == root { return true }
        current = parent
      }
      return false
    }
    let targets = names.filter { $0.value == "gutenberg" && descends($0.key) }.keys
    for pid in targets { kill(pid, signal) }
    return targets.count
  }

  /// Ends the session and its server (the program gets SIGHUP).
  func close() async {
    _ = try? await tmux(["kill-server"])
  }

  /// ``close()`` for a `defer`, which cannot wait asynchronously: a test that throws half-way
  /// leaves no tmux server (nor the program in it) behind.
  func closeNow() {
    guard let tmux = try? SystemTool.path("tmux") else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tmux)
    process.arguments = ["-S", socket, "kill-server"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return }
    process.waitUntilExit()
  }

  @discardableResult
  private func tmux(_ arguments: [String]) async throws -> ChildProcess {
    try await SystemTool.run("tmux", ["-S", socket] + arguments, timeout: .seconds(60))
  }

  /// `text` quoted for /bin/sh.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
