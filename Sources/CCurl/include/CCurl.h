// libcurl's C API, loaded on first use: the types and constants come from <curl/curl.h> (apt:
// libcurl4-openssl-dev at build time), the functions from libcurl.so.4, opened with dlopen by
// `gb_curl_load`. The binary has no link to libcurl, so a command that never makes a request
// (a local query, `--version`) never maps it nor the ~29 libraries it pulls in.
//
// Call `gb_curl_load` (once is enough; later calls are cheap) and go on only when it returns
// NULL: every other function here calls through the table it fills. curl_easy_setopt,
// curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call: the typed
// wrappers below can. Nothing here is named `curl_*`: libcurl's own exported functions must not
// be shadowed by the executable's symbols.
#ifndef GB_CCURL_H
#define GB_CCURL_H

#include <curl/curl.h>

/// Opens libcurl and resolves its functions, once per process; NULL when they are all there,
/// else one line saying what is missing and which package installs it.
const char *gb_curl_load(void);

/// True once `gb_curl_load` has succeeded in this process (never loads anything itself).
int gb_curl_is_loaded(void);

CURLcode gb_curl_global_init(long flags);
CURL *gb_curl_easy_init(void);
void gb_curl_easy_cleanup(CURL *handle);
CURLcode gb_curl_easy_pause(CURL *handle, int bitmask);
// Blocking: only `send --to mail:` calls it, on a thread of its own (SMTP is one upload).
CURLcode gb_curl_easy_perform(CURL *handle);
const char *gb_curl_easy_strerror(CURLcode code);
CURLM *gb_curl_multi_init(void);
CURLMcode gb_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode gb_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode gb_curl_multi_perform(CURLM *multi, int *running);
CURLMsg *gb_curl_multi_info_read(CURLM *multi, int *queued);
CURLMcode gb_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count,
                             int timeoutMilliseconds, int *ready);
CURLMcode gb_curl_multi_wakeup(CURLM *multi);
struct curl_slist *gb_curl_slist_append(struct curl_slist *list, const char *line);
void gb_curl_slist_free_all(struct curl_slist *list);

CURLcode gb_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode gb_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode gb_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode gb_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);

typedef size_t (*gb_data_callback)(char *data, size_t size, size_t count, void *context);

CURLcode gb_easy_setopt_callback(CURL *handle, CURLoption option, gb_data_callback callback);
CURLcode gb_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode gb_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);
CURLMcode gb_multi_setopt_long(CURLM *handle, CURLMoption option, long value);

// CURL_WRITEFUNC_PAUSE and CURLPAUSE_CONT are macros of expressions Swift does not import.
static inline size_t gb_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline int gb_pause_cont(void) { return CURLPAUSE_CONT; }

#endif
