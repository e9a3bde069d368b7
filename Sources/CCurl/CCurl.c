// libcurl opened on the first request (see include/CCurl.h for why).
// curl.h turns curl_easy_setopt into a type-checking macro under GCC and clang, which would
// expand the table's calls below: they go through plain function pointers instead.
#define CURL_DISABLE_TYPECHECK
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if defined(__APPLE__)
#define GB_LIBCURL "libcurl.4.dylib"
#else
#define GB_LIBCURL "libcurl.so.4"
#endif

// Every libcurl function the package calls: name, return type, parameters.
#define GB_CURL_FUNCTIONS(X)                                                                     \
  X(curl_global_init, CURLcode, (long))                                                          \
  X(curl_easy_init, CURL *, (void))                                                              \
  X(curl_easy_cleanup, void, (CURL *))                                                           \
  X(curl_easy_pause, CURLcode, (CURL *, int))                                                    \
  X(curl_easy_strerror, const char *, (CURLcode))                                                \
  X(curl_easy_setopt, CURLcode, (CURL *, CURLoption, ...))                                       \
  X(curl_easy_getinfo, CURLcode, (CURL *, CURLINFO, ...))                                        \
  X(curl_multi_init, CURLM *, (void))                                                            \
  X(curl_multi_setopt, CURLMcode, (CURLM *, CURLMoption, ...))                                   \
  X(curl_multi_add_handle, CURLMcode, (CURLM *, CURL *))                                         \
  X(curl_multi_remove_handle, CURLMcode, (CURLM *, CURL *))                                      \
  X(curl_multi_perform, CURLMcode, (CURLM *, int *))                                             \
  X(curl_multi_info_read, CURLMsg *, (CURLM *, int *))                                           \
  X(curl_multi_poll, CURLMcode, (CURLM *, struct curl_waitfd *, unsigned int, int, int *))       \
  X(curl_multi_wakeup, CURLMcode, (CURLM *))                                                     \
  X(curl_slist_append, struct curl_slist *, (struct curl_slist *, const char *))                 \
  X(curl_slist_free_all, void, (struct curl_slist *))

// The table, written once under `once` and only read afterwards: pthread_once orders the
// writes before any caller that saw `gb_curl_load` return NULL.
#define GB_FIELD(name, result, parameters) result(*name) parameters;
static struct {
  GB_CURL_FUNCTIONS(GB_FIELD)
} table;
#undef GB_FIELD

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = NULL;
static char message[512];
static int loaded = 0;

static void load(void) {
  // RTLD_LOCAL: libcurl's symbols stay out of the global scope (nothing else needs them).
  void *library = dlopen(GB_LIBCURL, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    if (reason == NULL) reason = "not found";
    // glibc starts its text with the file's name, which the line already gives.
    size_t prefix = strlen(GB_LIBCURL ": ");
    if (strncmp(reason, GB_LIBCURL ": ", prefix) == 0) reason += prefix;
    snprintf(message, sizeof message,
             "cannot load " GB_LIBCURL " (%s); install libcurl4 (apt-get install libcurl4)",
             reason);
    failure = message;
    return;
  }
#define GB_RESOLVE(name, result, parameters)                                                   \
  table.name = (result(*) parameters)dlsym(library, #name);                                    \
  if (table.name == NULL) {                                                                    \
    snprintf(message, sizeof message,                                                          \
             GB_LIBCURL " has no " #name " (libcurl 7.85 or later is needed); install a newer " \
                        "libcurl4");                                                           \
    failure = message;                                                                         \
    return;                                                                                    \
  }
  GB_CURL_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
  loaded = 1;
}

const char *gb_curl_load(void) {
  pthread_once(&once, load);
  return failure;
}

int gb_curl_is_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

CURLcode gb_curl_global_init(long flags) { return table.curl_global_init(flags); }
CURL *gb_curl_easy_init(void) { return table.curl_easy_init(); }
void gb_curl_easy_cleanup(CURL *handle) { table.curl_easy_cleanup(handle); }
CURLcode gb_curl_easy_pause(CURL *handle, int bitmask) {
  return table.curl_easy_pause(handle, bitmask);
}
const char *gb_curl_easy_strerror(CURLcode code) { return table.curl_easy_strerror(code); }
CURLM *gb_curl_multi_init(void) { return table.curl_multi_init(); }
CURLMcode gb_curl_multi_add_handle(CURLM *multi, CURL *handle) {
  return table.curl_multi_add_handle(multi, handle);
}
CURLMcode gb_curl_multi_remove_handle(CURLM *multi, CURL *handle) {
  return table.curl_multi_remove_handle(multi, handle);
}
CURLMcode gb_curl_multi_perform(CURLM *multi, int *running) {
  return table.curl_multi_perform(multi, running);
}
CURLMsg *gb_curl_multi_info_read(CURLM *multi, int *queued) {
  return table.curl_multi_info_read(multi, queued);
}
CURLMcode gb_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count,
                             int timeoutMilliseconds, int *ready) {
  return table.curl_multi_poll(multi, extra, count, timeoutMilliseconds, ready);
}
CURLMcode gb_curl_multi_wakeup(CURLM *multi) { return table.curl_multi_wakeup(multi); }
struct curl_slist *gb_curl_slist_append(struct curl_slist *list, const char *line) {
  return table.curl_slist_append(list, line);
}
void gb_curl_slist_free_all(struct curl_slist *list) { table.curl_slist_free_all(list); }

// The variadic three, each called with the one argument type its option takes.
CURLcode gb_easy_setopt_long(CURL *handle, CURLoption option, long value) {
  return table.curl_easy_setopt(handle, option, value);
}
CURLcode gb_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return table.curl_easy_setopt(handle, option, value);
}
CURLcode gb_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return table.curl_easy_setopt(handle, option, value);
}
CURLcode gb_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return table.curl_easy_setopt(handle, option, value);
}
CURLcode gb_easy_setopt_callback(CURL *handle, CURLoption option, gb_data_callback callback) {
  return table.curl_easy_setopt(handle, option, callback);
}
CURLcode gb_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return table.curl_easy_getinfo(handle, info, value);
}
CURLcode gb_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
  return table.curl_easy_getinfo(handle, info, value);
}
CURLMcode gb_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
  return table.curl_multi_setopt(handle, option, value);
}
