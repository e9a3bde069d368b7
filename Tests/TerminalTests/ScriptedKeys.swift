import Foundation
import Synchronization

@testable import Terminal

/// Keys pressed at the reader, and the lines typed at the prompts they open, in order; what
/// the screen showed when the keys ran out is kept (the session then sees the input end).
final class ScriptedKeys: KeySource {
  enum Step {
    case key(ReaderKey)
    case line(String)
  }

  private let steps: Mutex<[Step]>
  private let screen: @Sendable () -> String
  /// The prompts asked, in order.
  let prompts = Mutex<[String]>([])
  /// The screen when the last key had been handled.
  let last = Mutex("")

  init(_ steps: [Step], screen: @escaping @Sendable () -> String) {
    self.steps = Mutex(steps)
    self.screen = screen
  }

  /// `text` as keys: each character one key (`\n` Enter).
  static func keys(_ text: String) -> [Step] {
    text.map { $0 == "\n" ? .key(.enter) : .key(.character($0)) }
  }

  func nextKey() async -> ReaderKey? {
    let next = steps.withLock { steps -> ReaderKey? in
      guard case .key(let key) = steps.first else { return nil }
      steps.removeFirst()
      return key
    }
    if next == nil { last.withLock { $0 = screen() } }
    return next
  }

  func line(prompt: String, typed: String) async -> String? {
    prompts.withLock { $0.append(prompt + typed) }
    return steps.withLock { steps -> String? in
      guard case .line(let text) = steps.first else { return nil }
      steps.removeFirst()
      return typed + text
    }
  }

  func stop() {}

  /// `text` as a terminal shows it: a carriage return and erase-line (`\r\e[K`) wipe the row
  /// they are written on, as they do on screen.
  static func asShown(_ text: String) -> String {
    var shown = ""
    var rest = Substring(text)
    while let erase = rest.range(of: "\r\u{1B}[K") {
      shown += rest[..<erase.lowerBound]
      if let newline = shown.lastIndex(of: "\n") {
        shown = String(shown[...newline])
      } else {
        shown = ""
      }
      rest = rest[erase.upperBound...]
    }
    return shown + rest
  }
}
