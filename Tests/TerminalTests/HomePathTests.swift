import Foundation
import Testing

@testable import Terminal

/// `~` is `$HOME` at the start of a path no shell expanded; nothing else changes.
@Suite struct HomePathTests {
  @Test(arguments: [
    ("~", "/home/ada"), ("~/", "/home/ada"), ("~/books/x.json", "/home/ada/books/x.json"),
    ("~ada/x", "~ada/x"), ("a/~/b", "a/~/b"), ("/tmp/~", "/tmp/~"), ("x.json", "x.json"),
  ])
  func aLeadingTildeIsHome(path: String, expanded: String) {
    #expect(HomePath.expand(path, environment: ["HOME": "/home/ada"]) == expanded)
  }

  @Test func aHomeWithATrailingSlashGivesOneSlash() {
    #expect(HomePath.expand("~/x", environment: ["HOME": "/"]) == "/x")
  }
}
