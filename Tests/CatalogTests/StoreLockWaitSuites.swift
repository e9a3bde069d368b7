import Testing

/// The suites whose tests make the store wait for SQLite's write lock, run one test at a time.
///
/// `BusyWait`'s cancellation covers every wait of one store (in the binary, Ctrl-C ends every
/// wait of the service at once, which is what the user asked for); each test's harness has its
/// own stores, so tests no longer end each other's waits. These suites still run one test at a
/// time, so the lock-timing tests do not compete with each other for the two cores.
@Suite(.serialized) enum StoreLockWaitSuites {}
