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
    // The system libcurl, the one HTTP client of every request, opened with dlopen on the first
    // request (apt: libcurl4 to run, libcurl4-openssl-dev for its headers to build): not linked,
    // so a command that makes no request never loads it nor the libraries it pulls in.
    .target(name: "CCurl", dependencies: ["CLoader"], path: "Sources/CCurl"),
    // The dlopen loader the C shims share: first use under a lock, the symbols, and the
    // one-line failure naming the apt package.
    .target(
      name: "CLoader", path: "Sources/CLoader",
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    // A Gutendex-compatible engine over a local set of books, plus the embedded catalogue.
    .target(
      name: "GutendexEngine",
      dependencies: ["Gutendex", "CZlib", "CChecksum", "CArchive", "CBzip2", "CLibXML2"],
      // Copied next to the products so the build tree finds the catalogue (`swift run`, tests);
      // an install puts it in PREFIX/share/gutenberg. Found by path (CatalogueLocation), never
      // through `Bundle.module`, which kills the process once the build folder is gone.
      resources: [.copy("Resources")]),
    // The system zlib: gunzip of the source catalogue and CRC-32 of the index (apt: zlib1g-dev).
    .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
    // zlib's CRC-32 by carry-less multiplication where the processor has it (the index's
    // checksums, checked at every open), zlib's own function otherwise.
    .target(
      name: "CChecksum", path: "Sources/CChecksum", linkerSettings: [.linkedLibrary("z")]),
    // libarchive: Project Gutenberg's feed (.tar.bz2) read as a stream (apt: libarchive-dev for
    // its headers). Opened with dlopen by the feed sync, like libxml2: not linked, so no other
    // command loads them nor the compression and ICU libraries they pull in.
    .target(name: "CArchive", dependencies: ["CLoader"], path: "Sources/CArchive"),
    // libbz2: the feed's bzip2 blocks decompressed on two threads, libarchive then reading the
    // tar alone (apt: libbz2-dev for its header). Opened with dlopen by the feed sync only.
    .target(name: "CBzip2", dependencies: ["CLoader"], path: "Sources/CBzip2"),
    // libxml2: each RDF record of the feed parsed as Gutendex's reader does (apt: libxml2-dev;
    // system/libxml links to its headers, so no include path outside the package is named).
    .target(
      name: "CLibXML2", dependencies: ["CLoader"], path: "Sources/CLibXML2", exclude: ["system"],
      cSettings: [.headerSearchPath("system")]),
    // Derives the embedded catalogue snapshot from the real catalogue, and verifies it.
    .executableTarget(name: "gutendex-snapshot", dependencies: ["Gutendex", "GutendexEngine"]),
    // A loopback HTTP/1.1 server with fault knobs, serving any `Requestable` (usually the engine).
    .target(
      name: "GutendexServer",
      dependencies: ["Gutendex", .product(name: "FlyingSocks", package: "FlyingFox")]
    ),
    // The model layer: the service (the one door to the data), view models, observation, and
    // the SQLite files behind it (GRDB: favourites, library, page cache, export/import), whose
    // classes are internal: the front sees value types and the service's intents only.
    .target(
      name: "Catalog",
      dependencies: [
        // zlib: an EPUB's package document, for progress sync's chapter of a place.
        "Gutendex", "GutendexEngine", "CZlib", .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's C API, for the one file control GRDB does not wrap (`doctor --repair`'s
        // write lock keeps the WAL of a file it renames: see StoreWriteLock).
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]),
    // The system libedit, the line editor of the interactive prompts (apt: libedit-dev for its
    // headers), opened with dlopen by the first prompt on a terminal: not linked, so commands
    // and piped sessions never load it.
    .target(name: "CEditLine", dependencies: ["CLoader"], path: "Sources/CEditLine"),
    // Line-mode rendering and the interactive session, kept out of `main` so tests can drive it.
    // The reader opens an EPUB (a zip of XHTML documents) with libarchive and libxml2.
    .target(name: "Terminal", dependencies: ["Catalog", "CEditLine", "CArchive", "CLibXML2"]),
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
      name: "GutendexTests",
      dependencies: ["Gutendex", "GutendexServer", "TestSupport", "TestTraits"]),
    .testTarget(name: "GutendexEngineTests", dependencies: ["GutendexEngine", "TestSupport"]),
    .testTarget(
      name: "GutendexServerTests",
      dependencies: [
        "Gutendex", "GutendexServer", "GutendexEngine", "gutendex-server", "TestSupport",
        "TestTraits", .product(name: "FlyingSocks", package: "FlyingFox"),
      ]),
    .testTarget(
      name: "CatalogTests",
      dependencies: [
        "Catalog", "GutendexEngine", "GutendexServer", "TestSupport", "TestTraits",
      ]),
    .testTarget(
      name: "TerminalTests",
      dependencies: [
        "Terminal", "gutenberg", "Gutendex", "GutendexEngine", "Catalog", "TestSupport",
        "GutendexServer",
      ]),
    // Runs the real `gutenberg` binary (built because it is a dependency) against a loopback server.
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "gutenberg", "gutendex-server", "gutenberg-bench", "TestSupport", "TestTraits", "Gutendex",
        "GutendexServer",
        "GutendexEngine",
      ]),
    .testTarget(
      name: "FaultMatrixTests",
      dependencies: [
        "gutenberg", "TestSupport", "TestTraits", "Gutendex", "GutendexServer", "GutendexEngine",
      ]),
    // Runs every command line of README.md and of `gutenberg --help` against a loopback server.
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "gutenberg", "gutendex-server", "TestSupport", "TestTraits", "Gutendex", "GutendexServer",
      ]),
    // The `.ownThread` test trait: tests that must react in time run on threads of their own,
    // not behind the parallel suites' work on the cooperative pool. Apart from TestSupport,
    // which the bench links and so must not import Testing.
    .target(name: "TestTraits", dependencies: ["TestSupport"], path: "Tests/TestTraits"),
    // What every test suite shares: each fixture once, the child-process harness (also the
    // bench's), the loopback test server and the binary harness. No `import Testing` here, so
    // the bench can link it.
    .target(
      name: "TestSupport",
      dependencies: [
        "Gutendex", "GutendexServer", "GutendexEngine", "CArchive", "CBzip2",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Tests/TestSupport",
      resources: [.copy("Fixtures")]),
  ]
)
