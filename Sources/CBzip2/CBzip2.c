// libbz2 opened on the feed's first block (see include/CBzip2.h for why).
#include "CBzip2.h"

#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "CLoader.h"

#if defined(__APPLE__)
#define GB_LIBBZ2 "libbz2.1.0.dylib"
#else
#define GB_LIBBZ2 "libbz2.so.1.0"
#endif

// Every libbz2 function the package calls; each pointer takes the type the header declares.
#define GB_BZ2_FUNCTIONS(X)                                                                      \
  X(BZ2_bzDecompressInit)                                                                        \
  X(BZ2_bzDecompress)                                                                            \
  X(BZ2_bzDecompressEnd)                                                                         \
  X(BZ2_bzBuffToBuffCompress)

// Written once by the first `gb_bz2_load`, only read afterwards (the loader orders it).
#define GB_FIELD(name) __typeof__(name) *fn_##name;
static struct {
  GB_BZ2_FUNCTIONS(GB_FIELD)
} table;
#undef GB_FIELD

static void resolve(struct gb_library *library) {
#define GB_RESOLVE(name) table.fn_##name = (__typeof__(name) *)gb_library_symbol(library, #name);
  GB_BZ2_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
}

static struct gb_library loader = GB_LIBRARY(GB_LIBBZ2, "libbz2-1.0", NULL, resolve);

const char *gb_bz2_load(void) { return gb_library_load(&loader); }

// libbz2 allocates the same few buffers for every stream (its state, then the block's): the
// ones it frees are kept here, by size, and handed back to the next stream's allocation.
#define GB_KEPT 4

struct gb_bz2_decoder {
  bz_stream stream;
  int active;
  void *kept[GB_KEPT];
  size_t kept_size[GB_KEPT];
  // The size of each allocation libbz2 holds, found by address when it frees it.
  void *held[GB_KEPT];
  size_t held_size[GB_KEPT];
};

static void *allocate(void *opaque, int count, int size) {
  struct gb_bz2_decoder *decoder = opaque;
  size_t bytes = (size_t)count * (size_t)size;
  void *block = NULL;
  for (int i = 0; i < GB_KEPT; i++) {
    if (decoder->kept[i] != NULL && decoder->kept_size[i] == bytes) {
      block = decoder->kept[i];
      decoder->kept[i] = NULL;
      break;
    }
  }
  if (block == NULL) block = malloc(bytes);
  if (block == NULL) return NULL;
  for (int i = 0; i < GB_KEPT; i++) {
    if (decoder->held[i] == NULL) {
      decoder->held[i] = block;
      decoder->held_size[i] = bytes;
      return block;
    }
  }
  // More live allocations than libbz2 ever makes: not kept, freed as usual.
  return block;
}

static void release(void *opaque, void *block) {
  struct gb_bz2_decoder *decoder = opaque;
  size_t bytes = 0;
  for (int i = 0; i < GB_KEPT; i++) {
    if (decoder->held[i] == block) {
      bytes = decoder->held_size[i];
      decoder->held[i] = NULL;
      break;
    }
  }
  if (bytes != 0) {
    for (int i = 0; i < GB_KEPT; i++) {
      if (decoder->kept[i] == NULL) {
        decoder->kept[i] = block;
        decoder->kept_size[i] = bytes;
        return;
      }
    }
  }
  free(block);
}

struct gb_bz2_decoder *gb_bz2_decoder_new(void) {
  return calloc(1, sizeof(struct gb_bz2_decoder));
}

static void end(struct gb_bz2_decoder *decoder) {
  if (decoder->active) table.fn_BZ2_bzDecompressEnd(&decoder->stream);
  decoder->active = 0;
}

void gb_bz2_decoder_free(struct gb_bz2_decoder *decoder) {
  if (decoder == NULL) return;
  end(decoder);
  for (int i = 0; i < GB_KEPT; i++) free(decoder->kept[i]);
  free(decoder);
}

int gb_bz2_decoder_begin(struct gb_bz2_decoder *decoder) {
  end(decoder);
  memset(&decoder->stream, 0, sizeof decoder->stream);
  decoder->stream.bzalloc = allocate;
  decoder->stream.bzfree = release;
  decoder->stream.opaque = decoder;
  int status = table.fn_BZ2_bzDecompressInit(&decoder->stream, 0, 0);
  decoder->active = status == BZ_OK;
  return status;
}

int gb_bz2_decoder_run(struct gb_bz2_decoder *decoder, const void *input, size_t *input_length,
                       void *output, size_t *output_length) {
  if (!decoder->active) return BZ_SEQUENCE_ERROR;
  // libbz2 counts in unsigned int: larger pieces are taken in several calls by the caller.
  unsigned in = *input_length > 0x7fffffff ? 0x7fffffff : (unsigned)*input_length;
  unsigned out = *output_length > 0x7fffffff ? 0x7fffffff : (unsigned)*output_length;
  decoder->stream.next_in = (char *)input;
  decoder->stream.avail_in = in;
  decoder->stream.next_out = output;
  decoder->stream.avail_out = out;
  int status = table.fn_BZ2_bzDecompress(&decoder->stream);
  *input_length = in - decoder->stream.avail_in;
  *output_length = out - decoder->stream.avail_out;
  return status;
}

int gb_bz2_compress(const void *input, size_t input_length, int level, void *output,
                    size_t *output_length) {
  if (input_length > 0x7fffffff || *output_length > 0x7fffffff) return BZ_PARAM_ERROR;
  unsigned room = (unsigned)*output_length;
  int status = table.fn_BZ2_bzBuffToBuffCompress(output, &room, (char *)input,
                                                  (unsigned)input_length, level, 0, 0);
  *output_length = room;
  return status;
}

void gb_return_freed_memory(void) {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
