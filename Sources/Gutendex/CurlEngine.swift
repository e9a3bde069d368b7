internal import CCurl
import Foundation
import Synchronization

/// One thread driving every transfer of the process through a libcurl multi handle, so
/// connections (and TLS sessions) are kept and reused from one request to the next.
///
/// Made on the first request only: a run that never touches the network (the local catalogue,
/// the cache) never loads libcurl, starts the thread, nor initialises libcurl and OpenSSL. Other threads only
/// queue work and call `curl_multi_wakeup`, the one multi-handle call libcurl allows from any
/// thread; everything else happens on the engine's thread.
final class CurlEngine: Sendable {
  /// The process's engine; nil when libcurl cannot be loaded (``loadFailure``) or cannot make a
  /// multi handle (out of memory), which every request then reports as an error instead of
  /// crashing.
  static let shared = CurlEngine()

  /// Why libcurl could not be opened (one line naming the package to install), nil once it is.
  /// libcurl is not linked: it is opened here, on the first request, so a command that makes
  /// none never maps it nor the ~29 libraries it depends on.
  static let loadFailure: String? = gb_curl_load().map { String(cString: $0) }

  private let multi: MultiHandle
  private let inbox = Mutex<[CurlTransfer]>([])

  private init?() {
    guard Self.loadFailure == nil else { return nil }
    gb_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    guard let pointer = gb_curl_multi_init() else { return nil }
    // libcurl's default keeps 4 idle connections per transfer in progress and closes the oldest
    // beyond that, so a process talking to many hosts at once (the test runner: a loopback
    // server per test, in parallel) loses the connection one client is about to reuse. The
    // binary talks to two or three hosts: a larger cache costs it nothing.
    _ = gb_multi_setopt_long(pointer, CURLMOPT_MAXCONNECTS, 128)
    multi = MultiHandle(pointer)
    let thread = Thread { [self] in run() }
    thread.name = "gutenberg.curl"
    thread.stackSize = 1 << 20
    thread.start()
  }

  /// Starts `transfer` on the engine's thread.
  func add(_ transfer: CurlTransfer) {
    inbox.withLock { $0.append(transfer) }
    wake()
  }

  /// Wakes the engine's thread to look at its transfers again.
  func wake() {
    gb_curl_multi_wakeup(multi.pointer)
  }

  /// The loop of the engine's thread: it never ends (the process's transfers all run here).
  private func run() {
    let pointer = multi.pointer
    var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    func remove(_ easy: UnsafeMutableRawPointer) -> CurlTransfer? {
      gb_curl_multi_remove_handle(pointer, easy)
      return active.removeValue(forKey: easy)
    }
    while true {
      for transfer in inbox.withLock({ queue in
        defer { queue = [] }
        return queue
      }) {
        guard !transfer.isCancelled else { continue }
        if gb_curl_multi_add_handle(pointer, transfer.handle.easy) == CURLM_OK {
          active[transfer.handle.easy] = transfer
        } else {
          transfer.finish(
            GutendexError?.some(.invalidRequest(reason: "libcurl refused the transfer")))
        }
      }
      for (easy, transfer) in active where transfer.isCancelled {
        _ = remove(easy)
      }
      for (easy, transfer) in active {
        Self.serve(easy, transfer)
      }
      var running: Int32 = 0
      gb_curl_multi_perform(pointer, &running)
      var queued: Int32 = 0
      while let message = gb_curl_multi_info_read(pointer, &queued) {
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else {
          continue
        }
        let code = message.pointee.data.result
        // A proxy's answer to CONNECT (407 asks for a login), which libcurl reports only as
        // a failed receive.
        var connectStatus = 0
        _ = gb_easy_getinfo_long(easy, CURLINFO_HTTP_CONNECTCODE, &connectStatus)
        remove(easy)?.finish(code: code, connectStatus: connectStatus)
      }
      let now = ContinuousClock.now
      for (easy, transfer) in active {
        Self.serve(easy, transfer)
        if let failure = transfer.overdue(at: now) {
          remove(easy)?.finish(GutendexError?.some(failure))
        }
      }
      var ready: Int32 = 0
      // Woken early by new work, a reader taking a batch, or a cancel; the timeout also bounds
      // how late a stalled transfer is noticed.
      gb_curl_multi_poll(pointer, nil, 0, active.isEmpty ? 1_000 : 50, &ready)
    }
  }

  /// Hands the reader what has come, and resumes a paused transfer whose batch was taken.
  private static func serve(_ easy: UnsafeMutableRawPointer, _ transfer: CurlTransfer) {
    if transfer.afterRound() {
      // May call the write callback at once with the bytes libcurl held back.
      gb_curl_easy_pause(easy, gb_pause_cont())
    }
  }

  /// The multi handle. `@unchecked Sendable`: only `curl_multi_wakeup` is called on it from
  /// other threads, which libcurl documents as safe; all else runs on the engine's thread.
  private final class MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    init(_ pointer: UnsafeMutableRawPointer) {
      self.pointer = pointer
    }
  }
}
