// libarchive's C API, loaded on first use: the types and constants come from <archive.h> (apt:
// libarchive-dev at build time), the functions from libarchive.so.13, opened with dlopen by
// `gb_archive_load`. Only `sync --feed` reads an archive, so no other command maps libarchive
// nor the compression libraries it pulls in.
//
// Call `gb_archive_load` first and go on only when it returns NULL: every other function here
// calls through the table it fills. Each is libarchive's function of the same name after
// `gb_`; none is named like one of libarchive's own, so the executable never shadows them.
#ifndef GB_CARCHIVE_H
#define GB_CARCHIVE_H

#include <archive.h>
#include <archive_entry.h>

/// Opens libarchive and resolves its functions, once per process; NULL when they are all
/// there, else one line saying what is missing and which package installs it.
const char *gb_archive_load(void);

struct archive *gb_archive_read_new(void);
int gb_archive_read_free(struct archive *archive);
int gb_archive_read_support_filter_all(struct archive *archive);
int gb_archive_read_support_format_tar(struct archive *archive);
int gb_archive_read_support_format_gnutar(struct archive *archive);
int gb_archive_read_open(struct archive *archive, void *context, archive_open_callback *open,
                         archive_read_callback *read, archive_close_callback *close);
int gb_archive_read_next_header(struct archive *archive, struct archive_entry **entry);
la_ssize_t gb_archive_read_data(struct archive *archive, void *buffer, size_t size);
const char *gb_archive_error_string(struct archive *archive);
struct archive *gb_archive_write_new(void);
int gb_archive_write_free(struct archive *archive);
int gb_archive_write_add_filter_bzip2(struct archive *archive);
int gb_archive_write_set_format_ustar(struct archive *archive);
int gb_archive_write_open_filename(struct archive *archive, const char *path);
int gb_archive_write_header(struct archive *archive, struct archive_entry *entry);
la_ssize_t gb_archive_write_data(struct archive *archive, const void *bytes, size_t size);
int gb_archive_write_close(struct archive *archive);
struct archive_entry *gb_archive_entry_new(void);
void gb_archive_entry_free(struct archive_entry *entry);
struct archive_entry *gb_archive_entry_clear(struct archive_entry *entry);
const char *gb_archive_entry_pathname(struct archive_entry *entry);
la_int64_t gb_archive_entry_size(struct archive_entry *entry);
int gb_archive_entry_size_is_set(struct archive_entry *entry);
void gb_archive_entry_set_pathname(struct archive_entry *entry, const char *path);
void gb_archive_entry_set_size(struct archive_entry *entry, la_int64_t size);

/// archive_set_error is variadic, which Swift cannot call: the read callback's failure text.
void gb_archive_set_error_string(struct archive *archive, const char *text);
/// Whether the entry is a regular file with data of its own: not a hard link, which libarchive
/// reports as a regular file (AE_IFREG is also a macro with a cast, which Swift does not import).
int gb_entry_is_regular_file(struct archive_entry *entry);
/// The same for writing an entry's type (the tests' feed generator).
void gb_entry_set_regular_file(struct archive_entry *entry, int permissions);

#endif
