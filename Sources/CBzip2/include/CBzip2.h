// libbz2's C API, loaded on first use: the types and constants come from <bzlib.h> (apt:
// libbz2-dev at build time), the functions from libbz2.so.1.0, opened with dlopen by
// `gb_bz2_load`. Only `sync --feed` decompresses bzip2 (the feed's blocks, on several threads),
// so no other command maps it.
//
// Call `gb_bz2_load` first and go on only when it returns NULL: every other function here
// calls through the table it fills.
#ifndef GB_CBZIP2_H
#define GB_CBZIP2_H

#include <bzlib.h>
#include <stddef.h>

/// Opens libbz2 and resolves its functions, once per process; NULL when they are all there,
/// else one line saying what is missing and which package installs it.
const char *gb_bz2_load(void);

/// A decompressor that one thread reuses for stream after stream: libbz2's state and its block
/// buffer (4 bytes per byte of block, 3.6 MB at level 9) are kept between streams instead of
/// being allocated, faulted in and freed for each one.
struct gb_bz2_decoder;

/// A new decoder, NULL when out of memory.
struct gb_bz2_decoder *gb_bz2_decoder_new(void);
/// Ends any stream under way and frees the decoder and its kept buffers.
void gb_bz2_decoder_free(struct gb_bz2_decoder *decoder);
/// Starts a stream (ending the previous one): BZ_OK, or libbz2's error.
int gb_bz2_decoder_begin(struct gb_bz2_decoder *decoder);
/// Decompresses from `input` (`*input_length` bytes) into `output` (`*output_length` bytes):
/// libbz2's BZ2_bzDecompress status (BZ_OK, BZ_STREAM_END or an error); on return the two
/// lengths say how much was consumed and how much written.
int gb_bz2_decoder_run(struct gb_bz2_decoder *decoder, const void *input, size_t *input_length,
                       void *output, size_t *output_length);

/// Compresses `input` into `output` as one stream at `level` (1-9): BZ_OK, BZ_OUTBUFF_FULL or
/// another error; `*output_length` holds the room on entry and the size on return. The tests
/// write their feeds with it (several streams, small blocks).
int gb_bz2_compress(const void *input, size_t input_length, int level, void *output,
                    size_t *output_length);

/// Gives the memory the feed's threads freed (blocks, their buffers and decoders, parsed
/// records) back to the system, where the C library can (glibc's malloc_trim): it keeps freed
/// memory for reuse otherwise, and the index built after the feed is the refresh's peak.
void gb_return_freed_memory(void);

#endif
