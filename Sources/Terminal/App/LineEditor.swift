import CEditLine
import Foundation

/// The line editor of an interactive terminal (libedit, the BSD editor): emacs keys, ↑/↓
/// through a history kept in the data directory, Ctrl-R to search it, Tab to complete.
///
/// libedit blocks in `el_gets` on a queue of its own. Output that arrives meanwhile (another
/// process's favourite, the background sync's line) goes through ``write(_:to:)``: it erases the
/// prompt's rows, writes, and has libedit draw the prompt and the typed text again, so the
/// screen always shows what Enter will run.
///
/// Safety of `@unchecked Sendable`: every mutable property, and every call into libedit, is
/// made with `lock` held. The reading queue holds it for the whole of `el_gets` except while it
/// waits for a key (``readCharacter(into:)`` releases it then, when libedit's state is at
/// rest), which is exactly when a writer may take it to redraw.
///
/// Between lines, while a command runs, the terminal is held out of canonical mode with echo off
/// (signals and output processing as they were): keys typed ahead stay bytes in the queue, so
/// Ctrl-D typed during a search still ends the session at the next prompt (the line
/// discipline's end-of-file would reach libedit as a NUL byte) and typed text is drawn once, by
/// libedit at the prompt, not echoed by the terminal among the command's output. ``stop()``
/// gives the terminal its own mode back.
package final class LineEditor: @unchecked Sendable {
  /// The one editor of the process: standard input is one terminal.
  package static let shared = LineEditor()

  private let lock = NSRecursiveLock()
  private let queue = DispatchQueue(label: "gutenberg.line-editor")
  /// Written to end a read early (``stop()``); its read end is polled with standard input.
  private let wake: (read: Int32, write: Int32)
  /// Written by ``interrupt()`` (Ctrl-C at the prompt): the key source then gives libedit the
  /// Ctrl-C character, bound to clearing the line.
  private let interrupts: (read: Int32, write: Int32)
  private var editor: OpaquePointer?
  private var history: OpaquePointer?
  private var historyFile: String?
  /// The prompt libedit shows, as a C string it may read at any time.
  private var prompt: UnsafeMutablePointer<CChar>?
  private var promptWidth = 0
  /// True while `el_gets` runs: writes must redraw the prompt.
  private var editing = false
  private var stopped = false
  private var completer: Completion?
  /// Bytes given to libedit before the keyboard's: what was typed before the line began.
  private var typedAhead: [UInt8] = []
  /// Window changes, for libedit's idea of the width (kept for the life of the process).
  private var windowChanges: SignalWatch?
  /// The terminal's mode before the editor first touched it: the one ``stop()`` gives back.
  private var ownMode: termios?
  /// Whether the terminal is held in the between-lines mode (``holdKeys()``).
  private var holding = false
  /// libedit's mode while it edits, as read at its first key: given back after a stop and
  /// `fg`, when the shell has put the terminal in its own mode meanwhile.
  private var editMode: termios?
  /// Continues after Ctrl-Z (kept for the life of the process).
  private var continues: SignalWatch?

  private init() {
    wake = Self.makePipe()
    interrupts = Self.makePipe()
  }

  /// A pipe whose read end does not block (both ends -1 when none could be made).
  private static func makePipe() -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return (-1, -1) }
    _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
    _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
    return (ends[0], ends[1])
  }

  /// Whether standard input and output are both terminals and libedit can be loaded: only then
  /// is the editor used (without libedit, lines are read plainly, with no editing).
  package static var isAvailable: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && loadFailure == nil
  }

  /// Why libedit could not be opened, nil once it is. It is not linked: only a prompt on a
  /// terminal opens it, so a command or a piped session never maps it.
  package static let loadFailure: String? = gb_editline_load().map { String(cString: $0) }

  /// Keeps history in `file` (read now, written after every line); nil: none kept.
  package func useHistory(file: URL?) {
    lock.lock()
    defer { lock.unlock() }
    setUp()
    historyFile = file?.path
    guard let path = historyFile, let history else { return }
    if let refusal = HistoryFile.load(path, into: history) {
      // A link, a FIFO, a device: neither read (it could hang) nor written (through a link).
      historyFile = nil
      FileHandle.standardError.write(
        Data(
          "note: \(Sanitizer.sanitize(refusal.description)); the line history is not kept\n"
            .utf8))
    }
  }

  /// What Tab completes from, for the lines read from now on.
  package func complete(from completion: Completion) {
    lock.lock()
    defer { lock.unlock() }
    completer = completion
  }

  /// Reads one line after `prompt`; nil at the end of input (Ctrl-D on an empty line) or after
  /// ``stop()``. Lines that are not blank are added to the history when `remember` is set.
  /// With `typed`, the line begins with it, as though it had been typed at the prompt.
  package func readLine(prompt text: String, remember: Bool, typed: String = "") async -> String? {
    await withCheckedContinuation { continuation in
      queue.async {
        continuation.resume(
          returning: self.edit(prompt: text, remember: remember, typed: typed))
      }
    }
  }

  private func edit(prompt text: String, remember: Bool, typed: String) -> String? {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return nil }
    setUp()
    guard let editor else { return nil }
    typedAhead = Array(typed.utf8)
    free(prompt)
    prompt = strdup(text)
    promptWidth = DisplayWidth.cells(text)
    editing = true
    var count: Int32 = 0
    // libedit takes the terminal over for the line (and gives it back cooked).
    holding = false
    let raw = gb_el_gets(editor, &count)
    editing = false
    // libedit gave the terminal its cooked mode back; the keys typed from now until the next
    // prompt are kept as keys.
    if !stopped { holdKeys() }
    guard let raw, count > 0 else {
      // Ctrl-D: end the prompt's line, as a shell does, so what follows starts on its own.
      FileHandle.standardOutput.write(Data("\n".utf8))
      return nil
    }
    var line = String(cString: raw)
    while line.last == "\n" || line.last == "\r" { line.removeLast() }
    if remember, !line.allSatisfy(\.isWhitespace), let history {
      _ = gb_history_string(history, H_ENTER, line)
      if let historyFile { HistoryFile.save(history, to: historyFile) }
    }
    return line
  }

  /// Writes `text` to `descriptor`; while a line is being edited, the prompt's rows are erased
  /// first and drawn again after, with the text typed so far and the cursor where it was.
  package func write(_ text: String, to descriptor: Int32) {
    lock.lock()
    defer { lock.unlock() }
    guard editing, let editor else { return Self.writeAll(text, to: descriptor) }
    var erase = "\r"
    let columns = max(TerminalWidth.current(), 1)
    if let info = gb_el_line(editor)?.pointee, let buffer = info.buffer, let cursor = info.cursor {
      let typed = String(
        decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
      let rows = (promptWidth + DisplayWidth.cells(typed)) / columns
      if rows > 0 { erase += "\u{1B}[\(rows)A" }
    }
    // The terminal is in libedit's mode, which may not turn "\n" into "\r\n".
    let body = text.replacingOccurrences(of: "\n", with: "\r\n")
    Self.writeAll(erase + "\u{1B}[J" + body, to: descriptor)
    if !text.hasSuffix("\n") { Self.writeAll("\r\n", to: descriptor) }
    gb_el_refresh(editor)
  }

  /// The window changed size: libedit re-reads it for the next redraw.
  package func resized() {
    lock.lock()
    defer { lock.unlock() }
    if let editor { gb_el_resize(editor) }
  }

  /// Ctrl-C at the prompt, as in a shell: the line typed so far is dropped (`^C` is left on
  /// its row) and a new, empty prompt is shown. Nothing happens when no line is being read.
  package func interrupt() {
    lock.lock()
    let reading = editing
    lock.unlock()
    guard reading else { return }
    var byte: UInt8 = 3
    _ = Foundation.write(interrupts.write, &byte, 1)
  }

  /// Ends a read in progress (it returns nil) and restores the terminal; later reads return nil.
  package func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
    var byte: UInt8 = 1
    _ = Foundation.write(wake.write, &byte, 1)
    // Wait for the read to end, so the terminal is back in its own mode before the exit.
    queue.sync {}
    lock.lock()
    defer { lock.unlock() }
    if holding, var mode = ownMode {
      _ = tcsetattr(STDIN_FILENO, TCSANOW, &mode)
      holding = false
    }
  }

  /// Takes the terminal out of canonical mode with echo off until the next prompt, from the
  /// mode it had (signals, output processing and the rest unchanged). libedit does not take
  /// this for the terminal's own mode: it believes only changes made in cooked mode. TCSANOW:
  /// keys already typed stay in the queue.
  private func holdKeys() {
    guard var mode = ownMode else { return }
    mode.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &mode.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    if tcsetattr(STDIN_FILENO, TCSANOW, &mode) == 0 { holding = true }
  }

  private func setUp() {
    guard editor == nil else { return }
    // libedit reads and draws characters through the C library's multibyte functions: in the
    // C locale (a process's locale until it sets one) every non-ASCII key is dropped.
    TextLocale.useUTF8()
    var mode = termios()
    if tcgetattr(STDIN_FILENO, &mode) == 0 {
      ownMode = mode
      // SIGTERM, SIGHUP or SIGQUIT at the prompt gives the terminal this mode back.
      _ = gb_terminal_guard(&mode)
    }
    // Streams of its own over the standard descriptors (C's `stdin` globals are not
    // concurrency-safe to name from Swift); libedit flushes its output after each redraw.
    guard let input = fdopen(STDIN_FILENO, "r"), let output = fdopen(STDOUT_FILENO, "w"),
      let errors = fdopen(STDERR_FILENO, "w"),
      let made = gb_el_init("gutenberg", input, output, errors)
    else { return }
    editor = made
    _ = gb_el_set_prompt(made, { _ in LineEditor.shared.prompt })
    _ = gb_el_set_string(made, EL_EDITOR, "emacs")
    // The app handles Ctrl-C and window changes itself (``InterruptHandler``, ``resized()``).
    _ = gb_el_set_int(made, EL_SIGNAL, 0)
    _ = gb_el_set_getc(made, { _, character in LineEditor.shared.readCharacter(into: character) })
    let list = gb_history_init()
    history = list
    if let list {
      _ = gb_history_int(list, H_SETSIZE, 1000)
      _ = gb_history_int(list, H_SETUNIQUE, 1)
      _ = gb_el_set_history(made, list)
    }
    _ = gb_el_add_function(
      made, "gb-complete", "complete the word",
      { editor, _ in LineEditor.shared.completeWord(editor) })
    _ = gb_el_bind(made, "^I", "gb-complete")
    _ = gb_el_add_function(
      made, "gb-interrupt", "drop the line, as Ctrl-C in a shell",
      { editor, _ in LineEditor.shared.dropLine(editor) })
    _ = gb_el_bind(made, "^C", "gb-interrupt")
    _ = gb_el_bind(made, "^R", "em-inc-search-prev")
    // A handler of its own for SIGWINCH (libedit's are off): the next redraw wraps the typed
    // line at the new width. Dispatch keeps the default disposition's effect (none) apart.
    windowChanges = SignalWatch([SIGWINCH]) { LineEditor.shared.resized() }
    // Ctrl-Z stops the process (libedit's own handling is off); the shell that takes the
    // terminal meanwhile leaves it in its cooked mode: after `fg`, the mode is set again and
    // the prompt drawn again with the typed text.
    continues = SignalWatch([SIGCONT]) { LineEditor.shared.continued() }
  }

  /// The process was continued (`fg` after Ctrl-Z): the terminal's mode is set again, the
  /// editor's while a line is read (with the prompt and the typed text drawn on a fresh row),
  /// the between-lines one otherwise.
  private func continued() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    if editing, let editor, var mode = editMode {
      _ = tcsetattr(STDIN_FILENO, TCSANOW, &mode)
      Self.writeAll("\r\u{1B}[J", to: STDOUT_FILENO)
      gb_el_refresh(editor)
    } else if holding {
      holdKeys()
    }
  }

  /// libedit's key source: one character of standard input, UTF-8 decoded; the lock is free
  /// while it waits. Returns 1 with a character, 0 at the end of input (or ``stop()``).
  private func readCharacter(into character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
    if editMode == nil {
      var mode = termios()
      if tcgetattr(STDIN_FILENO, &mode) == 0 { editMode = mode }
    }
    lock.unlock()
    defer { lock.lock() }
    guard let lead = nextByte() else { return 0 }
    var scalar = UInt32(lead)
    let extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
    if extra > 0 {
      scalar &= lead >= 0xF0 ? 0x07 : lead >= 0xE0 ? 0x0F : 0x1F
      for _ in 0..<extra {
        guard let next = nextByte() else { return 0 }
        scalar = scalar << 6 | UInt32(next & 0x3F)
      }
    }
    character?.pointee = wchar_t(bitPattern: Unicode.Scalar(scalar).map { $0.value } ?? 0xFFFD)
    return 1
  }

  /// The next byte of standard input; nil at its end or once the wake pipe is written.
  private func nextByte() -> UInt8? {
    lock.lock()
    if !typedAhead.isEmpty {
      let byte = typedAhead.removeFirst()
      lock.unlock()
      return byte
    }
    lock.unlock()
    while true {
      var fds = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        pollfd(fd: interrupts.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 3, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if fds[1].revents != 0 { return nil }
      if fds[2].revents != 0 {
        var drained = [UInt8](repeating: 0, count: 16)
        while Foundation.read(interrupts.read, &drained, drained.count) > 0 {}
        return 3
      }
      var byte: UInt8 = 0
      let count = Foundation.read(STDIN_FILENO, &byte, 1)
      if count == 1 { return byte }
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      return nil
    }
  }

  /// Tab: completes the word before the cursor, or lists the choices when several remain. A
  /// single choice replaces the word as typed (`deu` → `deutsch`, `Fran` → `français`,
  /// `eng` → `en`), so case, accents and codes need not match it letter for letter.
  private func completeWord(_ editor: OpaquePointer?) -> UInt8 {
    guard let editor, let completer, let info = gb_el_line(editor)?.pointee,
      let buffer = info.buffer,
      let cursor = info.cursor
    else { return UInt8(CC_ERROR) }
    let before = String(
      decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
    let word =
      before.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    let choices = completer.candidates(completing: before)
    guard let first = choices.first else { return UInt8(CC_ERROR) }
    if choices.count == 1 {
      // libedit counts in characters of its wide buffer: one per Unicode scalar.
      gb_el_deletestr(editor, Int32(word.unicodeScalars.count))
      _ = gb_el_insertstr(editor, first + " ")
      return UInt8(CC_REFRESH)
    }
    var common = first
    for choice in choices.dropFirst() {
      common = String(zip(common, choice).prefix { $0 == $1 }.map(\.0))
    }
    if common.count > word.count, common.hasPrefix(word) {
      _ = gb_el_insertstr(editor, String(common.dropFirst(word.count)))
      return UInt8(CC_REFRESH)
    }
    let listing = DisplayWidth.truncate(
      choices.joined(separator: "  "), toCells: TerminalWidth.current() * 3)
    Self.writeAll("\r\n" + listing + "\r\n", to: STDOUT_FILENO)
    return UInt8(CC_REDISPLAY)
  }

  /// Ctrl-C while a line is typed: `^C` stays on the row, the line is dropped (not kept in
  /// the history), and an empty prompt is drawn on the next row.
  private func dropLine(_ editor: OpaquePointer?) -> UInt8 {
    guard let editor, let info = gb_el_line(editor)?.pointee, let buffer = info.buffer,
      let cursor = info.cursor, let end = info.lastchar
    else { return UInt8(CC_ERROR) }
    let after = String(
      decoding: UnsafeRawBufferPointer(start: cursor, count: end - cursor), as: UTF8.self)
    let all = String(
      decoding: UnsafeRawBufferPointer(start: buffer, count: end - buffer), as: UTF8.self)
    _ = gb_el_cursor(editor, Int32(after.unicodeScalars.count))
    gb_el_deletestr(editor, Int32(all.unicodeScalars.count))
    Self.writeAll("^C\r\n", to: STDOUT_FILENO)
    return UInt8(CC_REDISPLAY)
  }

  private static func writeAll(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }
}
