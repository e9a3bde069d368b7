#if canImport(Glibc)
  import Glibc
#endif

/// Gives the pages of freed memory back to the system after a phase that allocated much and
/// freed it all (an index written), so what the process holds next is what it uses.
///
/// glibc keeps freed blocks in its arenas for reuse; after writing an index (sorters, string
/// tables, spill buffers, several threads' arenas) that is megabytes the process no longer
/// uses, more or less of it by how the allocations happened to fall. The pages the next phase
/// touches (the new index mapped and checked) then came on top of them: a refresh's peak
/// varied by some 14 MiB from run to run, and more often for a larger feed.
enum FreedMemory {
  /// glibc's `malloc_trim`, found once in the process's own libraries (Glibc's module does
  /// not declare it: it lives in `malloc.h`); nil elsewhere.
  private static let trim: (@convention(c) (Int) -> Int32)? = {
    #if canImport(Glibc)
      guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim")
      else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    #else
      return nil
    #endif
  }()

  /// Returns freed pages to the system; does nothing where the C library cannot.
  static func release() {
    _ = trim?(0)
  }
}
