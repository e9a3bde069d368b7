import Foundation

/// A certificate authority made at test time with the `openssl` CLI, in a temporary directory:
/// its key and self-signed certificate, and a server key and certificate it signed for
/// `127.0.0.1` and `localhost`. Both are valid for two days, so nothing committed can expire.
///
/// Two authorities made by two calls are unrelated: a client that trusts one rejects the
/// other's server (the "untrusted certificate" case).
public struct TestCertificateAuthority: Sendable {
  /// The directory holding every file below; removed by ``remove()``.
  public let directory: URL
  /// The CA certificate (PEM): what a client trusts (`SSL_CERT_FILE`, `curl --cacert`).
  public let certificatePath: String
  /// The server certificate (PEM), signed by this CA, for IP 127.0.0.1 and DNS localhost.
  public let serverCertificatePath: String
  /// The server's private key (PEM, unencrypted).
  public let serverKeyPath: String
  /// A directory holding only the CA certificate under its subject-hash name (`openssl
  /// rehash`), the form `SSL_CERT_DIR` and `curl --capath` read.
  public var certificateDirectory: String { directory.appendingPathComponent("certs").path }

  /// Makes a new CA and a server certificate signed by it (EC P-256 keys: quick to make).
  public static func make(name: String = "gutenberg test CA") async throws
    -> TestCertificateAuthority
  {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-ca-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let authority = TestCertificateAuthority(
      directory: directory, certificatePath: directory.appendingPathComponent("ca.pem").path,
      serverCertificatePath: directory.appendingPathComponent("server.pem").path,
      serverKeyPath: directory.appendingPathComponent("server.key").path)
    do {
      try await authority.generate(name: name)
    } catch {
      authority.remove()
      throw error
    }
    return authority
  }

  private func file(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  private func generate(name: String) async throws {
    let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    try await SystemTool.run(
      "openssl",
      ["req", "-x509"] + key + [
        "-keyout", file("ca.key"), "-out", certificatePath, "-days", "2", "-subj", "/CN=\(name)",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
      ])
    try await SystemTool.run(
      "openssl",
      ["req"] + key + [
        "-keyout", serverKeyPath, "-out", file("server.csr"), "-subj", "/CN=127.0.0.1",
      ])
    // What makes the certificate good for https://127.0.0.1 and https://localhost: clients
    // match the subjectAltName, not the CN.
    let extensions =
      "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
      + "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
    try Data(extensions.utf8).write(to: URL(fileURLWithPath: file("server.ext")))
    try await SystemTool.run(
      "openssl",
      [
        "x509", "-req", "-in", file("server.csr"), "-CA", certificatePath, "-CAkey",
        file("ca.key"), "-set_serial", "0x\(UUID().uuidString.prefix(8))", "-days", "2",
        "-extfile", file("server.ext"), "-out", serverCertificatePath,
      ])
    try FileManager.default.createDirectory(
      atPath: certificateDirectory, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: certificatePath, toPath: certificateDirectory + "/ca.pem")
    try await SystemTool.run("openssl", ["rehash", certificateDirectory])
  }

  /// Removes the directory and every key and certificate in it.
  public func remove() {
    try? FileManager.default.removeItem(at: directory)
  }
}
