// libcurl's C API (apt: libcurl4-openssl-dev). curl_easy_setopt, curl_easy_getinfo and
// curl_multi_setopt are variadic, which Swift cannot call: these typed wrappers can.
#include <curl/curl.h>

static inline CURLcode gb_easy_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode gb_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode gb_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode gb_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

typedef size_t (*gb_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode gb_easy_setopt_callback(CURL *handle, CURLoption option,
                                               gb_data_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode gb_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode gb_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode gb_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
  return curl_multi_setopt(handle, option, value);
}

// CURL_WRITEFUNC_PAUSE and CURLPAUSE_CONT are macros of expressions Swift does not import.
static inline size_t gb_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline int gb_pause_cont(void) { return CURLPAUSE_CONT; }
