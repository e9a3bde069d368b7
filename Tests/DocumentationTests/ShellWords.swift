/// Just enough of the POSIX shell's word splitting to read a documented command line: quotes,
/// backslashes, pipes, `>` redirections and comments. The line itself is run by bash; this
/// only finds which programs it runs with which arguments, to check what they printed.
struct ShellWords: Sendable, Equatable {
  /// A redirection of a command's output to a file.
  struct Redirection: Sendable, Equatable {
    /// The index of the command in ``segments``.
    var segment: Int
    /// The redirected descriptor: 1 for `>`, 2 for `2>`.
    var descriptor: Int
    /// The file, as written (`~/` not expanded).
    var path: String
  }

  /// The commands of the line (split at `|`, `;`, `&&`, `||`), each as its words.
  var segments: [[String]] = [[]]
  /// Output redirected to files.
  var redirections: [Redirection] = []

  /// Every word of every command, in order.
  var words: [String] { segments.flatMap { $0 } }

  /// The line before an unquoted `#` that starts a word, and the comment after it.
  static func splitComment(_ text: String) -> (code: String, comment: String) {
    var quote: Character?
    var previous: Character = " "
    var escaped = false
    for index in text.indices {
      let character = text[index]
      defer { previous = character }
      if escaped {
        escaped = false
        continue
      }
      if character == "\\" && quote != "'" {
        escaped = true
        continue
      }
      if let open = quote {
        if character == open { quote = nil }
        continue
      }
      if character == "'" || character == "\"" {
        quote = character
      } else if character == "#" && previous.isWhitespace {
        let comment = text[text.index(after: index)...].trimmingCharacters(in: .whitespaces)
        return (String(text[..<index]), comment)
      }
    }
    return (text, "")
  }

  /// Splits a line (without its comment) into commands and words.
  static func split(_ text: String) -> ShellWords {
    var result = ShellWords()
    var word = ""
    var inWord = false
    var pendingRedirect: Int?
    var characters = Array(text)[...]

    func finishWord() {
      guard inWord else { return }
      if let descriptor = pendingRedirect {
        result.redirections.append(
          Redirection(segment: result.segments.count - 1, descriptor: descriptor, path: word))
        pendingRedirect = nil
      } else {
        result.segments[result.segments.count - 1].append(word)
      }
      word = ""
      inWord = false
    }

    func newSegment() {
      finishWord()
      result.segments.append([])
    }

    while let character = characters.popFirst() {
      switch character {
      case " ", "\t":
        finishWord()
      case "\\":
        if let next = characters.popFirst() { word.append(next) }
        inWord = true
      case "'":
        while let next = characters.popFirst(), next != "'" { word.append(next) }
        inWord = true
      case "\"":
        while let next = characters.popFirst(), next != "\"" {
          if next == "\\", let escaped = characters.first, "\"\\$`".contains(escaped) {
            word.append(characters.removeFirst())
          } else {
            word.append(next)
          }
        }
        inWord = true
      case "|":
        if characters.first == "|" { characters.removeFirst() }
        newSegment()
      case ";":
        newSegment()
      case "&":
        if characters.first == "&" {
          characters.removeFirst()
          newSegment()
        } else {
          finishWord()
        }
      case ">":
        // `2>` names the descriptor in the word just before; `>>` appends; `>&2` duplicates.
        var descriptor = 1
        if inWord, let number = Int(word), pendingRedirect == nil {
          descriptor = number
          word = ""
          inWord = false
        } else {
          finishWord()
        }
        if characters.first == ">" { characters.removeFirst() }
        if characters.first == "&" {
          characters.removeFirst()
          while let next = characters.first, next.isNumber { characters.removeFirst() }
        } else {
          pendingRedirect = descriptor
        }
      default:
        word.append(character)
        inWord = true
      }
    }
    finishWord()
    result.segments.removeAll { $0.isEmpty }
    if result.segments.isEmpty { result.segments = [[]] }
    return result
  }
}
