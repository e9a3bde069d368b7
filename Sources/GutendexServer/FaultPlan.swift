import Foundation

/// The ways the server misbehaves on purpose; set per test, or by flags on `gutendex-server`.
///
/// Faults combine in a fixed order for each request: ``holdUntilReleased`` and ``latency``
/// first, then a scripted response if ``statusScript`` has one left (no other fault applies to
/// it), then ``redirectToForeignHost``, then ``oversizedBody``; otherwise the handler answers,
/// its body is rewritten by ``hostileText``, ``invalidJSON`` and ``wrongContentType``, and it is
/// delivered with ``stallAfterHeaders``, ``resetMidBody`` or ``truncateBody`` (first one set
/// wins).
/// In files mode (see ``LoopbackServer/serve(_:at:)``) a served path or redirect answers instead
/// of the handler, and ``stallAfterHeaders``, ``stallMidBody``, ``resetMidBody`` and
/// ``truncateBody`` apply to the bytes of the file (half of the range asked for).
public struct FaultPlan: Sendable, Hashable {
  /// Where ``redirectToForeignHost`` sends the client.
  public static let foreignRedirectTarget = "http://example.invalid/books/"

  /// Added before each response.
  public var latency: Duration
  /// Each request waits before being answered until the test calls
  /// ``LoopbackServer/releaseHeld()``: a response held for as long as the test needs, where a
  /// ``latency`` would be a guess that a loaded machine can outlast.
  public var holdUntilReleased: Bool
  /// Responses sent instead of the handler's, one per request, consumed front first.
  public var statusScript: [ScriptedResponse]
  /// Send the full `Content-Length` but only half the body, then close.
  public var truncateBody: Bool
  /// Replace the body with broken JSON, keeping `application/json`.
  public var invalidJSON: Bool
  /// Label the body `text/html` whatever it is.
  public var wrongContentType: Bool
  /// Send the headers and half the body, then reset the connection (SO_LINGER 0).
  public var resetMidBody: Bool
  /// Send the headers, then nothing until the client gives up, the server stops or a test
  /// ends the stall (``LoopbackServer/endStalls()``).
  public var stallAfterHeaders: Bool
  /// Files mode: send the headers and half the body, then nothing until the client gives up,
  /// the server stops or a test ends the stall (``LoopbackServer/endStalls()``).
  public var stallMidBody: Bool
  /// Stream a body of this size instead of the handler's, never holding it in memory.
  public var oversizedBody: OversizedBody?
  /// Answer 302 to ``foreignRedirectTarget``.
  public var redirectToForeignHost: Bool
  /// Rewrite book titles and first author names with terminal escapes (see ``HostileText``).
  public var hostileText: Bool
  /// Files mode: the body goes out at most this many bytes a second, in pieces a tenth of a
  /// second apart (a slow mirror or a throttled link); nil: as fast as the client reads.
  public var bodyBytesPerSecond: Int?
  /// How many more requests the plan applies to before the server heals itself (nil: all).
  /// A test that needs "fail twice, then work" sets 2 here rather than racing the client to
  /// switch the faults off.
  public var remainingRequests: Int?

  /// A plan with the given faults; by default none.
  public init(
    latency: Duration = .zero, holdUntilReleased: Bool = false,
    statusScript: [ScriptedResponse] = [], truncateBody: Bool = false,
    invalidJSON: Bool = false, wrongContentType: Bool = false, resetMidBody: Bool = false,
    stallAfterHeaders: Bool = false, stallMidBody: Bool = false,
    oversizedBody: OversizedBody? = nil,
    redirectToForeignHost: Bool = false, hostileText: Bool = false,
    bodyBytesPerSecond: Int? = nil, remainingRequests: Int? = nil
  ) {
    self.bodyBytesPerSecond = bodyBytesPerSecond
    self.latency = latency
    self.holdUntilReleased = holdUntilReleased
    self.statusScript = statusScript
    self.truncateBody = truncateBody
    self.invalidJSON = invalidJSON
    self.wrongContentType = wrongContentType
    self.resetMidBody = resetMidBody
    self.stallAfterHeaders = stallAfterHeaders
    self.stallMidBody = stallMidBody
    self.oversizedBody = oversizedBody
    self.redirectToForeignHost = redirectToForeignHost
    self.hostileText = hostileText
    self.remainingRequests = remainingRequests
  }

  /// No faults: the handler's answers, delivered faithfully.
  public static let none = FaultPlan()
}
