import Foundation

/// Where a test points the binary to reach a loopback server over a ``Scheme``: the server
/// itself for http; for https a ``TLSFront`` before it, with a fresh test CA that the binary
/// is told to trust (`SSL_CERT_FILE`).
public struct ServerFront: Sendable {
  /// The scheme this front speaks.
  public let scheme: Scheme
  /// The URL to use: `http://127.0.0.1:<server>` or `https://127.0.0.1:<front>`.
  public let url: URL
  /// The TLS front (https only).
  public let tls: TLSFront?
  /// The CA that signed the front's certificate (https only).
  public let authority: TestCertificateAuthority?

  /// Reaches `backend` (a started server's `http://127.0.0.1:<port>`) over `scheme`.
  public static func start(_ scheme: Scheme, backend: URL) async throws -> ServerFront {
    switch scheme {
    case .http:
      return ServerFront(scheme: scheme, url: backend, tls: nil, authority: nil)
    case .https:
      let authority = try await TestCertificateAuthority.make()
      do {
        let tls = try await TLSFront.start(backend: backend, authority: authority)
        return ServerFront(scheme: scheme, url: tls.url, tls: tls, authority: authority)
      } catch {
        authority.remove()
        throw error
      }
    }
  }

  /// What a client needs in its environment to trust this front: `SSL_CERT_FILE` naming the
  /// test CA (https), nothing for http.
  public var clientEnvironment: [String: String] {
    authority.map { ["SSL_CERT_FILE": $0.certificatePath] } ?? [:]
  }

  /// Stops the TLS front and removes the CA's files (nothing to do for http).
  public func stop() async {
    await tls?.stop()
    authority?.remove()
  }
}
