// libcurl opened on the first request (see include/CCurl.h for why).
// curl.h turns curl_easy_setopt into a type-checking macro under GCC and clang, which would
// expand the table's calls below: they go through plain function pointers instead.
#define CURL_DISABLE_TYPECHECK
#include "CCurl.h"

#include "CLoader.h"

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
  X(curl_easy_perform, CURLcode, (CURL *))                                                       \
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

// The table, written once by the first `gb_curl_load` and only read afterwards (the shared
// loader orders the writes before any caller that saw it return NULL).
#define GB_FIELD(name, result, parameters) result(*name) parameters;
static struct {
  GB_CURL_FUNCTIONS(GB_FIELD)
} table;
#undef GB_FIELD

static void resolve(struct gb_library *library) {
#define GB_RESOLVE(name, result, parameters)                                                   \
  table.name = (result(*) parameters)gb_library_symbol(library, #name);
  GB_CURL_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
}

static struct gb_library loader = GB_LIBRARY(GB_LIBCURL, "libcurl4", "libcurl 7.85", resolve);

const char *gb_curl_load(void) { return gb_library_load(&loader); }

int gb_curl_is_loaded(void) { return gb_library_is_loaded(&loader); }

CURLcode gb_curl_global_init(long flags) { return table.curl_global_init(flags); }
CURL *gb_curl_easy_init(void) { return table.curl_easy_init(); }
void gb_curl_easy_cleanup(CURL *handle) { table.curl_easy_cleanup(handle); }
CURLcode gb_curl_easy_pause(CURL *handle, int bitmask) {
  return table.curl_easy_pause(handle, bitmask);
}
CURLcode gb_curl_easy_perform(CURL *handle) { return table.curl_easy_perform(handle); }
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
