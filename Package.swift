// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "gutenberg",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Gutendex", targets: ["Gutendex"]),
    .library(name: "GutendexEngine", targets: ["GutendexEngine"]),
    .library(name: "GutendexServer", targets: ["GutendexServer"]),
    .library(name: "Catalog", targets: ["Catalog"]),
    .library(name: "Terminal", targets: ["Terminal"]),
    .executable(name: "gutenberg", targets: ["gutenberg"]),
    .executable(name: "gutendex-server", targets: ["gutendex-server"]),
    .executable(name: "gutenberg-bench", targets: ["gutenberg-bench"]),
    .executable(name: "bench-hello", targets: ["bench-hello"]),
    .executable(name: "gutendex-snapshot", targets: ["gutendex-snapshot"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.20.0"),
  ],
  targets: [
    // The HTTP client for the Gutendex API: endpoints, transport, query, models, pagination.
    .target(name: "Gutendex"),
    // A Gutendex-compatible engine over a local set of books, plus the embedded catalogue.
    .target(
      name: "GutendexEngine", dependencies: ["Gutendex", "CZlib"], resources: [.copy("Resources")]),
    // The system zlib: gunzip of the source catalogue and CRC-32 of the index (apt: zlib1g-dev).
    .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
    // Derives the embedded catalogue snapshot from the real catalogue, and verifies it.
    .executableTarget(name: "gutendex-snapshot", dependencies: ["Gutendex", "GutendexEngine"]),
    // A loopback HTTP/1.1 server with fault knobs, serving any `Requestable` (usually the engine).
    .target(
      name: "GutendexServer",
      dependencies: ["Gutendex", .product(name: "FlyingSocks", package: "FlyingFox")]
    ),
    // The model layer: view models, observation, SQLite store, export/import.
    .target(
      name: "Catalog",
      dependencies: ["Gutendex", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    // Line-mode rendering and the interactive session, kept out of `main` so tests can drive it.
    .target(name: "Terminal", dependencies: ["Catalog", "GutendexEngine"]),
    .executableTarget(
      name: "gutenberg",
      dependencies: [
        "Terminal", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "gutendex-server",
      dependencies: [
        "GutendexServer", "GutendexEngine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The benchmark program: `swift run -c release gutenberg-bench` prints BENCHMARKS.md's table.
    .executableTarget(
      name: "gutenberg-bench",
      dependencies: [
        "Terminal", "GutendexServer", "GutendexEngine", "Catalog", "Gutendex",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      resources: [.copy("Fixtures")]
    ),
    // The cold-start baseline: the smallest Swift executable, spawned next to `gutenberg`.
    .executableTarget(name: "bench-hello"),
    .testTarget(
      name: "GutendexTests", dependencies: ["Gutendex", "GutendexServer"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "GutendexEngineTests", dependencies: ["GutendexEngine"], resources: [.copy("Fixtures")]),
    .testTarget(
      name: "GutendexServerTests",
      dependencies: [
        "Gutendex", "GutendexServer", "GutendexEngine", "gutendex-server",
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "CatalogTests", dependencies: ["Catalog", "GutendexServer"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "TerminalTests",
      dependencies: ["Terminal", "gutenberg", "Gutendex", "GutendexEngine", "Catalog"],
      resources: [.copy("Fixtures")]),
    // Runs the real `gutenberg` binary (built because it is a dependency) against a loopback server.
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "gutenberg", "BinaryTestSupport", "Gutendex", "GutendexServer", "GutendexEngine",
      ]),
    .testTarget(
      name: "FaultMatrixTests",
      dependencies: [
        "gutenberg", "BinaryTestSupport", "Gutendex", "GutendexServer", "GutendexEngine",
      ]),
    // Runs every command line of README.md and of `gutenberg --help` against a loopback server.
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "gutenberg", "gutendex-server", "BinaryTestSupport", "Gutendex", "GutendexServer",
      ]),
    // Runs the built `gutenberg` binary for the end-to-end and fault-matrix tests (shared by both).
    .target(
      name: "BinaryTestSupport",
      dependencies: ["Gutendex", "GutendexServer", "GutendexEngine"],
      path: "Tests/BinaryTestSupport",
      resources: [.copy("Fixtures")]),
  ]
)
