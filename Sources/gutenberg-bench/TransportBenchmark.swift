import Foundation
import Gutendex
import GutendexServer

/// Figures 10 and 11: the one HTTP client's back-pressure. A reader slower than the network
/// (a disk that syncs every piece) keeps memory bounded, and an API body with no length is cut
/// at the limit with little more than the limit read.
enum TransportBenchmark {
  /// Where the loopback server serves the slow-disk figure's file.
  static let filePath = "/bench/slow-disk.bin"

  /// Figure 10: a child process (this bench, `--slow-sink URL FILE`) downloads through
  /// `CurlTransport` and writes each piece with an fsync; its peak RSS against bench-hello's.
  static func slowDisk(_ context: BenchContext) async throws -> [ResultRow] {
    let size = context.scale < 1 ? 100 * 1_048_576 : 300 * 1_048_576
    let server = context.server
    server.serve(
      ServedFile(content: .generated(size: size), contentType: "application/octet-stream"),
      at: filePath)
    defer { server.removeFile(at: filePath) }
    let runs = context.count(3, minimum: 2)
    Report.progress("figure 10: \(runs) downloads of \(size / 1_048_576) MB, fsync every piece")
    let bench = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let target = context.scratch.appendingPathComponent("slow-sink.bin").path
    var peaks = Samples()
    var rates: [Double] = []
    for _ in 0..<runs {
      let outcome = try await BenchRun(
        executable: bench,
        arguments: ["--slow-sink", context.url.absoluteString + filePath, target]
      ).run(timeout: .seconds(600))
      let written = (try? FileManager.default.attributesOfItem(atPath: target))?[.size] as? Int
      guard outcome.exitStatus == 0, written == size else {
        throw BenchError("slow-sink download failed (\(outcome.exitStatus), \(written ?? -1) B)")
      }
      peaks.append(outcome.peakRSS)
      rates.append(Double(size) / 1_048_576 / outcome.seconds)
      try? FileManager.default.removeItem(atPath: target)
    }
    let hello = try await context.helloPeaks()
    return [
      ResultRow(
        figure: "10. peak RSS, \(size / 1_048_576) MB to a disk syncing each piece",
        unit: .bytes, samples: peaks, baselineName: "bench-hello", baseline: hello,
        target: .atMost(64 * 1_048_576),
        note: String(
          format: "the disk set the pace: %.0f MB/s median (fsync after every piece)",
          Samples(rates).median))
    ]
  }

  /// Figure 11: a 1 GiB API body without a length (chunked, then close-delimited) is refused at
  /// the client's limit; the bytes the server managed to write, against the limit.
  static func oversizedBody(_ context: BenchContext) async throws -> [ResultRow] {
    let limit = CurlTransport.defaultMaxBodySize
    var sent = Samples()
    let runs = context.count(4, minimum: 2)
    Report.progress("figure 11: \(runs * 2) API bodies of 1 GiB without a length")
    for run in 0..<runs * 2 {
      let framing: OversizedBody.Framing = run % 2 == 0 ? .chunked : .closeDelimited
      let server = LoopbackServer(handler: context.engine)
      server.faults = FaultPlan(oversizedBody: OversizedBody(bytes: 1 << 30, framing: framing))
      let url = try await server.start()
      let client = GutendexClient(
        server: url, transport: CurlTransport(), retry: .none, timeout: .seconds(60))
      let outcome: GutendexError?
      do {
        _ = try await client.page(BookQuery())
        outcome = nil
      } catch {
        outcome = error
      }
      guard case .bodyTooLarge? = outcome else {
        await server.stop()
        throw BenchError(
          "expected the body to be refused at the limit, got: \(String(describing: outcome))")
      }
      // Give the server the moment it needs to see the connection closed.
      try await Task.sleep(for: .milliseconds(200))
      sent.append(Double(server.bodyBytesSent))
      await server.stop()
    }
    return [
      ResultRow(
        figure: "11. 1 GiB API body, no length: bytes the server wrote", unit: .bytes,
        samples: sent, baselineName: "the body limit", baseline: Samples([Double(limit)]),
        target: .ratioAtMost(2),
        note: "chunked and close-delimited alternately; the client refuses at 8 MiB and the "
          + "transfer stops: what is over the limit is what the sockets' buffers held")
    ]
  }

  /// The child of figure 10: downloads `url` through the production transport into `path`,
  /// writing and syncing each piece before asking for the next.
  static func slowSink(url: String, path: String) async -> Int32 {
    guard let url = URL(string: url) else { return 64 }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return 73 }
    defer { close(fd) }
    do {
      let response = try await CurlTransport().open(
        HTTPRequest(url: url, timeout: .seconds(60)))
      guard response.status == 200 else { return 69 }
      for try await piece in response.body {
        let ok = piece.withUnsafeBytes { buffer -> Bool in
          var offset = 0
          while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { return false }
            offset += written
          }
          return true
        }
        guard ok, fsync(fd) == 0 else { return 74 }
      }
      return 0
    } catch {
      FileHandle.standardError.write(Data("slow-sink: \(error)\n".utf8))
      return 69
    }
  }
}
