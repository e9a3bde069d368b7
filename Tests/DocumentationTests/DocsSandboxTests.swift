import Foundation
import TestTraits
import Testing

/// The README test's own machinery: that it finds the commands of a document, reads them as
/// the shell would, and fails a line that breaks, so ``ReadmeExampleTests`` can fail.
@Suite(.serialized, .ownThread)
struct DocsSandboxTests {
  @Test func extractsShellBlocksAndCommandSpansOnly() {
    let markdown = """
      Run `gutenberg list --offline` or `swift run gutenberg`; the `gutenberg` binary and
      `Sources/gutenberg` are names, `--server URL` an option.

      ```sh
      $ gutenberg show 84   # the book
      gutenberg list --search "a # b" \\
        --language en
      # only a comment

      printf 'q\\n' | gutenberg   # exits 0
      gutenberg show 0    # exits 64: not a book id
      ```

      ```text
      gutenberg list      # a screen capture, not a command
      ```
      """
    let commands = DocumentedCommand.extract(markdown: markdown, file: "DOC.md")
    #expect(
      commands.map(\.line) == [
        "gutenberg list --offline", "swift run gutenberg", "gutenberg show 84",
        "gutenberg list --search \"a # b\"  --language en", "printf 'q\\n' | gutenberg",
        "gutenberg show 0",
      ])
    #expect(
      commands.map(\.origin) == [
        "DOC.md:1", "DOC.md:1", "DOC.md:5", "DOC.md:6", "DOC.md:10", "DOC.md:11",
      ])
    #expect(commands.map(\.expectedStatus) == [0, 0, 0, 0, 0, 64])
    #expect(commands[2].comment == "the book")
  }

  @Test func extractsSpansBrokenOverLinesOfHelp() {
    let help = """
      OVERVIEW: Browse.

      With no subcommand, starts the browser, so `printf 'n\\nq\\n' |
      gutenberg` works. The `--offline` flag is not a command.
      """
    let commands = DocumentedCommand.extract(help: help, origin: "gutenberg --help")
    #expect(commands.map(\.line) == ["printf 'n\\nq\\n' | gutenberg"])
  }

  @Test func splitsWordsPipesAndRedirectionsAsTheShellDoes() {
    let line =
      #"GUTENBERG_SOURCE=embedded gutenberg list --topic "science fiction" 2>err | cut -f2 > 'a b.txt'"#
    let shell = ShellWords.split(line)
    #expect(
      shell.segments == [
        ["GUTENBERG_SOURCE=embedded", "gutenberg", "list", "--topic", "science fiction"],
        ["cut", "-f2"],
      ])
    #expect(
      shell.redirections == [
        .init(segment: 0, descriptor: 2, path: "err"),
        .init(segment: 1, descriptor: 1, path: "a b.txt"),
      ])
    #expect(ShellWords.splitComment("gutenberg list # x # y").comment == "x # y")
    #expect(ShellWords.splitComment("echo 'a # b'").comment == "")
  }

  @Test func readsTheSubcommandWhereverTheGlobalOptionsStand() throws {
    let before = try #require(
      Invocation(words: [
        "gutenberg", "--server", "http://x", "--offline", "fav", "add", "84", "1342",
      ]))
    #expect(before.canonicalPath == ["favorites", "add"])
    #expect(before.operands == ["84", "1342"])
    #expect(before.isLocal && before.asksServer == false)
    let after = try #require(
      Invocation(words: ["gutenberg", "show", "84", "--source", "embedded"]))
    #expect(after.canonicalPath == ["show"] && after.operands == ["84"] && after.isLocal)
    let browser = try #require(Invocation(words: ["gutenberg", "--color", "never"]))
    #expect(browser.isBrowser && browser.asksServer == true && !browser.isOneShot)
    let future = try #require(Invocation(words: ["gutenberg", "--offline", "get", "84"]))
    #expect(future.asksServer == false && !future.isOneShot)
    let futureOnline = try #require(Invocation(words: ["gutenberg", "get", "84"]))
    #expect(futureOnline.asksServer == nil && futureOnline.canonicalPath == ["get"])
    let help = try #require(
      Invocation(words: ["gutenberg", "--generate-completion-script", "bash"]))
    #expect(help.isMeta && help.path.isEmpty && !help.isBrowser)
    #expect(Invocation(words: ["cut", "-f2"]) == nil)
  }

  /// Broken, unsafe or unknown lines are problems; a good one is not; `swift test` is skipped.
  @Test func failsLinesThatDoNotRunAsDocumented() async throws {
    let sandbox = try await DocsSandbox.start()
    var outcomes: [String: DocsSandbox.Outcome] = [:]
    for line in [
      "gutenberg --source embedded lsit", "gutenberg list | cut -f2", "gutenberg status",
      "gutenberg show 0", "gutenberg show 0  # exits 64", "curl https://gutendex.com/books/",
      "gutenberg --server https://gutendex.com list", "echo gutenberg", "swift test",
      "swift package update", "gutenberg list --offline --search nosuchwordanywhere",
      "gutenberg list | false", "gutenberg --offline show 84",
    ] {
      outcomes[line] = try await sandbox.run(
        DocumentedCommand(
          line: ShellWords.splitComment(line).code.trimmingCharacters(in: .whitespaces),
          comment: ShellWords.splitComment(line).comment, origin: "test"))
    }
    await sandbox.stop()

    func problems(_ line: String) -> [String] { outcomes[line]?.problems ?? ["missing"] }
    #expect(problems("gutenberg --source embedded lsit").contains { $0.contains("exited 64") })
    #expect(
      problems("gutenberg list | cut -f2").isEmpty, "\(outcomes["gutenberg list | cut -f2"]!)")
    #expect(problems("gutenberg status").isEmpty, "\(outcomes["gutenberg status"]!)")
    #expect(!problems("gutenberg show 0").isEmpty)
    #expect(
      problems("gutenberg show 0  # exits 64").isEmpty,
      "\(outcomes["gutenberg show 0  # exits 64"]!)")
    #expect(problems("curl https://gutendex.com/books/").contains { $0.contains("internet") })
    let rewritten = try #require(outcomes["gutenberg --server https://gutendex.com list"])
    #expect(rewritten.problems.isEmpty, "\(rewritten)")
    #expect(rewritten.ranLine == "gutenberg --server \(sandbox.serverURL) list")
    #expect(problems("echo gutenberg").contains { $0.contains("no `gutenberg`") })
    #expect(outcomes["swift test"]?.skipped != nil && problems("swift test").isEmpty)
    #expect(problems("swift package update").contains { $0.contains("no rule") })
    #expect(
      problems("gutenberg list --offline --search nosuchwordanywhere").contains {
        $0.contains("standard output is not")
      })
    #expect(problems("gutenberg list | false").contains { $0.contains("`false`") })
    #expect(
      problems("gutenberg --offline show 84").isEmpty, "\(outcomes["gutenberg --offline show 84"]!)"
    )
  }

  @Test func aOneShotCommandWithTheBrowserFooterIsAProblem() async throws {
    let sandbox = try await DocsSandbox.start()
    await sandbox.stop()
    let status = try #require(Invocation(words: ["gutenberg", "status"]))
    let footer = "Status\nServer:      x\nb back · ? help · q quit\n"
    #expect(
      sandbox.checkOutput(status, stdout: footer, stderr: "").contains { $0.contains("q quit") })
    #expect(sandbox.checkOutput(status, stdout: "Status\nServer:      x\n", stderr: "").isEmpty)
    let browser = try #require(Invocation(words: ["gutenberg"]))
    let screen = "all books · page 1 of 3 · 70 books\n  1  A\nn next · ? help · q quit\n"
    #expect(sandbox.checkOutput(browser, stdout: screen, stderr: "").isEmpty)
    let list = try #require(Invocation(words: ["gutenberg", "list"]))
    #expect(!sandbox.checkOutput(list, stdout: "not a book row\n", stderr: "").isEmpty)
  }
}
