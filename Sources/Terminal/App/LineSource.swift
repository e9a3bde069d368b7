import Foundation

/// Where the interactive session and the pager read their commands from.
package protocol LineSource: Sendable {
  /// Whether a person is typing (a prompt is shown) or a pipe/file is feeding lines.
  var isInteractive: Bool { get }
  /// The next line without its newline, or nil at end of input (Ctrl-D). Never blocks the
  /// caller's actor: a source that must block does so on a thread of its own.
  func nextLine() async -> String?
  /// Whether the source edits lines itself (a line editor): it shows the prompt, so the caller
  /// writes none.
  var editsLines: Bool { get }
  /// The next line after `prompt` (shown by the source when it ``editsLines``); `remember`:
  /// keep it in the history, where there is one.
  func nextLine(prompt: String, remember: Bool) async -> String?
  /// The next line after `prompt`, begun with `typed` (the key that opened it): a line editor
  /// shows it as typed, ready to be edited; a plain source's caller has written it.
  func nextLine(prompt: String, remember: Bool, typed: String) async -> String?
  /// Ends a read in progress and gives the terminal back (before the process exits).
  func stop()
  /// Ctrl-C at the prompt: a line editor drops the line typed so far.
  func interrupt()
}

extension LineSource {
  /// Plain sources do not edit lines.
  package var editsLines: Bool { false }
  /// Plain sources read the line; the caller has written the prompt.
  package func nextLine(prompt: String, remember: Bool) async -> String? { await nextLine() }
  /// Plain sources read the rest of the line; `typed` comes first.
  package func nextLine(prompt: String, remember: Bool, typed: String) async -> String? {
    guard let rest = await nextLine(prompt: prompt, remember: remember) else { return nil }
    return typed + rest
  }
  /// Plain sources have nothing to give back.
  package func stop() {}
  /// Plain sources keep no line of their own (a terminal's own line discipline drops it).
  package func interrupt() {}
}

/// The terminal's line editor (``LineEditor``) as a source of lines: used only when standard
/// input and output are terminals.
package struct EditedInput: LineSource {
  /// A person is typing.
  package var isInteractive: Bool { true }
  /// The editor shows the prompt.
  package var editsLines: Bool { true }
  let editor: LineEditor

  /// The process's editor, keeping its history in `historyFile` (nil: none).
  package init(historyFile: URL?) {
    editor = LineEditor.shared
    editor.useHistory(file: historyFile)
  }

  /// A line with no prompt.
  package func nextLine() async -> String? {
    await editor.readLine(prompt: "", remember: false)
  }

  /// A line after `prompt`.
  package func nextLine(prompt: String, remember: Bool) async -> String? {
    await editor.readLine(prompt: prompt, remember: remember)
  }

  /// A line after `prompt`, `typed` already in it.
  package func nextLine(prompt: String, remember: Bool, typed: String) async -> String? {
    await editor.readLine(prompt: prompt, remember: remember, typed: typed)
  }

  /// Ends the read in progress; the terminal is restored.
  package func stop() {
    editor.stop()
  }

  /// Drops the line typed so far and shows an empty prompt.
  package func interrupt() {
    editor.interrupt()
  }

  /// What Tab completes from.
  func complete(from completion: Completion) {
    editor.complete(from: completion)
  }
}

/// Standard input, read on a thread of its own into a pull-based `AsyncStream`, so the main
/// actor keeps running (redraws, Ctrl-C) while the user thinks. Invalid UTF-8 is repaired
/// (U+FFFD), never fatal.
///
/// The stream is pull-based (one line is read only when one is asked for), so the browser and
/// the pager can take turns on the same input without one reading ahead of the other.
package struct StandardInput: LineSource {
  /// Whether standard input is a terminal (then a prompt is shown).
  package let isInteractive: Bool
  /// Every line of standard input, one read per element asked for.
  package let lines: AsyncStream<String>

  /// Lines from this process's standard input.
  package init() {
    isInteractive = isatty(STDIN_FILENO) == 1
    let reader = LineReaderThread()
    lines = AsyncStream(unfolding: { await reader.next() })
  }

  /// The next line without its newline, nil at the end of input.
  package func nextLine() async -> String? {
    // The session and the pager take turns (each awaits its line before asking again), so
    // iterators are used one after another, never at the same time.
    var iterator = lines.makeAsyncIterator()
    return await iterator.next()
  }
}

/// Reads one line of standard input per request on a dedicated thread (a blocking `read` must
/// not hold a thread of the cooperative pool, which has only as many threads as cores).
final class LineReaderThread: Sendable {
  private let requests = DispatchQueue(label: "gutenberg.stdin")

  /// The next line, or nil at the end of input.
  func next() async -> String? {
    await withCheckedContinuation { continuation in
      requests.async {
        continuation.resume(returning: Swift.readLine(strippingNewline: true))
      }
    }
  }
}
