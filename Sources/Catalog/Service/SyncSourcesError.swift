/// Options naming sync sources that mean nothing, one line.
public struct SyncSourcesError: Error, Sendable, Hashable {
  /// The line.
  public var message: String
}
