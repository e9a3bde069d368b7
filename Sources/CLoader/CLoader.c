// The shared dlopen loader of the C shims (see include/CLoader.h).
#include "CLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// Fills the failure when dlopen refuses: `soname` is not there, or not a library.
static void refuse(struct gb_library *library) {
  const char *reason = dlerror();
  if (reason == NULL) reason = "not found";
  // glibc starts its text with the file's name, which the line already gives.
  size_t prefix = strlen(library->soname);
  if (strncmp(reason, library->soname, prefix) == 0 && strncmp(reason + prefix, ": ", 2) == 0)
    reason += prefix + 2;
  snprintf(library->message, sizeof library->message,
           "cannot load %s (%s); install %s (apt-get install %s)", library->soname, reason,
           library->package, library->package);
  library->failure = library->message;
}

const char *gb_library_load(struct gb_library *library) {
  // The acquire pairs with the release below: a caller that sees `done` sees the table, the
  // handle and the failure the first caller wrote.
  if (__atomic_load_n(&library->done, __ATOMIC_ACQUIRE)) return library->failure;
  pthread_mutex_lock(&library->lock);
  if (!library->done) {
    // RTLD_LOCAL: the library's symbols stay out of the global scope (only the shim needs them).
    library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == NULL)
      refuse(library);
    else
      library->resolve(library);
    __atomic_store_n(&library->done, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&library->lock);
  return library->failure;
}

int gb_library_is_loaded(struct gb_library *library) {
  return __atomic_load_n(&library->done, __ATOMIC_ACQUIRE) && library->failure == NULL;
}

void *gb_library_optional_symbol(struct gb_library *library, const char *name) {
  return dlsym(library->handle, name);
}

void *gb_library_symbol(struct gb_library *library, const char *name) {
  // After the first missing function the load has failed: the rest are not looked for.
  if (library->failure != NULL) return NULL;
  void *symbol = dlsym(library->handle, name);
  if (symbol != NULL) return symbol;
  if (library->minimum != NULL)
    snprintf(library->message, sizeof library->message,
             "%s has no %s (%s or later is needed); install a newer %s", library->soname, name,
             library->minimum, library->package);
  else
    snprintf(library->message, sizeof library->message, "%s has no %s; install %s",
             library->soname, name, library->package);
  library->failure = library->message;
  return NULL;
}
