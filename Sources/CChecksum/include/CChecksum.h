// zlib's CRC-32, the index's checksum, computed faster where the processor can: a section is
// checked at every open of the index (the per-book columns: 5 MB on a catalogue four times
// today's), and zlib's table-driven CRC was a tenth of a cold first page there.
#ifndef GB_CCHECKSUM_H
#define GB_CCHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// zlib's `crc32(crc, bytes, count)`, the same value for every input: with carry-less
/// multiplication (PCLMULQDQ) on x86-64 processors that have it and for inputs of 64 bytes or
/// more, zlib's own function otherwise (and for the last bytes).
uint32_t gb_crc32(uint32_t crc, const void *bytes, size_t count);

/// `gb_crc32` without the carry-less path: zlib's function over any length (what the tests
/// compare the fast path with).
uint32_t gb_crc32_portable(uint32_t crc, const void *bytes, size_t count);

#endif
