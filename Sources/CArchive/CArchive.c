// libarchive opened on the first archive read (see include/CArchive.h for why).
#include "CArchive.h"

#include "CLoader.h"

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
  X(archive_entry_hardlink)                                                                      \
  X(archive_entry_set_pathname)                                                                  \
  X(archive_entry_set_filetype)                                                                  \
  X(archive_entry_set_perm)                                                                      \
  X(archive_entry_set_size)

// Written once by the first `gb_archive_load`, only read afterwards (the loader orders it).
#define GB_FIELD(name) __typeof__(name) *fn_##name;
static struct {
  GB_ARCHIVE_FUNCTIONS(GB_FIELD)
} table;
#undef GB_FIELD

static void resolve(struct gb_library *library) {
#define GB_RESOLVE(name) table.fn_##name = (__typeof__(name) *)gb_library_symbol(library, #name);
  GB_ARCHIVE_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
}

static struct gb_library loader = GB_LIBRARY(GB_LIBARCHIVE, "libarchive13", NULL, resolve);

const char *gb_archive_load(void) { return gb_library_load(&loader); }

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
  // A hard link is a regular file to libarchive, with no data of its own.
  return table.fn_archive_entry_filetype(entry) == AE_IFREG &&
         table.fn_archive_entry_hardlink(entry) == NULL;
}
void gb_entry_set_regular_file(struct archive_entry *entry, int permissions) {
  table.fn_archive_entry_set_filetype(entry, AE_IFREG);
  table.fn_archive_entry_set_perm(entry, permissions);
}
