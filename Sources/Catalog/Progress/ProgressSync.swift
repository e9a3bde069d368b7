import Foundation
import Gutendex

/// Reading progress shared with KOReader and other devices through a kosync server: the login
/// (``SyncAccount``, mode 0600), each book's state (``ProgressState``), and the pushes and pulls
/// themselves. A push that fails (no network, a stalled server, a 401) is kept and sent by the
/// next read or `progress push`, so nothing is lost; no request waits longer than the timeout.
public struct ProgressSync: Sendable {
  /// `<data>/progress`.
  public let directory: URL
  let pipeline: HTTPPipeline
  /// How long one request may take.
  public let timeout: Duration
  let now: @Sendable () -> Date

  /// Progress sync for the data directory `dataDirectory`, its requests through `pipeline`.
  public init(
    dataDirectory: URL, pipeline: HTTPPipeline, timeout: Duration,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    directory = dataDirectory.appendingPathComponent("progress", isDirectory: true)
    self.pipeline = pipeline
    self.timeout = timeout
    self.now = now
  }

  /// The file holding the login and its key.
  public var accountFile: URL { directory.appendingPathComponent("account.json") }
  var stateFile: URL { directory.appendingPathComponent("state.json") }
  var lockFile: URL { directory.appendingPathComponent("lock") }

  /// The login, nil before `progress login`; refused (``ProgressSyncError/file(path:reason:)``,
  /// saying `chmod 600 PATH`) when other users may read or change the file of its key.
  public func account() throws(ProgressSyncError) -> SyncAccount? {
    guard let data = try PrivateFile.read(accountFile, secret: true) else { return nil }
    guard let account = try? JSONDecoder().decode(SyncAccount.self, from: data),
      account.serverURL != nil
    else {
      throw .file(path: accountFile.path, reason: "not an account file; progress login again")
    }
    return account
  }

  /// The login, or ``ProgressSyncError/notLoggedIn``.
  public func requireAccount() throws(ProgressSyncError) -> SyncAccount {
    guard let account = try account() else { throw .notLoggedIn }
    return account
  }

  /// The state kept for every book.
  public func state() throws(ProgressSyncError) -> ProgressState {
    guard let data = try PrivateFile.read(stateFile) else { return ProgressState() }
    guard let state = try? Self.decoder.decode(ProgressState.self, from: data) else {
      // A damaged state loses only what a sync can fetch again, and queued pushes.
      throw .file(path: stateFile.path, reason: "not a progress state file")
    }
    return state
  }

  /// Changes the state under the lock and writes it back.
  @discardableResult
  public func update<T>(_ change: (inout ProgressState) -> T) throws(ProgressSyncError) -> T {
    try PrivateFile.locked(lockFile) { () throws(ProgressSyncError) -> T in
      var current = (try? state()) ?? ProgressState()
      let result = change(&current)
      let data: Data
      do {
        data = try Self.encoder.encode(current)
      } catch {
        throw .file(path: stateFile.path, reason: "cannot encode the state")
      }
      try PrivateFile.write(data, to: stateFile)
      return result
    }
  }

  /// This device's id, made (and kept) on first use.
  public func deviceID() throws(ProgressSyncError) -> String {
    if let known = try? state().deviceID { return known }
    return try update { state in
      if let known = state.deviceID { return known }
      let made = UUID().uuidString.replacingOccurrences(of: "-", with: "").uppercased()
      state.deviceID = made
      return made
    }
  }

  /// How `login` went.
  public enum LoginOutcome: Sendable, Hashable {
    /// The server knew the user and password.
    case loggedIn
    /// The account was created (`--register`).
    case registered
  }

  /// Checks `user` and `password` with the server (creating the account when `register`) and
  /// keeps the key, never the password.
  public func login(
    server: URL, user: String, password: String, register: Bool, device: String,
    match: DocumentKey.Method
  ) async throws(ProgressSyncError) -> LoginOutcome {
    let key = MD5.hex(password)
    let client = KOSyncClient(server: server, pipeline: pipeline, timeout: timeout)
    var outcome = LoginOutcome.loggedIn
    if try await !client.authorize(user: user, key: key) {
      guard register else { throw .unauthorized(user: user, server: server.redacted) }
      guard try await client.register(user: user, key: key) else {
        throw .refused(
          server: server.redacted, status: 402,
          message: "user \(user) exists with another password")
      }
      outcome = .registered
    }
    let account = SyncAccount(
      server: server.absoluteString, user: user, key: key, device: device, match: match)
    let data: Data
    do {
      data = try JSONEncoder().encode(account)
    } catch {
      throw .file(path: accountFile.path, reason: "cannot encode the account")
    }
    try PrivateFile.write(data, to: accountFile)
    _ = try deviceID()
    return outcome
  }

  /// Forgets the login (the key file); queued pushes stay for the next login.
  public func logout() throws(ProgressSyncError) -> Bool {
    try PrivateFile.remove(accountFile)
  }

  func client(_ account: SyncAccount) throws(ProgressSyncError) -> KOSyncClient {
    guard let url = account.serverURL else {
      throw .file(path: accountFile.path, reason: "no server URL")
    }
    return KOSyncClient(server: url, pipeline: pipeline, timeout: timeout)
  }

  /// Whether the server still takes the login (`GET /users/auth`).
  public func check() async throws(ProgressSyncError) -> Bool {
    let account = try requireAccount()
    return try await client(account).authorize(user: account.user, key: account.key)
  }

  /// The server's record of book `id` under `document` (kept in the state); nil when it has
  /// none.
  public func pull(id: Int, document: String) async throws(ProgressSyncError) -> RemoteProgress? {
    let account = try requireAccount()
    let record = try await client(account).pull(document: document, account: account)
    let time = now()
    try update { state in
      state[id].document = document
      state[id].remote = record
      state[id].checkedAt = time
    }
    return record
  }

  /// How a push went.
  public enum PushOutcome: Sendable, Hashable {
    /// The server has it.
    case pushed
    /// It is kept, and goes with the next push (the failure says why).
    case queued(ProgressSyncError)
  }

  /// Pushes book `id`'s place (`percentage` from 0 to 1, `progress` the position string);
  /// when that fails for the network, the server or the login, the place is queued (replacing
  /// an older one of the same book) and pushed by the next read or `progress push`.
  public func push(id: Int, document: String?, file: String?, percentage: Double, progress: String)
    async throws(ProgressSyncError) -> PushOutcome
  {
    let rounded = Self.round(percentage)
    let time = now()
    func queue(_ reason: ProgressSyncError) throws(ProgressSyncError) -> PushOutcome {
      try self.queue(
        id: id, document: document, file: file, percentage: rounded, progress: progress,
        reason: reason)
      return .queued(reason)
    }
    guard let account = try account() else { return try queue(.notLoggedIn) }
    guard let document else {
      return try queue(.noDocument(id: id, reason: "no EPUB in the library yet"))
    }
    let record = RemoteProgress(
      document: document, percentage: rounded, progress: progress, device: account.device,
      deviceID: try deviceID(), timestamp: nil)
    do {
      let stamp = try await client(account).push(record, account: account)
      try update { state in
        state[id].document = document
        if let file { state[id].file = file }
        var mine = record
        mine.timestamp = stamp ?? Int(time.timeIntervalSince1970)
        state[id].remote = mine
        state[id].checkedAt = time
        state[id].queued = nil
      }
      return .pushed
    } catch  where error.keepsQueued {
      return try queue(error)
    }
  }

  /// Keeps book `id`'s place to be pushed later (replacing an older one of the same book),
  /// with the failure that kept it.
  public func queue(
    id: Int, document: String?, file: String?, percentage: Double, progress: String,
    reason: ProgressSyncError
  ) throws(ProgressSyncError) {
    let time = now()
    try update { state in
      if let document { state[id].document = document }
      if let file { state[id].file = file }
      state[id].queued = QueuedPush(
        percentage: Self.round(percentage), progress: progress, at: time,
        reason: reason.description)
    }
  }

  /// Pushes every queued place, resolving a missing document key with `resolve`; stops at the
  /// first failure that would fail the others too (the network, the login). Returns how many
  /// were pushed and that failure.
  public func flush(
    except skipped: Int? = nil,
    resolve: @Sendable (Int) async -> (document: String, file: String)?
  ) async throws(ProgressSyncError) -> (pushed: Int, failure: ProgressSyncError?) {
    var pushed = 0
    for (id, waiting) in try state().queued where id != skipped {
      let known = try state()[id]
      var document = known.document
      var file = known.file
      if document == nil, let found = await resolve(id) {
        (document, file) = (found.document, found.file)
      }
      let outcome = try await push(
        id: id, document: document, file: file, percentage: waiting.percentage,
        progress: waiting.progress)
      switch outcome {
      case .pushed: pushed += 1
      case .queued(let failure):
        if case .noDocument = failure { continue }
        return (pushed, failure)
      }
    }
    return (pushed, nil)
  }

  /// `percentage` cut to four decimals, as KOReader rounds it (`Math.roundPercent`).
  public static func round(_ percentage: Double) -> Double {
    guard percentage.isFinite else { return 0 }
    return (min(1, max(0, percentage)) * 10_000).rounded(.down) / 10_000
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    encoder.dateEncodingStrategy = .secondsSince1970
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }()
}
