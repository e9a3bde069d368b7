import ArgumentParser
import Foundation
import GutendexEngine
import GutendexServer

/// `gutendex-server`: a Gutendex-compatible server on loopback, with fault knobs for testing
/// clients by hand.
@main
struct GutendexServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gutendex-server",
    abstract: "Serve a Gutendex-compatible API on 127.0.0.1, misbehaving on request.",
    discussion: "Prints the server URL once listening; stops on SIGINT or SIGTERM.")

  @Option(help: "Port to listen on; 0 picks a free one.")
  var port: UInt16 = 0

  @Option(help: "Address to listen on; only loopback (127.0.0.1 or localhost) is allowed.")
  var host = "127.0.0.1"

  @Option(
    help:
      "Books to serve, one Gutendex book JSON object per line (default: the embedded catalogue).")
  var books: String?

  @Option(name: .customLong("latency-ms"), help: "Delay before each response, in milliseconds.")
  var latencyMilliseconds = 0

  @Option(help: "Statuses sent before the real answers, e.g. 500,502,429:2 (429 with Retry-After).")
  var statusScript: String?

  @Flag(help: "Promise the whole body, send half, close.")
  var truncate = false

  @Flag(help: "Send broken JSON as application/json.")
  var invalidJSON = false

  @Flag(help: "Label JSON bodies text/html.")
  var wrongContentType = false

  @Flag(help: "Send half the body, then reset the connection.")
  var reset = false

  @Flag(help: "Send the headers, then nothing.")
  var stall = false

  @Option(name: .customLong("oversized-mb"), help: "Stream a body of this many MiB instead.")
  var oversizedMegabytes: Int?

  @Option(help: "How the oversized body is framed: length, chunked or close.")
  var oversizedFraming = OversizedBody.Framing.contentLength

  @Flag(help: "Redirect every request to \(FaultPlan.foreignRedirectTarget).")
  var foreignRedirect = false

  @Flag(help: "Plant terminal escapes and bidi overrides in titles and author names.")
  var hostile = false

  func validate() throws {
    guard ["127.0.0.1", "localhost"].contains(host.lowercased()) else {
      throw ValidationError("--host must be 127.0.0.1 (loopback only), not \(host)")
    }
    guard latencyMilliseconds >= 0 else { throw ValidationError("--latency-ms must be >= 0") }
    if let oversizedMegabytes, oversizedMegabytes <= 0 {
      throw ValidationError("--oversized-mb must be > 0")
    }
  }

  /// The fault plan the flags describe.
  func faultPlan() throws -> FaultPlan {
    var plan = FaultPlan(
      latency: .milliseconds(latencyMilliseconds), truncateBody: truncate,
      invalidJSON: invalidJSON, wrongContentType: wrongContentType, resetMidBody: reset,
      stallAfterHeaders: stall, redirectToForeignHost: foreignRedirect, hostileText: hostile)
    if let statusScript {
      do {
        plan.statusScript = try ScriptedResponse.script(parsing: statusScript)
      } catch {
        throw ValidationError(error.description)
      }
    }
    if let oversizedMegabytes {
      plan.oversizedBody = .megabytes(oversizedMegabytes, framing: oversizedFraming)
    }
    return plan
  }

  /// The Gutendex-compatible engine over `--books`, or over the embedded catalogue.
  static func engine(books: String?) throws -> GutendexEngine {
    guard let books else {
      do {
        return try EmbeddedCatalogue.load()
      } catch {
        throw ValidationError("cannot load the embedded catalogue: \(error)")
      }
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: books))
    } catch {
      throw ValidationError("--books: cannot read \(books): \(error.localizedDescription)")
    }
    do {
      return try GutendexEngine(jsonLines: data)
    } catch {
      throw ValidationError("--books: \(books) is not Gutendex JSON lines: \(error)")
    }
  }

  func run() async throws {
    let handler = try Self.engine(books: books)
    let server = LoopbackServer(handler: handler, port: port)
    server.faults = try faultPlan()
    let url = try await server.start()
    FileHandle.standardOutput.write(Data((url.absoluteString + "\n").utf8))
    await Self.waitForTerminationSignal()
    await server.stop()
  }
}

extension OversizedBody.Framing: ExpressibleByArgument {}
