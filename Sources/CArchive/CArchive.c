// libarchive opened on the first archive read (see include/CArchive.h for why).
#include "CArchive.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#if defined(__APPLE__)
#define GB_LIBARCHIVE "libarchive.13.dylib"
#else
#define GB_LIBARCHIVE "libarchive.so.13"
#endif

// Every libarchive function the package calls; each pointer takes the type the header declares.
#define GB_ARCHIVE_FUNCTIONS(X)                                                                  \
  X(archive_read_new)                                                                            \
  X(archive_read_free)                                                                           \
  X(archive_read_support_filter_all)                                                             \
  X(archive_read_support_format_tar)                                                             \
  X(archive_read_support_format_gnutar)                                                          \
  X(archive_read_open)                                                                           \
  X(archive_read_next_header)                                                                    \
  X(archive_read_data)                                                                           \
  X(archive_error_string)                                                                        \
  X(archive_set_error)                                                                           \
  X(archive_write_new)                                                                           \
  X(archive_write_free)                                                                          \
  X(archive_write_add_filter_bzip2)                                                              \
  X(archive_write_set_format_ustar)                                                              \
  X(archive_write_open_filename)                                                                 \
  X(archive_write_header)                                                                        \
  X(archive_write_data)                                                                          \
  X(archive_write_close)                                                                         \
  X(archive_entry_new)                                                                           \
  X(archive_entry_free)                                                                          \
  X(archive_entry_clear)                                                                         \
  X(archive_entry_pathname)                                                                      \
  X(archive_entry_size)                                                                          \
  X(archive_entry_size_is_set)                                                                   \
  X(archive_entry_filetype)                                                                      \
  X(archive_entry_set_pathname)                                                                  \
  X(archive_entry_set_filetype)                                                                  \
  X(archive_entry_set_perm)                                                                      \
  X(archive_entry_set_size)

// Written once under `once`, only read afterwards (pthread_once orders the writes first).
#define GB_FIELD(name) __typeof__(name) *fn_##name;
static struct {
  GB_ARCHIVE_FUNCTIONS(GB_FIELD)
} table;
#undef GB_FIELD

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = NULL;
static char message[512];

static void load(void) {
  void *library = dlopen(GB_LIBARCHIVE, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(message, sizeof message,
             "cannot load " GB_LIBARCHIVE " (%s); install libarchive13 (apt-get install "
             "libarchive13)",
             reason ? reason : "not found");
    failure = message;
    return;
  }
#define GB_RESOLVE(name)                                                                       \
  table.fn_##name = (__typeof__(name) *)dlsym(library, #name);                                 \
  if (table.fn_##name == NULL) {                                                               \
    snprintf(message, sizeof message, GB_LIBARCHIVE " has no " #name "; install libarchive13"); \
    failure = message;                                                                         \
    return;                                                                                    \
  }
  GB_ARCHIVE_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
}

const char *gb_archive_load(void) {
  pthread_once(&once, load);
  return failure;
}

struct archive *gb_archive_read_new(void) { return table.fn_archive_read_new(); }
int gb_archive_read_free(struct archive *archive) { return table.fn_archive_read_free(archive); }
int gb_archive_read_support_filter_all(struct archive *archive) {
  return table.fn_archive_read_support_filter_all(archive);
}
int gb_archive_read_support_format_tar(struct archive *archive) {
  return table.fn_archive_read_support_format_tar(archive);
}
int gb_archive_read_support_format_gnutar(struct archive *archive) {
  return table.fn_archive_read_support_format_gnutar(archive);
}
int gb_archive_read_open(struct archive *archive, void *context, archive_open_callback *open,
                         archive_read_callback *read, archive_close_callback *close) {
  return table.fn_archive_read_open(archive, context, open, read, close);
}
int gb_archive_read_next_header(struct archive *archive, struct archive_entry **entry) {
  return table.fn_archive_read_next_header(archive, entry);
}
la_ssize_t gb_archive_read_data(struct archive *archive, void *buffer, size_t size) {
  return table.fn_archive_read_data(archive, buffer, size);
}
const char *gb_archive_error_string(struct archive *archive) {
  return table.fn_archive_error_string(archive);
}
struct archive *gb_archive_write_new(void) { return table.fn_archive_write_new(); }
int gb_archive_write_free(struct archive *archive) { return table.fn_archive_write_free(archive); }
int gb_archive_write_add_filter_bzip2(struct archive *archive) {
  return table.fn_archive_write_add_filter_bzip2(archive);
}
int gb_archive_write_set_format_ustar(struct archive *archive) {
  return table.fn_archive_write_set_format_ustar(archive);
}
int gb_archive_write_open_filename(struct archive *archive, const char *path) {
  return table.fn_archive_write_open_filename(archive, path);
}
int gb_archive_write_header(struct archive *archive, struct archive_entry *entry) {
  return table.fn_archive_write_header(archive, entry);
}
la_ssize_t gb_archive_write_data(struct archive *archive, const void *bytes, size_t size) {
  return table.fn_archive_write_data(archive, bytes, size);
}
int gb_archive_write_close(struct archive *archive) {
  return table.fn_archive_write_close(archive);
}
struct archive_entry *gb_archive_entry_new(void) { return table.fn_archive_entry_new(); }
void gb_archive_entry_free(struct archive_entry *entry) { table.fn_archive_entry_free(entry); }
struct archive_entry *gb_archive_entry_clear(struct archive_entry *entry) {
  return table.fn_archive_entry_clear(entry);
}
const char *gb_archive_entry_pathname(struct archive_entry *entry) {
  return table.fn_archive_entry_pathname(entry);
}
la_int64_t gb_archive_entry_size(struct archive_entry *entry) {
  return table.fn_archive_entry_size(entry);
}
int gb_archive_entry_size_is_set(struct archive_entry *entry) {
  return table.fn_archive_entry_size_is_set(entry);
}
void gb_archive_entry_set_pathname(struct archive_entry *entry, const char *path) {
  table.fn_archive_entry_set_pathname(entry, path);
}
void gb_archive_entry_set_size(struct archive_entry *entry, la_int64_t size) {
  table.fn_archive_entry_set_size(entry, size);
}

void gb_archive_set_error_string(struct archive *archive, const char *text) {
  table.fn_archive_set_error(archive, -1, "%s", text);
}
int gb_entry_is_regular_file(struct archive_entry *entry) {
  return table.fn_archive_entry_filetype(entry) == AE_IFREG;
}
void gb_entry_set_regular_file(struct archive_entry *entry, int permissions) {
  table.fn_archive_entry_set_filetype(entry, AE_IFREG);
  table.fn_archive_entry_set_perm(entry, permissions);
}
