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
    .target(name: "Gutendex", dependencies: ["CCurl"]),
    // The system libcurl, the one HTTP client of every request (apt: libcurl4-openssl-dev).
    .systemLibrary(
      name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),
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
    // The SQLite files (GRDB): favourites, library, page cache, export/import. Only Catalog's
    // service uses the stores; Catalog itself does not depend on GRDB.
    .target(
      name: "CatalogStore",
      dependencies: ["Gutendex", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    // The model layer: the service (the one door to the data), view models, observation.
    // GutendexEngine: the local catalogue (the embedded snapshot plus synced books) and its sync.
    .target(name: "Catalog", dependencies: ["Gutendex", "CatalogStore", "GutendexEngine"]),
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
    // Its fixture and child-process harness are the tests' own (TestSupport), not copies.
    .executableTarget(
      name: "gutenberg-bench",
      dependencies: [
        "Terminal", "GutendexServer", "GutendexEngine", "Catalog", "Gutendex", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    // The cold-start baseline: the smallest Swift executable, spawned next to `gutenberg`.
    .executableTarget(name: "bench-hello"),
    .testTarget(
      name: "GutendexTests", dependencies: ["Gutendex", "GutendexServer", "TestSupport"]),
    .testTarget(name: "GutendexEngineTests", dependencies: ["GutendexEngine", "TestSupport"]),
    .testTarget(
      name: "GutendexServerTests",
      dependencies: [
        "Gutendex", "GutendexServer", "GutendexEngine", "gutendex-server", "TestSupport",
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ]),
    .testTarget(
      name: "CatalogTests",
      dependencies: ["Catalog", "CatalogStore", "GutendexServer", "TestSupport"]),
    .testTarget(
      name: "TerminalTests",
      dependencies: [
        "Terminal", "gutenberg", "Gutendex", "GutendexEngine", "Catalog", "TestSupport",
      ]),
    // Runs the real `gutenberg` binary (built because it is a dependency) against a loopback server.
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "gutenberg", "gutendex-server", "TestSupport", "Gutendex", "GutendexServer",
        "GutendexEngine",
      ]),
    .testTarget(
      name: "FaultMatrixTests",
      dependencies: [
        "gutenberg", "TestSupport", "Gutendex", "GutendexServer", "GutendexEngine",
      ]),
    // Runs every command line of README.md and of `gutenberg --help` against a loopback server.
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "gutenberg", "gutendex-server", "TestSupport", "Gutendex", "GutendexServer",
      ]),
    // What every test suite shares: each fixture once, the child-process harness (also the
    // bench's), the loopback test server and the binary harness. No `import Testing` here, so
    // the bench can link it.
    .target(
      name: "TestSupport",
      dependencies: [
        "Gutendex", "GutendexServer", "GutendexEngine",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Tests/TestSupport",
      resources: [.copy("Fixtures")]),
  ]
)
