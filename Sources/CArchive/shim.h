// libarchive's C API (apt: libarchive-dev): the feed's .tar.bz2 read as a stream.
#include <archive.h>
#include <archive_entry.h>

// archive_set_error is variadic, which Swift cannot call: the read callback's failure text.
static inline void gb_archive_set_error_string(struct archive *archive, const char *text) {
  archive_set_error(archive, -1, "%s", text);
}

// AE_IFREG is a macro with a cast, which Swift does not import.
static inline int gb_entry_is_regular_file(struct archive_entry *entry) {
  return archive_entry_filetype(entry) == AE_IFREG;
}

// The same for writing an entry's type (the tests' feed generator).
static inline void gb_entry_set_regular_file(struct archive_entry *entry, int permissions) {
  archive_entry_set_filetype(entry, AE_IFREG);
  archive_entry_set_perm(entry, permissions);
}
