import Foundation

/// One command line as the documentation shows it, with where it was found and what it
/// promises: exit status 0 unless its comment says `exits N`.
struct DocumentedCommand: Sendable, Hashable, CustomStringConvertible {
  /// The line as written, without its trailing comment.
  var line: String
  /// The comment after `#`, if any (it often says what the line prints).
  var comment: String
  /// Where it was found, e.g. `README.md:28`.
  var origin: String
  /// The exit status the documentation promises.
  var expectedStatus: Int32

  var description: String { "\(origin): \(line)" }

  init(line: String, comment: String = "", origin: String) {
    self.line = line
    self.comment = comment
    self.origin = origin
    // `# exits 69` (or `exit 69`) in the comment documents a non-zero status.
    let pattern = /\bexits? (?:with )?(?:status )?(\d+)\b/
    if let match = comment.firstMatch(of: pattern), let status = Int32(match.1) {
      expectedStatus = status
    } else {
      expectedStatus = 0
    }
  }

  /// The shell languages of fenced blocks whose lines are commands; `text` blocks are screens.
  static let shellLanguages: Set<String> = ["sh", "shell", "bash", "console", "zsh"]

  /// Every command of a Markdown document: each line of a shell code block, and each inline
  /// code span of the prose that runs `gutenberg` (or `swift ...`).
  static func extract(markdown: String, file: String) -> [DocumentedCommand] {
    var commands: [DocumentedCommand] = []
    var fence: (marker: String, isShell: Bool)?
    var pending: (text: String, line: Int)?
    for (index, rawLine) in markdown.components(separatedBy: "\n").enumerated() {
      let number = index + 1
      let trimmed = rawLine.trimmingCharacters(in: .whitespaces)
      if let open = fence {
        if trimmed.hasPrefix(open.marker) && trimmed.allSatisfy({ $0 == open.marker.first }) {
          fence = nil
          continue
        }
        guard open.isShell else { continue }
        var text = trimmed
        if text.hasPrefix("$ ") { text.removeFirst(2) }
        // A line ending in `\` goes on on the next line, as in the shell.
        if let (previous, start) = pending {
          text = previous + " " + text
          pending = nil
          if text.hasSuffix("\\") {
            pending = (String(text.dropLast()), start)
            continue
          }
          commands += command(from: text, origin: "\(file):\(start)")
          continue
        }
        if text.hasSuffix("\\") {
          pending = (String(text.dropLast()), number)
          continue
        }
        commands += command(from: text, origin: "\(file):\(number)")
        continue
      }
      if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
        let marker = String(trimmed.prefix { $0 == trimmed.first })
        let language =
          trimmed.dropFirst(marker.count).trimmingCharacters(in: .whitespaces)
          .split(separator: " ").first.map { String($0).lowercased() } ?? ""
        fence = (marker, shellLanguages.contains(language))
        continue
      }
      for span in inlineSpans(rawLine) where isCommand(span) {
        commands += command(from: span, origin: "\(file):\(number)")
      }
    }
    return commands
  }

  /// The commands of a `--help` text: its inline code spans that run `gutenberg`.
  static func extract(help: String, origin: String) -> [DocumentedCommand] {
    // Help text is wrapped to the terminal: join each paragraph again so a span broken over
    // two lines is found whole (the wrap replaced a space).
    let paragraphs = help.components(separatedBy: "\n\n").map {
      $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: " ")
    }
    return paragraphs.flatMap { paragraph in
      inlineSpans(paragraph).filter(isCommand).flatMap { command(from: $0, origin: origin) }
    }
  }

  /// The text of each `` `code` `` span of a line.
  static func inlineSpans(_ line: String) -> [String] {
    line.matches(of: /`([^`]+)`/).map { String($0.1) }
  }

  /// True when an inline span is a command line, not a name: it runs `gutenberg` with
  /// arguments or through a pipe (`swift run gutenberg` included), or runs `swift`.
  static func isCommand(_ span: String) -> Bool {
    let words = ShellWords.split(span).words
    let program = words.drop { $0.contains("=") && !$0.hasPrefix("-") }
    guard let first = program.first else { return false }
    if first == "swift" { return program.count > 1 }
    if first == "gutenberg" { return program.count > 1 }
    return ShellWords.split(span).segments.dropFirst().contains { $0.first == "gutenberg" }
  }

  /// A command from a line, its `# comment` split off; nothing for a blank or comment line.
  static func command(from text: String, origin: String) -> [DocumentedCommand] {
    let (code, comment) = ShellWords.splitComment(text)
    let line = code.trimmingCharacters(in: .whitespaces)
    guard !line.isEmpty else { return [] }
    return [DocumentedCommand(line: line, comment: comment, origin: origin)]
  }
}
