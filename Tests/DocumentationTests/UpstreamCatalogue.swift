import Foundation
import Gutendex
import Synchronization

@testable import TestSupport

/// The whole embedded catalogue served by a `gutendex-server` child process, and a handler that
/// forwards the sandbox's loopback server to it.
///
/// Why a second process: the catalogue takes some 100 MB once loaded, and on Linux a child
/// spawned by the test runner starts with the runner's peak RSS as its own (`posix_spawn`
/// shares the runner's memory until `exec`), so a catalogue loaded inside the runner would
/// inflate the peak-memory figures the fault-matrix tests check on their children. The
/// runner's own ``GutendexServer/LoopbackServer`` in front still counts every request.
final class UpstreamCatalogue: Requestable {
  let process: ChildProcess
  /// `http://127.0.0.1:<port>` of the child.
  let url: URL
  /// The front server's URL, which answers' `next`/`previous` links must name.
  private let front = Mutex<String?>(nil)
  private let transport = CurlTransport()

  private init(process: ChildProcess, url: URL) {
    self.process = process
    self.url = url
  }

  /// Starts `gutendex-server` (built next to `gutenberg`) and waits for its URL.
  static func start() async throws -> UpstreamCatalogue {
    let binary = URL(fileURLWithPath: Gutenberg.binary).deletingLastPathComponent()
      .appendingPathComponent("gutendex-server").path
    let process = try ChildProcess(
      executable: binary, arguments: ["--port", "0"], environment: ["PATH": "/usr/bin:/bin"])
    let listening = await process.waitForOutput(timeout: .seconds(120)) { $0.hasSuffix("\n") }
    let text = process.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    guard listening, let url = URL(string: text), url.port != nil else {
      process.kill()
      let error = String(decoding: process.stderr, as: UTF8.self)
      throw StartError(description: "gutendex-server did not start: \(text) \(error)")
    }
    return UpstreamCatalogue(process: process, url: url)
  }

  struct StartError: Error, CustomStringConvertible {
    var description: String
  }

  /// Tells the handler the front server's URL, once it listens.
  func setFront(_ url: String) {
    front.withLock { $0 = url }
  }

  /// Stops the child (SIGTERM, as a user would with Ctrl-C) and waits for it.
  func stop() async {
    process.kill(SIGTERM)
    _ = await process.wait(timeout: .seconds(60))
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    components?.scheme = url.scheme
    components?.host = url.host
    components?.port = url.port
    guard let target = components?.url else { throw URLError(.badURL) }
    var forwarded = request
    forwarded.url = target
    forwarded.headers = request.headers.filter { $0.key.lowercased() != "host" }
    let response = try await transport.send(forwarded)
    // The engine builds `next`/`previous` from the host it was asked on: name the front.
    var body = response.body
    if let front = front.withLock({ $0 }) {
      let upstream =
        url.absoluteString.hasSuffix("/")
        ? String(url.absoluteString.dropLast()) : url.absoluteString
      let text = String(decoding: body, as: UTF8.self)
      body = Data(text.replacingOccurrences(of: upstream, with: front).utf8)
    }
    let dropped: Set<String> = ["content-length", "transfer-encoding", "connection"]
    let headers = response.headers.filter { !dropped.contains($0.key.lowercased()) }
    return HTTPResponse(status: response.status, headers: headers, body: body, url: request.url)
  }
}
