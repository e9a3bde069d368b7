import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// The binary installed with the Makefile's copy step into a temporary prefix, then run where
/// the package and its build folder are hidden (an empty tmpfs over each, in a mount namespace
/// of its own): the catalogue is found in `PREFIX/share/gutenberg`, never through the build tree.
@Suite(.serialized, .ownThread)
struct InstallTests {
  @Test func anInstalledBinaryBrowsesOfflineWithThePackageHidden() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    try await app.install(into: app.root.appendingPathComponent("prefix"))
    app.runAs = Gutenberg.hidingThePackage
    let hidden = try await app.run(["--version"])
    try #require(hidden.status == 0, "the hidden run could not start: \(hidden)")

    let list = try await app.run(["list", "--offline", "--search", "frankenstein"])
    let show = try await app.run(["show", "84", "--offline"])
    let browser = try await app.run(["--offline"], input: "/ moby dick melville\nf 1\nq\n")

    #expect(list.status == 0, "\(list)")
    #expect(list.outLines.contains { $0.hasPrefix("84\tFrankenstein") }, "\(list)")
    #expect(show.status == 0, "\(show)")
    #expect(show.out.hasPrefix("Frankenstein"), "\(show)")
    #expect(browser.status == 0, "\(browser)")
    #expect(browser.out.contains("embedded catalogue of 2025-08"), "\(browser)")
    #expect(browser.out.contains("Added to favourites: Moby Dick"), "\(browser)")
    for run in [list, show, browser] {
      #expect(!run.err.contains("Fatal error"), "\(run)")
    }
  }

  /// No catalogue anywhere: one line naming where it was looked for, and the server (here a
  /// loopback one) still answers; no crash.
  @Test func aMissingCatalogueIsOneLineAndTheServerStillAnswers() async throws {
    let server = try await TestServer.start()
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let prefix = app.root.appendingPathComponent("prefix")
    try await app.install(into: prefix)
    try FileManager.default.removeItem(
      at: prefix.appendingPathComponent("share/gutenberg/catalogue-2025-08.gdxindex"))
    app.runAs = Gutenberg.hidingThePackage

    // Offline first: the online page would be cached, and the cache answers offline.
    let offline = try await app.run(["list", "--offline"])
    let online = try await app.run(["list", "--server", server.url.absoluteString])
    await server.stop()

    #expect(online.status == 0, "\(online)")
    #expect(online.outLines.count == 32, "\(online)")
    #expect(offline.status != 0 && offline.exit.signal == nil, "\(offline)")
    #expect(offline.errLines.count == 1, "\(offline)")
    #expect(offline.err.contains("catalogue-2025-08.gdxindex not found"), "\(offline)")
    #expect(offline.err.contains(prefix.path + "/share/gutenberg"), "\(offline)")
  }

  /// What `make install` builds (issue 36: the figures are measured on it): a release build with
  /// the Swift runtime linked in, at a fixed address unless `PIE=yes` (the loader then has none
  /// of the runtime's relocations to apply at each start). Read from `make -n`, which builds
  /// nothing.
  @Test func makeInstallBuildsAStaticRuntimeAtAFixedAddress() async throws {
    func planned(_ arguments: [String]) async throws -> String {
      let child = try await SystemTool.run(
        "make", ["-n", "-s", "-C", Gutenberg.packageRoot.path, "build"] + arguments)
      return String(decoding: child.stdout, as: UTF8.self)
    }
    let build = try await planned([])
    #expect(build.contains("build -c release --static-swift-stdlib"), "\(build)")
    #expect(build.contains("-Xswiftc -Xclang-linker -Xswiftc -no-pie"), "\(build)")
    #expect(build.contains("--product gutenberg"), "\(build)")
    let pie = try await planned(["PIE=yes"])
    #expect(pie.contains("--static-swift-stdlib") && !pie.contains("no-pie"), "\(pie)")
  }

  /// `GUTENBERG_INDEX` names the file itself, wherever it is.
  @Test func gutenbergIndexNamesTheCatalogue() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let prefix = app.root.appendingPathComponent("prefix")
    try await app.install(into: prefix)
    let elsewhere = app.root.appendingPathComponent("elsewhere.gdxindex")
    try FileManager.default.moveItem(
      at: prefix.appendingPathComponent("share/gutenberg/catalogue-2025-08.gdxindex"),
      to: elsewhere)
    app.runAs = Gutenberg.hidingThePackage
    app.extraEnvironment["GUTENBERG_INDEX"] = elsewhere.path

    let show = try await app.run(["show", "2701", "--offline"])

    #expect(show.status == 0, "\(show)")
    #expect(show.out.hasPrefix("Moby Dick"), "\(show)")
  }
}
