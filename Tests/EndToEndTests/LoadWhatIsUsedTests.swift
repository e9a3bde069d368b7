import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// A command loads and touches only what it uses. libcurl, libedit, libarchive, libbz2 and
/// libxml2 are opened on first use, not linked: a command that needs none never maps them (nor
/// the libraries they depend on), and a libcurl that cannot be loaded is one line on the first
/// request while everything local still works. A read that asks no server opens no store for
/// writing and syncs nothing. Checked from outside the process: `strace` sees every file the
/// binary (and the dynamic loader before it) opens, and every sync.
@Suite(.serialized, .ownThread)
struct LoadWhatIsUsedTests {
  /// What `strace` saw one run do.
  struct Trace {
    /// The paths opened (found or created; not the loader's misses).
    var opened: [String]
    /// The `fsync` and `fdatasync` calls.
    var syncs: Int
  }

  /// Runs `arguments` under `strace -ff`; the run and what it opened and synced.
  static func traced(_ app: Gutenberg, _ arguments: [String]) async throws -> (
    run: Gutenberg.Run, trace: Trace
  ) {
    let name = "strace-\(UUID().uuidString)"
    let strace = try SystemTool.path("strace")
    let run = try await app.run(
      arguments, inputData: Data(),
      // --seccomp-bpf stops the child only at the calls traced: a feed refresh makes many
      // other calls on several threads, each a stop without it (516 s under load in one run).
      // -ff writes a file per thread, so no call is split into an "unfinished" line and its
      // "resumed" one by another thread's (a split open, its result on the second line, read
      // as a second opening of a library in one run).
      wrapper: [
        strace, "-ff", "-qq", "--seccomp-bpf", "-e", "trace=openat,open,fsync,fdatasync",
        "-o", app.root.appendingPathComponent(name).path,
      ],
      // Every fsync waits for the disk under the tracer, which a disk shared with a build
      // makes slow and the deadline counts in full (only CPU starvation is discounted): a
      // 5-book feed sync was killed at 60 s in one loaded run. What is checked is what opens.
      timeout: .seconds(240))
    let files = try FileManager.default.contentsOfDirectory(atPath: app.root.path)
      .filter { $0.hasPrefix(name + ".") }
    var lines: [Substring] = []
    for file in files {
      let text = try String(
        contentsOfFile: app.root.appendingPathComponent(file).path, encoding: .utf8)
      lines += text.split(separator: "\n")
    }
    // An opening that succeeded: `openat(..., "path", ...) = 3`.
    let opened = lines.compactMap { line -> String? in
      guard line.contains("open"), let start = line.firstIndex(of: "\""),
        let result = line.range(of: ") = ", options: .backwards),
        line[result.upperBound...].first?.isNumber == true
      else { return nil }
      let rest = line[line.index(after: start)...]
      return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
    let syncs = lines.filter { $0.contains("fsync(") || $0.contains("fdatasync(") }.count
    return (run, Trace(opened: opened, syncs: syncs))
  }

  /// The libraries loaded on first use, and the ones only they bring in (ICU for libxml2).
  static let onFirstUse = ["libcurl", "libedit", "libarchive", "libbz2", "libxml2", "libicu"]

  /// A folder holding a `libcurl.so.4` that is not a library: first on `LD_LIBRARY_PATH`, it is
  /// what the dynamic loader finds, so loading libcurl fails as on a machine without it.
  static func brokenLibcurl(in app: Gutenberg) throws -> String {
    let folder = app.root.appendingPathComponent("broken-lib", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("not a shared library\n".utf8).write(
      to: folder.appendingPathComponent("libcurl.so.4"))
    return folder.path
  }

  /// The file the dynamic loader opens for `soname`: opened here, then found in this
  /// process's memory map.
  static func libraryFile(_ soname: String) throws -> String {
    let library = try #require(dlopen(soname, RTLD_NOW | RTLD_LOCAL), "no \(soname) here")
    defer { dlclose(library) }
    // Read to the end: `String(contentsOfFile:)` stops after the first page of a /proc file.
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
    defer { try? handle.close() }
    let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    let file = maps.split(separator: "\n").lazy.compactMap { line in
      line.firstIndex(of: "/").map { String(line[$0...]) }
    }.first { ($0 as NSString).lastPathComponent.hasPrefix(soname) }
    return try #require(file, "\(soname) is not in /proc/self/maps")
  }

  @Test func anOfflineListOpensNoLibraryItDoesNotUse() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let (run, trace) = try await Self.traced(app, ["list", "--source", "local"])

    #expect(run.status == 0, "\(run)")
    #expect(run.outLines.count == 32, "\(run)")
    // The trace is real: it saw the loader open the C library and the catalogue being read.
    #expect(trace.opened.contains { $0.contains("libc.so") }, "\(trace.opened)")
    #expect(trace.opened.contains { $0.hasSuffix(".gdxindex") }, "\(trace.opened)")
    let loaded = trace.opened.filter { path in Self.onFirstUse.contains { path.contains($0) } }
    #expect(loaded.isEmpty, "an offline list loaded \(loaded)")
  }

  /// The same check can fail: a command that asks the server does open libcurl, once.
  @Test func aRequestOpensLibcurlOnce() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let (run, trace) = try await Self.traced(
      app, ["list", "--source", "server", "--server", server.url.absoluteString])
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.outLines.count == 32, "\(run)")
    #expect(trace.opened.filter { $0.hasSuffix("libcurl.so.4") }.count == 1, "\(trace.opened)")
  }

  /// The feed is what opens libbz2, libarchive and libxml2 (each once), with libcurl.
  @Test func aFeedSyncOpensTheFeedsLibrariesOnce() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let feed = app.root.appendingPathComponent("rdf-files.tar.bz2")
    let books = try FixtureFiles.data("books.jsonl").split(separator: 0x0A).prefix(5)
    try FeedGenerator.writeFeed(books: books.map { Data($0) }, to: feed.path)
    server.server.serve(ServedFile(content: .file(feed)), at: "/rdf-files.tar.bz2")
    let (run, trace) = try await Self.traced(
      app,
      [
        "sync", "--feed", "--server", server.url.absoluteString, "--feed-url",
        server.url.appendingPathComponent("rdf-files.tar.bz2").absoluteString,
      ])
    await server.stop()

    #expect(run.status == 0, "\(run)")
    for library in ["libbz2.so.1.0", "libarchive.so.13", "libxml2.so", "libcurl.so.4"] {
      let opened = trace.opened.filter { ($0 as NSString).lastPathComponent.hasPrefix(library) }
      #expect(opened.count == 1, "\(library): \(trace.opened)")
    }
  }

  @Test func versionAndHelpOpenNoStoreAndNoCatalogue() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    for arguments in [["--version"], ["--help"], ["list", "--help"]] {
      let (run, trace) = try await Self.traced(app, arguments)
      #expect(run.status == 0, "\(arguments): \(run)")
      #expect(!run.out.isEmpty, "\(arguments): \(run)")
      let touched = trace.opened.filter { path in
        path.hasPrefix(app.dataDirectory.path) || path.hasSuffix(".gdxindex")
          || path.contains(".sqlite") || Self.onFirstUse.contains { path.contains($0) }
      }
      #expect(touched.isEmpty, "\(arguments) opened \(touched)")
      #expect(trace.syncs == 0, "\(arguments) synced \(trace.syncs) times")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(left.isEmpty, "the data directory got \(left)")
  }

  /// A read that asks no server, in a data directory with no files yet: it creates nothing
  /// there (no page cache), opens nothing there for writing, and syncs nothing anywhere (the
  /// empty stores it reads are scratch files).
  @Test func aLocalReadOnAnEmptyDataDirectoryWritesAndSyncsNothing() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    for arguments in [["list", "--source", "local"], ["show", "84", "--offline"]] {
      let (run, trace) = try await Self.traced(app, arguments)
      #expect(run.status == 0, "\(arguments): \(run)")
      #expect(trace.syncs == 0, "\(arguments) synced \(trace.syncs) times")
      let created = try FileManager.default.subpathsOfDirectory(atPath: app.dataDirectory.path)
      #expect(created.isEmpty, "\(arguments) created \(created)")
    }
  }

  /// A libcurl that cannot be loaded: local commands work as before (the binary does not need
  /// it to start); a list that asks the server says why in one note and the local catalogue
  /// answers; a download, which only the network can do, is one error line, exit 69.
  @Test func aMissingLibcurlIsOneLineAndLocalCommandsStillWork() async throws {
    let server = try await TestServer.start()
    var app = try Gutenberg()
    defer { app.cleanUp() }
    app.extraEnvironment["LD_LIBRARY_PATH"] = try Self.brokenLibcurl(in: app)

    let local = try await app.run(["list", "--source", "local", "--search", "frankenstein"])
    let favourite = try await app.run(["favorites", "add", "84"])
    let online = try await app.run([
      "list", "--source", "server", "--server", server.url.absoluteString,
    ])
    let download = try await app.run(["get", "84", "-o", app.root.path])
    let served = server.server.requestCount
    await server.stop()

    #expect(local.status == 0, "\(local)")
    #expect(local.outLines.contains { $0.hasPrefix("84\tFrankenstein") }, "\(local)")
    #expect(favourite.status == 0, "\(favourite)")
    #expect(online.status == 0, "\(online)")
    #expect(online.outLines.count == 32, "\(online)")
    #expect(online.errLines.count == 1, "\(online)")
    #expect(online.err.contains("cannot load libcurl.so.4"), "\(online)")
    #expect(online.err.contains("install libcurl4"), "\(online)")
    #expect(served == 0, "the server was asked \(served) times")
    #expect(download.status == 69, "\(download)")
    #expect(download.exit.signal == nil, "\(download)")
    #expect(download.errLines.count == 1, "\(download)")
    #expect(download.err.hasPrefix("error: "), "\(download)")
    #expect(download.err.contains("cannot load libcurl.so.4"), "\(download)")
  }

  /// A `libcurl.so.4` that is a library but not libcurl (zlib under its name): dlopen takes
  /// it, so the shared loader's other line is the one: the first function missing, the
  /// release that has them all, and the package to update.
  @Test func aLibcurlWithoutItsFunctionsNamesTheReleaseNeeded() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let folder = app.root.appendingPathComponent("wrong-lib", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: try Self.libraryFile("libz.so.1"),
      toPath: folder.appendingPathComponent("libcurl.so.4").path)
    app.extraEnvironment["LD_LIBRARY_PATH"] = folder.path

    let download = try await app.run(["get", "84", "-o", app.root.path])

    #expect(download.status == 69, "\(download)")
    #expect(download.exit.signal == nil, "\(download)")
    #expect(download.errLines.count == 1, "\(download)")
    #expect(
      download.err.contains(
        "libcurl.so.4 has no curl_global_init (libcurl 7.85 or later is needed); "
          + "install a newer libcurl4"), "\(download)")
  }
}
