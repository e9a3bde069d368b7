import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// The built binary takes the global options before or after the subcommand, its one-shot
/// commands end without the browser's footer, and its shell completion offers the languages.
@Suite(.serialized, .ownThread)
struct GlobalOptionsTests {
  @Test func serverBeforeOrAfterTheSubcommandIsUsed() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let url = server.url.absoluteString
    // The fixture server holds 343 books, so its first page differs from the embedded one.
    let expected = try await server.engineIDs("/books/?search=dickens")

    let before = try await app.run(["--server", url, "list", "--search", "dickens"])
    let after = try await app.run(["list", "--search", "dickens", "--server", url])
    let requests = server.server.requests
    await server.stop()

    for run in [before, after] {
      #expect(run.status == 0, "\(run)")
      #expect(run.err.isEmpty, "\(run)")
      #expect(run.outLines.map { Int($0.split(separator: "\t")[0]) } == expected.ids, "\(run)")
    }
    #expect(requests.filter { $0.contains("search=dickens") }.count == 2, "\(requests)")
  }

  @Test func sourceEmbeddedBeforeTheSubcommandNeverAsksTheServer() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let url = server.url.absoluteString

    let run = try await app.run(["--source", "embedded", "--server", url, "list"])
    let show = try await app.run(["--source", "embedded", "--server", url, "show", "84"])
    let requests = server.server.requestCount
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.outLines.count == 32, "\(run)")
    #expect(show.status == 0 && show.out.hasPrefix("Frankenstein"), "\(show)")
    #expect(requests == 0)
  }

  @Test func offlineBeforeTheDefaultBrowser() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run(["--offline", "--server", server.url.absoluteString], input: "q\n")
    let requests = server.server.requestCount
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.out.contains("all books · page 1 of"), "\(run)")
    #expect(run.out.contains("embedded catalogue"), "\(run)")
    #expect(requests == 0)
  }

  @Test func badGlobalBeforeTheSubcommandIsOneUsageLine() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run(["--timeout", "0", "list"])

    #expect(run.status == 64, "\(run)")
    #expect(run.out.isEmpty, "\(run)")
    #expect(run.errLines.count == 1, "\(run)")
    #expect(run.err.hasPrefix("error: --timeout"), "\(run)")
  }

  @Test func oneShotCommandsEndWithoutTheBrowserFooter() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let url = server.url.absoluteString
    let id = try await server.engineIDs("/books/").ids[0]

    var runs: [([String], Gutenberg.Run)] = []
    for arguments in [
      ["status"], ["show", String(id)], ["favorites", "add", String(id)], ["favorites"],
      ["cache"], ["list"],
    ] {
      runs.append((arguments, try await app.run(["--server", url] + arguments)))
    }
    await server.stop()

    for (arguments, run) in runs {
      #expect(run.status == 0, "\(arguments): \(run)")
      #expect(!run.out.isEmpty || !run.err.isEmpty, "\(arguments): \(run)")
      for hint in ["q quit", "? help", "b back", "> "] {
        #expect(!run.out.contains(hint), "\(arguments) printed '\(hint)': \(run)")
      }
    }
    let status = try #require(runs.first?.1)
    #expect(status.outLines.first == "Status", "\(status)")
    #expect(status.outLines.last?.hasPrefix("  ") == true, "ends with a request line: \(status)")
  }

  /// `gutenberg --generate-completion-script bash`, loaded into bash, completes `--language`
  /// with the catalogue's codes and one-word English names, with global options before the subcommand or not.
  @Test func bashCompletionOffersTheLanguageCodes() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let script = try await app.run(["--generate-completion-script", "bash"])
    #expect(script.status == 0, "\(script)")
    let file = app.root.appendingPathComponent("gutenberg.bash")
    try script.stdout.write(to: file)

    for line in ["gutenberg list --language e", "gutenberg --offline list -l e"] {
      let words = line.split(separator: " ")
      // What bash does on Tab: the words, the cursor's word, then calls the function with the
      // command, the current word and the previous word.
      let shell = """
        source '\(file.path)'
        COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " ")))
        COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
        _gutenberg gutenberg '\(words[words.count - 1])' '\(words[words.count - 2])'
        printf '%s\\n' "${COMPREPLY[@]}"
        """
      let child = try ChildProcess(
        executable: "/bin/bash", arguments: ["-c", shell], environment: app.environment)
      child.closeInput()
      let exit = await child.wait(timeout: .seconds(60))
      let offered = String(decoding: child.stdout, as: UTF8.self).split(separator: "\n")
      #expect(exit.code == 0, "\(line): \(String(decoding: child.stderr, as: UTF8.self))")
      #expect(
        Set(offered) == ["en", "es", "el", "eo", "enm", "et", "english", "esperanto", "estonian"],
        "\(line): \(offered)")
    }
  }
}
