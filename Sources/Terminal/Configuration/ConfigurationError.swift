import Foundation
import Gutendex

/// A value of an option or of an environment variable that cannot be used: one line naming it
/// and what it accepts, and exit 64.
package struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `GUTENBERG_TIMEOUT: 'abc' is not a number of seconds from 0 to 600 (e.g. 30)`.
  package var message: String
  /// Always a usage error.
  package var status: ExitStatus { .usage }
  /// The message.
  package var description: String { message }

  /// The error for `value` of `name` (an option or a variable), which should be `accepted`.
  /// A value that is a URL with a password is shown without it.
  init(_ name: String, _ value: String, isNot accepted: String) {
    message = "\(name): '\(Sanitizer.sanitize(URL.redacting(value)))' is not \(accepted)"
  }

  init(message: String) {
    self.message = message
  }
}
