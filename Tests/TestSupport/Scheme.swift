/// How a test reaches its loopback server: plain http, or https through a ``TLSFront``.
public enum Scheme: String, Sendable, CaseIterable, CustomStringConvertible {
  /// Straight to the ``LoopbackServer``'s port.
  case http
  /// Through a ``TLSFront`` whose certificate a test CA signed.
  case https

  /// The scheme's name, as the test runner shows an argument.
  public var description: String { rawValue }
}
