import Foundation

/// The release executables the whole-process figures spawn, built next to the bench itself.
struct Binaries {
  var gutenberg: String
  var hello: String

  /// Finds (building first, unless `build` is false) `gutenberg` and `bench-hello` in the
  /// directory of this executable, i.e. `.build/release` of the same scratch path.
  static func locate(build: Bool) throws -> Binaries {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let directory = executable.deletingLastPathComponent()
    if build {
      for product in ["gutenberg", "bench-hello"] {
        try buildProduct(product, directory: directory)
      }
    }
    let binaries = Binaries(
      gutenberg: directory.appendingPathComponent("gutenberg").path,
      hello: directory.appendingPathComponent("bench-hello").path)
    for path in [binaries.gutenberg, binaries.hello]
    where !FileManager.default.isExecutableFile(atPath: path) {
      throw BenchError("\(path) is missing: run `swift build -c release --product \(path)`")
    }
    return binaries
  }

  /// `swift build -c release --product <product>` for this package and scratch path.
  private static func buildProduct(_ product: String, directory: URL) throws {
    // The bench lives in <scratch>/<triple>/release (or <scratch>/release).
    var scratch = directory.deletingLastPathComponent()
    let manager = FileManager.default
    if !manager.fileExists(atPath: scratch.appendingPathComponent("workspace-state.json").path) {
      scratch = scratch.deletingLastPathComponent()
    }
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let packagePath =
      manager.fileExists(atPath: package.appendingPathComponent("Package.swift").path)
      ? package.path : manager.currentDirectoryPath
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swift", "build", "-c", "release", "--package-path", packagePath, "--scratch-path",
      scratch.path, "--product", product,
    ]
    process.standardOutput = FileHandle.standardError
    process.standardError = FileHandle.standardError
    Report.progress("building \(product) (release)…")
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError("swift build --product \(product) failed (\(process.terminationStatus))")
    }
  }
}
