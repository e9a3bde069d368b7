import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the embedded catalogue file is looked for, in order, and which of those places holds it.
///
/// 1. `GUTENBERG_INDEX`, the file itself: when set, the only place looked at, so a wrong value
///    is reported rather than quietly passed over.
/// 2. Next to the binary, then `PREFIX/share/gutenberg` for a binary in `PREFIX/bin`.
/// 3. `$XDG_DATA_HOME/gutenberg` (default `~/.local/share`), then each of `$XDG_DATA_DIRS`
///    (default `/usr/local/share:/usr/share`) followed by `/gutenberg`.
/// 4. The build tree: the resource folder SwiftPM copies next to the products, so `swift run`,
///    the tests and the bench find it without an install.
public struct CatalogueLocation: Sendable, Equatable {
  /// The paths looked at, in order.
  public let candidates: [String]
  /// The first candidate that exists, nil when none does.
  public let found: String?

  /// The places for this process's environment and executable.
  public static func current() -> CatalogueLocation {
    CatalogueLocation(
      environment: ProcessInfo.processInfo.environment, executable: executablePath())
  }

  /// The places for `environment` and a binary at `executable`, checked on disk.
  public init(environment: [String: String], executable: String?) {
    candidates = Self.candidates(environment: environment, executable: executable)
    found = candidates.first { access($0, F_OK) == 0 }
  }

  /// One line for a catalogue that is nowhere: where it was looked for, and how to name it.
  public var missingDescription: String {
    "\(EmbeddedCatalogue.fileName) not found (looked in \(candidates.joined(separator: ", "))); "
      + "install it with `make install` or set GUTENBERG_INDEX to its path"
  }

  static func candidates(environment: [String: String], executable: String?) -> [String] {
    let name = EmbeddedCatalogue.fileName
    if let index = environment["GUTENBERG_INDEX"], !index.isEmpty { return [index] }
    var folders: [String] = []
    let binary = executable.map { ($0 as NSString).deletingLastPathComponent }
    if let binary {
      folders.append(binary)
      folders.append(((binary as NSString).deletingLastPathComponent) + "/share/gutenberg")
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
    if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
      folders.append(dataHome + "/gutenberg")
    } else if let home {
      folders.append(home + "/.local/share/gutenberg")
    }
    let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 }
    for dir in (dataDirs ?? "/usr/local/share:/usr/share").split(separator: ":")
    where dir.hasPrefix("/") {
      folders.append(dir + "/gutenberg")
    }
    var paths = folders.map { $0 + "/" + name }
    if let binary {
      // SwiftPM's copy of the target's `Resources` folder (`.copy("Resources")`).
      paths.append(binary + "/gutenberg_GutendexEngine.resources/Resources/" + name)
      paths.append(binary + "/gutenberg_GutendexEngine.bundle/Contents/Resources/Resources/" + name)
    }
    return paths
  }

  /// The running binary's own path, symbolic links resolved (so a link in `~/bin` to an
  /// installed binary still finds the catalogue beside the real one).
  static func executablePath() -> String? {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard length > 0 else { return nil }
      return String(
        decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
      return Bundle.main.executableURL?.resolvingSymlinksInPath().path
    #endif
  }
}
