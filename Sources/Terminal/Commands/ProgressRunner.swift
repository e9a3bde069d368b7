import Catalog
import Foundation

/// `gutenberg progress login|logout|status`: the kosync login (only the key the protocol sends
/// is kept, mode 0600, and never printed) and what sync knows.
package struct ProgressRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Logs in to (or, with `register`, creates) `user` at `server`; the password is asked once
  /// without echo, or is the first line of standard input when that is not a terminal.
  package func login(
    server text: String, user: String, register: Bool, device: String?, match: String?
  ) async -> ExitStatus {
    guard let server = URL(string: text), ["http", "https"].contains(server.scheme?.lowercased()),
      server.host?.isEmpty == false
    else {
      return fail(
        "'\(Sanitizer.sanitize(text))' is not an http(s) URL (e.g. https://sync.koreader.rocks)",
        .usage)
    }
    guard !user.isEmpty, !user.contains(":"), user.allSatisfy({ !$0.isWhitespace }) else {
      return fail("a user name is one word without ':'", .usage)
    }
    let method = match.map { DocumentKey.Method(rawValue: $0.lowercased()) } ?? .binary
    guard let method else { return fail("--match is binary or filename", .usage) }
    guard
      let password = PasswordInput.read(prompt: "password for \(user): ", output: output),
      !password.isEmpty
    else {
      return fail(
        "no password given (type it, or give it as the first line of standard input)", .usage)
    }
    do {
      let outcome = try await context.progressSync.login(
        server: server, user: user, password: password, register: register,
        device: device ?? "gutenberg", match: method)
      output.print(
        (outcome == .registered ? "registered" : "logged in")
          + " as \(user) at \(server.redacted); "
          + "the key is kept in \(context.progressSync.accountFile.path) (mode 0600)")
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// Forgets the login.
  package func logout() -> ExitStatus {
    do {
      let removed = try context.progressSync.logout()
      output.print(removed ? "logged out; the key is removed" : "not logged in")
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// The server, the login (checked with one request unless offline), this device, the queue
  /// and the last record seen of each book.
  package func status(format: ListFormat) async -> ExitStatus {
    let sync = context.progressSync
    let account: SyncAccount?
    let state: ProgressState
    do {
      account = try sync.account()
      state = try sync.state()
    } catch {
      return fail(error)
    }
    var works: Bool?
    var problem: String?
    if account != nil, !options.offline {
      do { works = try await sync.check() } catch { problem = error.description }
    }
    let now = Date()
    let books = state.books.compactMap { key, book in Int(key).map { ($0, book) } }
      .sorted { $0.0 < $1.0 }
    if format == .json {
      var object: [String: Any] = [
        "logged_in": account != nil, "key_file": sync.accountFile.path,
        "device_id": state.deviceID ?? NSNull(),
        "queued": state.queued.map { id, push in
          [
            "id": id, "percentage": push.percentage, "at": JSONText.iso8601(push.at),
            "reason": push.reason ?? NSNull(),
          ] as [String: Any]
        },
        "books": books.map { id, book in ProgressJSON.json(id: id, book) },
      ]
      if let account {
        object["server"] = account.printableServer
        object["user"] = account.user
        object["device"] = account.device
        object["match"] = account.method.rawValue
        object["login_works"] = works ?? NSNull()
        object["problem"] = problem ?? NSNull()
      }
      output.print(JSONText.object(object))
      return .ok
    }
    guard let account else {
      output.print("not logged in: gutenberg progress login URL USER")
      return .ok
    }
    let login =
      works.map { $0 ? "the login works" : "the server refuses the login (progress login again)" }
      ?? problem.map { Sanitizer.sanitize($0) } ?? "not checked (offline)"
    var lines = [
      "server:   \(Sanitizer.sanitize(account.printableServer)) (user \(Sanitizer.sanitize(account.user)); \(login))",
      "device:   \(Sanitizer.sanitize(account.device)) (\(state.deviceID ?? "no id yet"))",
      "matching: \(account.method.rawValue) (KOReader: Progress sync › Document matching method › "
        + (account.method == .binary ? "Binary)" : "Filename)"),
      "key:      \(sync.accountFile.path) (mode 0600)",
      "queued:   "
        + (state.queued.isEmpty
          ? "nothing" : TextFormat.plural(state.queued.count, "place") + " to push"),
    ]
    for (id, book) in books {
      var parts = ["book \(id)"]
      if let remote = book.remote { parts.append(ProgressText.detail(remote, now: now)) }
      if let queued = book.queued {
        parts.append("here \(ProgressText.percent(queued.percentage)) not pushed yet")
      }
      if let file = book.file { parts.append("(\(Sanitizer.sanitize(file)))") }
      lines.append("  " + parts.joined(separator: "  "))
    }
    output.print(lines)
    return .ok
  }
}
