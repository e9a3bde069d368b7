import Foundation

/// What a documented line must have done: exited as documented, printed something sensible
/// for its subcommand, asked the loopback server exactly when it should, and, for the one-shot
/// commands, printed none of the browser's key hints. A subcommand this file does not know yet
/// gets the general checks only (status, something printed, no `error:` line).
extension DocsSandbox {
  /// The browser's footer and prompt; a one-shot command printing one of these is a bug.
  static let browserHints = ["q quit", "? help", "b back", "Type f N"]

  func check(line: String, requests: Int, into outcome: inout Outcome) {
    let shell = ShellWords.split(line)
    let statuses = outcome.statuses
    let expected = outcome.command.expectedStatus
    var problems: [String] = []
    guard statuses.count == shell.segments.count else {
      outcome.problems.append("ran \(statuses.count) commands, expected \(shell.segments.count)")
      return
    }
    let invocations = shell.segments.enumerated().compactMap { index, words in
      Invocation(words: words).map { (index, $0) }
    }
    for (index, status) in statuses.enumerated() {
      let isGutenberg = invocations.contains { $0.0 == index }
      let isLast = index == statuses.count - 1
      // A command whose reader stopped early ends with SIGPIPE (141): not a failure.
      if !isLast && status == 141 { continue }
      let wanted = isGutenberg ? expected : 0
      if status != wanted {
        let program = shell.segments[index].first ?? "?"
        problems.append("`\(program)` (command \(index + 1)) exited \(status), expected \(wanted)")
      }
    }

    let errorLines = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
    if expected == 0, !errorLines.isEmpty {
      problems.append("error lines on standard error: \(errorLines)")
    }
    if expected != 0, errorLines.count != 1 {
      problems.append("expected one `error:` line on standard error, got \(errorLines.count)")
    }
    if outcome.stdout.isEmpty && outcome.stderr.isEmpty && shell.redirections.isEmpty {
      problems.append("printed nothing")
    }

    // Once a documented `gutenberg sync` went well, lists and details may come from the local
    // catalogue with no request (the README's local-first lines): they may ask, or not.
    let synced = FileManager.default.fileExists(
      atPath: data.appendingPathComponent("catalogue/state.json").path)
    func asks(_ invocation: Invocation) -> Bool? {
      synced && invocation.mayAnswerLocallyFirst ? nil : invocation.asksServer
    }
    let usesServer = invocations.contains { asks($0.1) == true }
    let asksNothing = invocations.allSatisfy { asks($0.1) == false }
    if expected == 0, usesServer, requests == 0 {
      problems.append("never asked the loopback server")
    }
    if usesServer, outcome.stderr.contains("note: offline") {
      problems.append("fell back to local books: the loopback server did not answer")
    }
    if asksNothing, requests > 0 {
      problems.append("asked the server \(requests) times, though nothing in it should")
    }

    for (index, invocation) in invocations where expected == 0 {
      let isLast = index == shell.segments.count - 1
      let redirect = shell.redirections.last { $0.segment == index && $0.descriptor == 1 }
      let printed: String?
      if let redirect {
        let file = resolve(redirect.path)
        guard let data = FileManager.default.contents(atPath: file.path), !data.isEmpty else {
          problems.append("wrote nothing to \(redirect.path)")
          continue
        }
        printed = String(decoding: data, as: UTF8.self)
      } else {
        // Piped into another command: only that command's output is seen, checked above.
        printed = isLast ? outcome.stdout : nil
      }
      problems += checkOutput(invocation, stdout: printed, stderr: outcome.stderr)
    }
    outcome.problems += problems
  }

  /// A path as the shell would resolve it in the working directory.
  func resolve(_ path: String) -> URL {
    if path.hasPrefix("~/") { return home.appendingPathComponent(String(path.dropFirst(2))) }
    if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
    return work.appendingPathComponent(path)
  }

  /// The checks for what one subcommand prints; `stdout` is nil when it went down a pipe.
  func checkOutput(_ invocation: Invocation, stdout: String?, stderr: String) -> [String] {
    var problems: [String] = []
    let path = invocation.canonicalPath
    let lines = stdout.map { $0.split(separator: "\n").map(String.init) } ?? []
    // Help and completion scripts describe the browser's keys: only their being there counts.
    if invocation.isMeta {
      if stdout?.isEmpty == true { problems.append("--help/--version printed nothing") }
      return problems
    }
    if let stdout, invocation.isOneShot {
      for hint in Self.browserHints where stdout.contains(hint) {
        problems.append("a one-shot command printed the browser's '\(hint)'")
      }
    }
    func json(_ text: String) -> Any? {
      try? JSONSerialization.jsonObject(with: Data(text.utf8))
    }
    func needStdout(_ what: String, _ test: (String) -> Bool) {
      guard let stdout else { return }
      if stdout.isEmpty || !test(stdout) { problems.append("standard output is not \(what)") }
    }
    func needStderr(_ what: String, _ prefix: String) {
      if !stderr.split(separator: "\n").contains(where: { $0.hasPrefix(prefix) }) {
        problems.append("standard error does not say \(what) (`\(prefix)`)")
      }
    }
    switch path.first {
    case nil:
      needStdout("a browse screen") { $0.contains(" · page 1 of ") }
    case "list" where invocation.isJSON:
      needStdout("JSON books") { json($0) != nil }
    case "list":
      needStdout("tab-separated books (id, title, authors, languages, downloads)") { _ in
        lines.allSatisfy { line in
          let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
          return fields.count == 5 && Int(fields[0]) != nil && Int(fields[4]) != nil
        }
      }
    case "show":
      let id = invocation.operands.first ?? ""
      if invocation.isJSON {
        needStdout("the JSON of book \(id)") {
          ((json($0) as? [String: Any])?["id"] as? Int).map(String.init) == id
        }
      } else {
        needStdout("the details of book \(id)") { _ in
          lines.contains { $0.hasPrefix("Id:") && $0.hasSuffix(" \(id)") }
        }
      }
    case "status":
      needStdout("the status") {
        invocation.isJSON ? (json($0) as? [String: Any])?["server"] != nil : lines.first == "Status"
      }
    case "favorites":
      switch path.dropFirst().first {
      case "add":
        for id in invocation.operands where !stderr.contains(": \(id) ") {
          problems.append("standard error does not confirm favourite \(id)")
        }
      case "remove":
        needStderr("what was removed", "removed: ")
      case "export":
        if let output = invocation.value(of: ["-o", "--output"]) {
          let data = FileManager.default.contents(atPath: resolve(output).path) ?? Data()
          if (try? JSONSerialization.jsonObject(with: data)) == nil {
            problems.append("\(output) is not a JSON document")
          }
          needStderr("where it exported", "Exported ")
        } else {
          needStdout("a JSON document") { json($0) != nil }
        }
      case "import":
        needStderr("what it imported", "Imported from ")
      case "refresh":
        needStderr("what it refreshed", "Refreshed ")
      default:
        needStdout("favourites") { _ in !lines.isEmpty }
      }
    case "cache":
      if path.dropFirst().first == "clear" {
        needStderr("what it cleared", "Cleared ")
      } else {
        needStdout("the cache's figures") {
          invocation.isJSON ? json($0) != nil : $0.hasPrefix("cache:")
        }
      }
    case "sync":
      if invocation.arguments.contains("--log") {
        needStdout("the sync log") { _ in lines.allSatisfy { $0.contains(" new book") } }
      } else if invocation.isJSON {
        needStdout("the sync as JSON") {
          let object = json($0) as? [String: Any]
          return ["added", "updated", "requests", "seconds", "result"].allSatisfy {
            object?[$0] != nil
          }
        }
      } else {
        needStdout("the sync's line") {
          $0.range(
            of:
              #"^[0-9,]+ new books?, [0-9,]+ updated, ([0-9,]+ removed, )?[0-9,]+ requests?, "#
              + #"([0-9.,]+ (B|KiB|MiB|GiB), )?[0-9.]+ s( \([^()]+\))?\n$"#,
            options: .regularExpression) != nil
        }
      }
    case "library" where invocation.operands.first == "update" && !invocation.isJSON:
      needStdout("the update's summary line") {
        $0.range(
          of: #"^Checked [0-9,]+ (books?|files of [0-9,]+ books?): [0-9,]+ (updated|would be "#
            + #"updated), [0-9,]+ unchanged, [0-9,]+ failed \([0-9,]+ requests?\)[^\n]*\n$"#,
          options: .regularExpression) != nil
      }
    case "library" where invocation.operands.first == "search":
      if invocation.isJSON {
        needStdout("the matches as JSON") { json($0) is [Any] }
      } else {
        needStdout("tab-separated matches (id, title, chapter, offset, line, read command)") { _ in
          lines.allSatisfy { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count == 6 && Int(fields[0]) != nil && Int(fields[3]) != nil
              && fields[5].hasPrefix("gutenberg read \(fields[0]) --at ")
          }
        }
      }
    default:
      // A subcommand this test does not know yet: the general checks above still hold.
      break
    }
    return problems
  }
}
