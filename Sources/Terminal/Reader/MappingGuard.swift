#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps a file mapping from killing the process when the file shrinks under it.
///
/// Touching a page of a mapping past the file's current end raises SIGBUS. For the ranges
/// registered here, the handler maps a page of zeros over the faulting page and returns, so the
/// read completes (it reads zeros) and the reader notices the shorter file at its next command
/// (``TextBytes/change()``). A fault anywhere else restores the previous handler and returns,
/// so it faults again and ends the process as it always would.
enum MappingGuard {
  /// How many mappings can be guarded at once (a reader holds one book).
  static let capacity = 64
  /// Pairs of (start, end) addresses; (0, 0) is a free slot.
  ///
  /// `nonisolated(unsafe)` is safe: the slots are written only under `lock` (``register``,
  /// ``unregister``) and read by the signal handler, which only compares addresses: a slot
  /// being written while read can only make a fault in that very mapping look unguarded, and
  /// a mapping is registered before any of its pages is touched and unregistered after the last.
  nonisolated(unsafe) static let slots: UnsafeMutablePointer<Int> = {
    let slots = UnsafeMutablePointer<Int>.allocate(capacity: capacity * 2)
    slots.initialize(repeating: 0, count: capacity * 2)
    return slots
  }()
  /// The handler SIGBUS had before ours, put back for a fault outside the guarded ranges.
  ///
  ///
  /// `nonisolated(unsafe)` is safe: written once, under `lock`, as the handler is installed
  /// (`sigaction` fills it before our handler can run); `installed` is only used under `lock`.
  nonisolated(unsafe) static var previous = sigaction()
  nonisolated(unsafe) static var installed = false
  /// A pthread mutex allocated once. Not `Mutex` in a `static let`: the release build of
  /// `gutenberg` (Swift 6.3.1) trapped at the first mapping with "Call to unlock Mutex on a
  /// thread which hasn't acquired the lock", which killed `read` and `library search`.
  ///
  /// `nonisolated(unsafe)` is safe: the pointer is written once (the lazy initialiser runs
  /// once) and the mutex it points to is only used through `pthread_mutex_lock`/`unlock`.
  nonisolated(unsafe) static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
    return lock
  }()

  /// Runs `body` holding ``lock``.
  private static func locked<Result>(_ body: () -> Result) -> Result {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return body()
  }

  /// Guards `count` bytes at `base` until ``unregister(_:)``; false when every slot is taken.
  @discardableResult
  static func register(_ base: UnsafeRawPointer, count: Int) -> Bool {
    locked {
      if !installed { install() }
      let start = Int(bitPattern: base)
      for slot in 0..<capacity where slots[2 * slot] == 0 {
        slots[2 * slot + 1] = start + count
        slots[2 * slot] = start
        return true
      }
      return false
    }
  }

  /// Stops guarding the mapping at `base` (before it is unmapped).
  static func unregister(_ base: UnsafeRawPointer) {
    locked {
      let start = Int(bitPattern: base)
      for slot in 0..<capacity where slots[2 * slot] == start {
        slots[2 * slot] = 0
        slots[2 * slot + 1] = 0
      }
    }
  }

  private static func install() {
    var action = sigaction()
    #if os(Linux)
      action.__sigaction_handler.sa_sigaction = onBusError
    #else
      action.__sigaction_u.__sa_sigaction = onBusError
    #endif
    action.sa_flags = SA_SIGINFO | SA_ONSTACK
    sigemptyset(&action.sa_mask)
    sigaction(SIGBUS, &action, &previous)
    installed = true
  }
}

/// The SIGBUS handler: only async-signal-safe work (comparisons, `mmap`, `sigaction`).
private func onBusError(
  _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
  guard let info else { return }
  #if os(Linux)
    let address = Int(bitPattern: info.pointee._sifields._sigfault.si_addr)
  #else
    let address = Int(bitPattern: info.pointee.si_addr)
  #endif
  let slots = MappingGuard.slots
  for slot in 0..<MappingGuard.capacity {
    let start = slots[2 * slot]
    guard start != 0, address >= start, address < slots[2 * slot + 1] else { continue }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let pageStart = address & ~(page - 1)
    let zeros = mmap(
      UnsafeMutableRawPointer(bitPattern: pageStart), page, PROT_READ,
      MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if zeros != MAP_FAILED { return }
    break
  }
  // Not ours (or the page could not be replaced): fault again under the previous handler.
  sigaction(SIGBUS, &MappingGuard.previous, nil)
}
