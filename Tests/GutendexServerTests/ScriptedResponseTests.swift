import Foundation
import Testing

@testable import GutendexServer

/// Canned responses and the command-line status script.
@Suite struct ScriptedResponseTests {
  @Test func parsesAStatusScript() throws {
    let script = try ScriptedResponse.script(parsing: "500,502, 503,429:2,429,404")
    #expect(script.map(\.status) == [500, 502, 503, 429, 429, 404])
    #expect(script[0] == .serverError(500))
    #expect(script[0].headers["Content-Type"] == "text/html; charset=utf-8")
    #expect(script[3].headers["Retry-After"] == "2")
    #expect(script[4].headers["Retry-After"] == nil)
    let detail = try JSONSerialization.jsonObject(with: script[5].body) as? [String: String]
    #expect(detail == ["detail": "Not Found"])
  }

  @Test(arguments: ["", "abc", "99", "600", "500:1", "429:", "429:2:3x"])
  func rejectsBadItems(_ item: String) {
    #expect(throws: FaultSpecError.self) { try ScriptedResponse(parsing: item) }
  }

  @Test func rateLimitBodyIsDRFStyleJSON() throws {
    let response = ScriptedResponse.rateLimited(retryAfter: "7")
    let object = try JSONSerialization.jsonObject(with: response.body) as? [String: String]
    #expect(object?["detail"] == "Request was throttled. Expected available in 7 seconds.")
  }

  @Test func hostileRewriteKeepsJSONValidAndOtherFieldsIntact() throws {
    let original = try Fixtures.page10()
    let rewritten = try #require(HostileText.rewrite(original))
    let before = try #require(JSONSerialization.jsonObject(with: original) as? [String: Any])
    let after = try #require(JSONSerialization.jsonObject(with: rewritten) as? [String: Any])
    #expect(after["count"] as? Int == before["count"] as? Int)
    #expect(after["next"] as? String == before["next"] as? String)
    let text = String(decoding: rewritten, as: UTF8.self)
    #expect(text.contains(#""copyright":false"#))
    #expect(!text.contains("\u{1B}"))  // escaped as \u001b inside JSON strings
    #expect(HostileText.rewrite(Data("[1,2]".utf8)) == nil)
    #expect(HostileText.rewrite(Data("not json".utf8)) == nil)
  }
}
