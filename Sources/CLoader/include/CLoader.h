// The loader the C shims (CCurl, CEditLine, CArchive, CBzip2, CLibXML2) share: each library is
// opened with dlopen on first use, not linked, so a command that does not use it never maps it
// nor the libraries it pulls in. Here once: opening it, the thread-safe first use, resolving its
// functions, and the one-line failure that names the apt package. Only C shims include this.
#ifndef GB_CLOADER_H
#define GB_CLOADER_H

#include <pthread.h>

/// A library opened on first use: what to open, what a failure names, and how to resolve it.
struct gb_library {
  /// The file dlopen opens: the soname of the ABI the shim was built against.
  const char *soname;
  /// The apt package that installs it, named by the failure message.
  const char *package;
  /// NULL, or the oldest release that has every function ("libcurl 7.85"): a missing function
  /// then says that release is needed and asks for a newer package.
  const char *minimum;
  /// The shim's resolver, run once after the library opened: it fills the shim's table with
  /// `gb_library_symbol` (a missing one is recorded there, so it need not check).
  void (*resolve)(struct gb_library *library);

  // Written under `lock` by the first `gb_library_load` only; read after `done` is seen set.
  pthread_mutex_t lock;
  int done;
  void *handle;
  const char *failure;
  char message[512];
};

/// A `struct gb_library` initializer, for a static in the shim.
#define GB_LIBRARY(soname_, package_, minimum_, resolve_)                                         \
  {                                                                                              \
    .soname = (soname_), .package = (package_), .minimum = (minimum_), .resolve = (resolve_),     \
    .lock = PTHREAD_MUTEX_INITIALIZER                                                            \
  }

/// Opens the library and runs its resolver, once per process whichever thread comes first;
/// NULL when every function is there, else one line saying what is missing and which package
/// installs it. Cheap after the first call.
const char *gb_library_load(struct gb_library *library);

/// True once `gb_library_load` has succeeded (never loads anything itself).
int gb_library_is_loaded(struct gb_library *library);

/// For resolvers: the function `name`, or NULL, recording the first one missing as the failure.
void *gb_library_symbol(struct gb_library *library, const char *name);

/// For resolvers: the symbol `name`, or NULL when the library has none; no failure recorded.
void *gb_library_optional_symbol(struct gb_library *library, const char *name);

#endif
