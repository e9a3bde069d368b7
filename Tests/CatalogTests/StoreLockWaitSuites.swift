import Testing

/// The suites whose tests make the store wait for SQLite's write lock, run one test at a time.
///
/// `BusyWait`'s cancellation is process-wide: in the binary, Ctrl-C ends every wait for the
/// lock at once, which is what the user asked for. In the test runner it means a cancelled wait
/// in ``StoreWorkTests`` also ends the waits of ``StoreConcurrencyTests`` running alongside,
/// which then fail with "database is locked". No other suite waits for the lock (each opens its
/// own file, with one connection).
@Suite(.serialized) enum StoreLockWaitSuites {}
