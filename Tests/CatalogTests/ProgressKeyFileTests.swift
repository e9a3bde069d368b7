import Foundation
import Gutendex
import Testing

@testable import Catalog

#if canImport(Glibc)
  import Glibc
#endif

/// The file of progress sync's key (`progress/account.json`) is checked each time it is read,
/// as ssh checks a private key: a mode that lets other users read or change it is refused with
/// one line that says how to fix it (`chmod 600 PATH`); the state file, which holds no secret,
/// is not.
@Suite struct ProgressKeyFileTests {
  /// Progress sync over a fresh data directory holding a login (mode 0600, as `login` writes).
  static func loggedIn() throws -> (ProgressSync, URL) {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-key-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let sync = ProgressSync(
      dataDirectory: data, pipeline: HTTPPipeline(), timeout: .seconds(5))
    let account = SyncAccount(
      server: "http://127.0.0.1:9/", user: "alice", key: MD5.hex("secret"), device: "test",
      match: .binary)
    try PrivateFile.write(try JSONEncoder().encode(account), to: sync.accountFile)
    return (sync, data)
  }

  static func mode(_ url: URL) throws -> Int {
    try #require(
      try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
  }

  @Test(arguments: [0o644, 0o640, 0o604, 0o620, 0o602, 0o660, 0o666])
  func aKeyFileOthersMayReadOrChangeIsRefusedSayingHowToFixIt(mode: Int) throws {
    let (sync, data) = try Self.loggedIn()
    defer { try? FileManager.default.removeItem(at: data) }
    #expect(try sync.account()?.user == "alice", "mode 0600 reads")
    let path = sync.accountFile.path
    try #require(chmod(path, mode_t(mode)) == 0)
    #expect(try Self.mode(sync.accountFile) == mode)
    let octal = "0" + String(mode, radix: 8)
    #expect(
      throws: ProgressSyncError.file(
        path: path,
        reason: "mode \(octal) lets other users read or change the key it holds: chmod 600 \(path)")
    ) {
      _ = try sync.account()
    }
    // The login the commands require is refused the same way.
    #expect(throws: ProgressSyncError.self) { _ = try sync.requireAccount() }
    let line = ProgressSyncError.file(
      path: path,
      reason: PrivateFile.openToOthers(
        mode: mode_t(mode), path: path)
    ).description
    #expect(!line.contains("\n") && line.hasSuffix("chmod 600 \(path)"), "\(line)")
    // Doing what the line says is the fix.
    try #require(chmod(path, 0o600) == 0)
    #expect(try sync.account()?.user == "alice")
  }

  @Test func aStricterModeThanOwnerReadWriteIsTaken() throws {
    let (sync, data) = try Self.loggedIn()
    defer { try? FileManager.default.removeItem(at: data) }
    try #require(chmod(sync.accountFile.path, 0o400) == 0)
    #expect(try sync.account()?.user == "alice")
  }

  @Test func theStateFileHoldsNoSecretAndIsReadWhateverItsMode() throws {
    let (sync, data) = try Self.loggedIn()
    defer { try? FileManager.default.removeItem(at: data) }
    let id = try sync.deviceID()
    try #require(chmod(sync.stateFile.path, 0o644) == 0)
    #expect(try sync.state().deviceID == id)
  }
}
