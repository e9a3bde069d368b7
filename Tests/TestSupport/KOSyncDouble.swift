import Foundation
import Gutendex
import Synchronization

/// A kosync server (KOReader's progress sync, as koreader-sync-server answers it), for the
/// loopback server: `POST /users/create`, `GET /users/auth`, `PUT /syncs/progress` and
/// `GET /syncs/progress/:document`, authenticated by the `x-auth-user` and `x-auth-key`
/// headers, versioned by the `application/vnd.koreader.v1+json` Accept (anything else: 406).
/// Records live in memory; every request is logged with its headers for the tests to check.
public final class KOSyncDouble: Requestable {
  /// One request as it arrived.
  public struct Logged: Sendable {
    /// `GET`, `PUT`, `POST`.
    public var method: String
    /// The URL's path.
    public var path: String
    /// The headers, names lower-cased.
    public var headers: [String: String]
    /// The request's body, if it had one.
    public var body: Data?
  }

  struct State {
    var users: [String: String] = [:]
    var records: [String: [String: [String: Any]]] = [:]
    var log: [Logged] = []
    var clock = 0
  }

  private let state = Mutex(State())

  /// A server with no users.
  public init() {}

  /// Adds a user whose key (the MD5 of the password) is `key`.
  public func addUser(_ user: String, key: String) {
    state.withLock { $0.users[user] = key }
  }

  /// Forgets every user: the next request with a login gets 401.
  public func removeUsers() {
    state.withLock { $0.users = [:] }
  }

  /// Writes a record as another device would (a Kobo that pushed), at `timestamp`.
  public func record(
    user: String, document: String, percentage: Double, progress: String, device: String,
    deviceID: String, timestamp: Int
  ) {
    state.withLock {
      $0.records[user, default: [:]][document] = [
        "percentage": percentage, "progress": progress, "device": device,
        "device_id": deviceID, "timestamp": timestamp,
      ]
    }
  }

  /// The record of `document`, as stored.
  public func stored(user: String, document: String) -> [String: Any]? {
    state.withLock { $0.records[user]?[document] }
  }

  /// Every request so far.
  public var requests: [Logged] { state.withLock { $0.log } }

  /// Answers one request as koreader-sync-server would.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let path = request.url.path
    let headers = Dictionary(
      request.headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    return state.withLock { state in
      state.log.append(
        Logged(method: request.method, path: path, headers: headers, body: request.body))
      func answer(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return HTTPResponse(
          status: status, headers: ["Content-Type": "application/json"], body: body,
          url: request.url)
      }
      guard headers["accept"] == "application/vnd.koreader.v1+json" else {
        return answer(406, ["message": "Not Acceptable"])
      }
      let body = request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) }
      let fields = body as? [String: Any] ?? [:]
      if request.method == "POST", path == "/users/create" {
        guard let user = fields["username"] as? String, let key = fields["password"] as? String,
          !user.isEmpty, !key.isEmpty
        else { return answer(403, ["message": "Invalid request"]) }
        guard state.users[user] == nil else {
          return answer(402, ["message": "Username is already registered."])
        }
        state.users[user] = key
        return answer(201, ["username": user])
      }
      guard let user = headers["x-auth-user"], let key = headers["x-auth-key"],
        state.users[user] == key
      else { return answer(401, ["message": "Unauthorized"]) }
      switch (request.method, path) {
      case ("GET", "/users/auth"):
        return answer(200, ["authorized": "OK"])
      case ("PUT", "/syncs/progress"):
        guard let document = fields["document"] as? String, !document.isEmpty,
          let percentage = fields["percentage"] as? Double, let progress = fields["progress"],
          let device = fields["device"]
        else { return answer(403, ["message": "Invalid request"]) }
        state.clock = max(state.clock + 1, Int(Date().timeIntervalSince1970))
        var record: [String: Any] = [
          "percentage": percentage, "progress": progress, "device": device,
          "timestamp": state.clock,
        ]
        if let deviceID = fields["device_id"] { record["device_id"] = deviceID }
        state.records[user, default: [:]][document] = record
        return answer(200, ["document": document, "timestamp": state.clock])
      case ("GET", _) where path.hasPrefix("/syncs/progress/"):
        let document = String(path.dropFirst("/syncs/progress/".count))
        guard var record = state.records[user]?[document] else { return answer(200, [:]) }
        record["document"] = document
        return answer(200, record)
      default:
        return answer(404, ["message": "Not Found"])
      }
    }
  }
}
