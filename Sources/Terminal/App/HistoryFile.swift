import CEditLine
import Foundation
import Gutendex

/// The browser's line history file (`history` in the data directory), read and written so that
/// what lies at its name cannot hold or redirect the program: a FIFO, a device or a symbolic
/// link there is refused (the history is then not kept), and the file is replaced whole by a
/// new one renamed over it, never written through a link that appears meanwhile.
enum HistoryFile {
  /// Loads `path` into `history`; nil when it was loaded or is absent, else why it was refused.
  static func load(_ path: String, into history: OpaquePointer) -> RegularFile.Refusal? {
    let fd: Int32
    do {
      fd = try RegularFile.open(path, flags: O_RDONLY, followingLinks: false)
    } catch {
      return error.isAbsent ? nil : error
    }
    defer { close(fd) }
    #if os(Linux)
      // libedit reads by name only: the name of the descriptor opened and checked above is
      // that file, whatever is put at `path` meanwhile.
      _ = gb_history_string(history, H_LOAD, "/proc/self/fd/\(fd)")
    #else
      _ = gb_history_string(history, H_LOAD, path)
    #endif
    return nil
  }

  /// Writes `history` to a new file beside `path` (only its owner may read it), then renames
  /// it over `path`; best effort, as libedit's own save was.
  static func save(_ history: OpaquePointer, to path: String) {
    let temporary = path + ".\(getpid()).tmp"
    unlink(temporary)
    guard
      let fd = try? RegularFile.open(
        temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600, followingLinks: false)
    else { return }
    guard let file = fdopen(fd, "w") else {
      close(fd)
      unlink(temporary)
      return
    }
    let saved = gb_history_file(history, H_SAVE_FP, file)
    guard fclose(file) == 0, saved >= 0, rename(temporary, path) == 0 else {
      unlink(temporary)
      return
    }
  }
}
