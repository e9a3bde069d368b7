import Foundation

/// Installing the built binary as a user would (the Makefile's copy step), and running it where
/// nothing of the package or its build folder can be seen.
extension Gutenberg {
  /// The package's folder (the Makefile's), three levels above this file.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Installs the built binary and its catalogue into `prefix` with `make install-files` (the
  /// step `make install` runs after its release build) and runs the installed binary from now on.
  mutating func install(into prefix: URL) async throws {
    let products = URL(fileURLWithPath: Self.binary).deletingLastPathComponent().path
    try await SystemTool.run(
      "make",
      [
        "-s", "-C", Self.packageRoot.path, "install-files", "PREFIX=\(prefix.path)",
        "FROM=\(products)",
      ],
      timeout: .seconds(120))
    executable = prefix.appendingPathComponent("bin/gutenberg").path
  }

  /// A ``runAs`` prefix that runs the binary in a mount namespace of its own (a user namespace,
  /// so no privilege is needed) where the build folder and the package folder are empty: what
  /// an installed binary sees once the clone is deleted, or from a user who cannot read it.
  static var hidingThePackage: [String] {
    let products = URL(fileURLWithPath: binary).deletingLastPathComponent().path
    return [
      "unshare", "--user", "--map-root-user", "--mount", "/bin/sh", "-c",
      #"mount -t tmpfs none "$1" && mount -t tmpfs none "$2" && shift 2 && exec "$@""#,
      "sh", products, packageRoot.path,
    ]
  }
}
