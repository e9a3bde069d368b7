/// A harness step that could not be done; the test that asked for it fails with this message.
///
/// Thrown, not `#require`d: this target is also linked into the bench, which has no test runner.
struct HarnessFailure: Error, CustomStringConvertible {
  var description: String

  static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw HarnessFailure(description: message()) }
  }

  static func unwrap<T>(_ value: T?, _ message: @autoclosure () -> String) throws -> T {
    guard let value else { throw HarnessFailure(description: message()) }
    return value
  }
}
