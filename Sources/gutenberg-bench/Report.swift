import Foundation

/// Progress on standard error, so standard output holds only the results.
enum Report {
  static func progress(_ text: String) {
    FileHandle.standardError.write(Data("gutenberg-bench: \(text)\n".utf8))
  }
}
