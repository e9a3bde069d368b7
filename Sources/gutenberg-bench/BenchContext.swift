import Catalog
import Foundation
import Gutendex
import GutendexEngine
import GutendexServer

/// What every figure shares: the embedded engine, a loopback server over it, a scratch folder.
struct BenchContext: Sendable {
  let engine: GutendexEngine
  let server: LoopbackServer
  let url: URL
  let scratch: URL
  let binaries: Binaries
  /// Scales sample counts (1 normally; `--quick` for a smoke run).
  let scale: Double

  /// A sample count scaled by ``scale``, at least `minimum`.
  func count(_ normal: Int, minimum: Int = 3) -> Int {
    max(minimum, Int((Double(normal) * scale).rounded()))
  }

  /// A fresh, empty data directory under the scratch folder.
  func dataDirectory(_ name: String) throws -> URL {
    let directory = scratch.appendingPathComponent(name, isDirectory: true)
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// A catalogue service as the `gutenberg` app builds it, talking HTTP to the loopback server.
  func service(dataDirectory: URL) async throws -> CatalogService {
    try await CatalogService.open(client: client(), location: location(dataDirectory))
  }

  /// A client for the loopback server, as the app builds it.
  func client() -> GutendexClient {
    GutendexClient(server: url, transport: CurlTransport())
  }

  /// The store files under `dataDirectory`, as the app lays them out.
  func location(_ dataDirectory: URL) -> StoreLocation {
    StoreLocation(
      dataDirectory: dataDirectory,
      cacheDirectory: dataDirectory.appendingPathComponent("cache", isDirectory: true))
  }

  /// bench-hello's peak RSS over three runs: the baseline of every memory figure.
  func helloPeaks() async throws -> Samples {
    var hello = Samples()
    for _ in 0..<3 {
      let outcome = try await BenchRun(
        executable: binaries.hello, arguments: ["--linger"]
      ).run(timeout: .seconds(10))
      hello.append(outcome.peakRSS)
    }
    return hello
  }
}
