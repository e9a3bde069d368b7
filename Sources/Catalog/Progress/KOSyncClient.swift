import Foundation
import Gutendex

/// The kosync protocol (KOReader's progress sync, as koreader-sync-server serves it): register,
/// check a login, write and read a document's progress. Every request goes through the
/// program's one HTTP pipeline (so `--verbose` shows it, without the headers that carry the
/// key), with the `application/vnd.koreader.v1+json` Accept the server routes on.
public struct KOSyncClient: Sendable {
  /// The media type of the protocol's first version.
  public static let mediaType = "application/vnd.koreader.v1+json"
  /// The largest answer read: a record is a few hundred bytes.
  static let maxAnswer = 64 * 1024

  /// The server's base URL.
  public let server: URL
  /// The pipeline requests go through.
  public let pipeline: HTTPPipeline
  /// How long one request may take (receiving nothing, connecting included).
  public let timeout: Duration

  /// A client of `server` over `pipeline`.
  public init(server: URL, pipeline: HTTPPipeline, timeout: Duration) {
    self.server = server
    self.pipeline = pipeline
    self.timeout = timeout
  }

  /// Whether the server knows `user` with `key` (`GET /users/auth`): true for 200, false for
  /// 401; anything else throws.
  public func authorize(user: String, key: String) async throws(ProgressSyncError) -> Bool {
    let answer = try await send("GET", "/users/auth", user: user, key: key)
    switch answer.status {
    case 200: return true
    case 401: return false
    default: throw refusal(answer)
    }
  }

  /// Creates the account (`POST /users/create`); false when the name is taken (402).
  public func register(user: String, key: String) async throws(ProgressSyncError) -> Bool {
    let body = try Self.encode(["username": user, "password": key])
    let answer = try await send("POST", "/users/create", user: nil, key: nil, body: body)
    switch answer.status {
    case 201, 200: return true
    case 402: return false
    default: throw refusal(answer)
    }
  }

  /// Writes `record` (`PUT /syncs/progress`); the server's timestamp when it gave one.
  public func push(_ record: RemoteProgress, account: SyncAccount) async throws(ProgressSyncError)
    -> Int?
  {
    var fields: [String: Any] = [
      "document": record.document, "progress": record.progress,
      "percentage": record.percentage, "device": record.device,
    ]
    if let deviceID = record.deviceID { fields["device_id"] = deviceID }
    let body = try Self.encode(fields)
    let answer = try await send(
      "PUT", "/syncs/progress", user: account.user, key: account.key, body: body)
    switch answer.status {
    case 200, 202:
      return (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        .flatMap { Self.integer($0?["timestamp"]) }
    case 401: throw .unauthorized(user: account.user, server: printable)
    default: throw refusal(answer)
    }
  }

  /// The record of `document` (`GET /syncs/progress/:document`); nil when the server has none.
  public func pull(document: String, account: SyncAccount) async throws(ProgressSyncError)
    -> RemoteProgress?
  {
    let answer = try await send(
      "GET", "/syncs/progress/\(document)", user: account.user, key: account.key)
    switch answer.status {
    case 200: break
    case 401: throw .unauthorized(user: account.user, server: printable)
    default: throw refusal(answer)
    }
    guard let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
    else {
      throw .badAnswer(server: printable, reason: "not a JSON object")
    }
    // No record: the server answers an empty object (or one without a percentage).
    guard let percentage = Self.number(object["percentage"]) else { return nil }
    guard percentage.isFinite, (0...1).contains(percentage) else {
      throw .badAnswer(server: printable, reason: "a percentage of \(percentage)")
    }
    return RemoteProgress(
      document: (object["document"] as? String) ?? document, percentage: percentage,
      progress: Self.text(object["progress"]) ?? "",
      device: Self.text(object["device"]) ?? "another device",
      deviceID: Self.text(object["device_id"]), timestamp: Self.integer(object["timestamp"]))
  }

  /// The server as it may be printed.
  var printable: String { server.redacted }

  private func refusal(_ answer: HTTPResponse) -> ProgressSyncError {
    let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
    let message = (object?["message"] as? String).map { String($0.prefix(200)) }
    return .refused(server: printable, status: answer.status, message: message)
  }

  /// One request and its whole (small) answer; the transport's failures as `unavailable`.
  private func send(
    _ method: String, _ path: String, user: String?, key: String?, body: Data? = nil
  ) async throws(ProgressSyncError) -> HTTPResponse {
    var base = server.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    guard let url = URL(string: base + path) else {
      throw .badAnswer(server: printable, reason: "no URL for \(path)")
    }
    var headers = ["Accept": Self.mediaType]
    if body != nil { headers["Content-Type"] = "application/json" }
    if let user, let key {
      headers["x-auth-user"] = user
      headers["x-auth-key"] = key
    }
    let request = HTTPRequest(
      method: method, url: url, headers: headers, timeout: timeout, body: body)
    do {
      let opened = try await pipeline.open(request, redirects: .sameOrigin)
      return try await opened.response.collected(limit: Self.maxAnswer)
    } catch let failure as HTTPPipeline.Failure {
      switch failure {
      case .transport(let error, _):
        throw .unavailable(server: printable, reason: Self.reason(error))
      case .redirectRefused(let refusal, _):
        throw .unavailable(server: printable, reason: refusal.reason)
      case .tooManyRedirects:
        throw .unavailable(server: printable, reason: "too many redirects")
      }
    } catch {
      throw .unavailable(server: printable, reason: Self.reason(error))
    }
  }

  /// A short reason for a transport failure, without the URL (the server is named already).
  static func reason(_ error: any Error) -> String {
    switch error as? GutendexError {
    case .timedOut(_, let after):
      "no answer in \(Int(after.components.seconds)) s"
    case .unreachable(_, let reason), .connectionLost(_, let reason):
      reason
    case .bodyTooLarge(_, let limit):
      "an answer larger than \(limit) bytes"
    case .cancelled:
      "interrupted"
    case .some(let other):
      other.description
    case nil:
      String(describing: error)
    }
  }

  static func encode(_ fields: [String: Any]) throws(ProgressSyncError) -> Data {
    do {
      return try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    } catch {
      throw .badAnswer(server: "", reason: "cannot encode the request")
    }
  }

  static func number(_ value: Any?) -> Double? {
    if let number = value as? NSNumber, !(value is Bool) { return number.doubleValue }
    if let text = value as? String { return Double(text) }
    return nil
  }

  static func integer(_ value: Any?) -> Int? {
    number(value).flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil }
  }

  static func text(_ value: Any?) -> String? {
    if let text = value as? String { return text }
    if let number = value as? NSNumber { return number.stringValue }
    return nil
  }
}
