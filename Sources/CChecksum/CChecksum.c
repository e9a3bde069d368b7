// CRC-32 (zlib's: reflected, polynomial 0x04C11DB7) by folding, after Intel's white paper
// "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction".
//
// Why it is the same value: a reflected CRC register with initial value v is the register
// started at 0 over the message whose first four bytes are XORed with v; and the raw CRC of a
// message M is M(x)·x^32 mod P, so any M' ≡ M (mod P) of the same kind has the same CRC. The
// message is kept as 128-bit blocks X (loaded little-endian, so register bit j is the
// coefficient of x^(127-j): the reflected order). Folding X forward by n bits replaces
// X·x^n by H·(x^(n+64) mod P) + L·(x^n mod P), H and L its high- and low-degree halves:
// congruent mod P and under 128 bits again. At the end one 128-bit X (and fewer than 16
// bytes of tail) is left, congruent to the message; zlib finishes the CRC of those bytes.
//
// PCLMULQDQ on bit-reflected 64-bit halves returns the reflected product shifted by one
// place (it represents x·a·b), so each constant is x^(n-1) mod P, reflected, which
// `constant` computes at first use rather than carrying magic numbers.
#include "CChecksum.h"

#include <zlib.h>

uint32_t gb_crc32_portable(uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *p = bytes;
  // zlib takes a 32-bit length: longer inputs in pieces.
  while (count > 0) {
    size_t piece = count > (1u << 30) ? (1u << 30) : count;
    crc = (uint32_t)crc32(crc, p, (uInt)piece);
    p += piece;
    count -= piece;
  }
  return crc;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <cpuid.h>
#include <pthread.h>
#include <immintrin.h>

/// x^n mod P, reflected into the high half of 64 bits (bit 63-d holds x^d's coefficient),
/// the form PCLMULQDQ multiplies a reflected half by.
static uint64_t constant(unsigned n) {
  uint64_t r = 1;
  for (unsigned i = 0; i < n; i++) {
    r <<= 1;
    if (r & (1ull << 32)) r ^= 0x104C11DB7ull;
  }
  uint32_t reflected = 0;
  for (int d = 0; d < 32; d++) {
    if (r & (1ull << d)) reflected |= 1u << (31 - d);
  }
  return (uint64_t)reflected << 32;
}

/// The constants for folding by 512 bits (four blocks in flight) and by 128 bits, each pair
/// (for the low register half, the high one), and whether the processor can: set once.
static struct {
  int usable;
  __m128i by512;
  __m128i by128;
} folds;

static pthread_once_t foldsOnce = PTHREAD_ONCE_INIT;

static void prepare(void) {
  unsigned a, b, c, d;
  folds.usable = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_PCLMUL) && (d & bit_SSE2);
  if (!folds.usable) return;
  folds.by512 = _mm_set_epi64x((long long)constant(512 - 1), (long long)constant(512 + 64 - 1));
  folds.by128 = _mm_set_epi64x((long long)constant(128 - 1), (long long)constant(128 + 64 - 1));
}

static int available(void) {
  pthread_once(&foldsOnce, prepare);
  return folds.usable;
}

/// x·x^n folded: the low half times the first constant, the high half times the second.
__attribute__((target("pclmul,sse2"))) static inline __m128i fold(__m128i x, __m128i k) {
  return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

__attribute__((target("pclmul,sse2"))) static uint32_t folded(
    uint32_t crc, const unsigned char *p, size_t count) {
  const __m128i by512 = folds.by512, by128 = folds.by128;
  __m128i x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)~crc));
  __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
  __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
  __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
  p += 64;
  count -= 64;
  while (count >= 64) {
    x0 = _mm_xor_si128(fold(x0, by512), _mm_loadu_si128((const __m128i *)p));
    x1 = _mm_xor_si128(fold(x1, by512), _mm_loadu_si128((const __m128i *)(p + 16)));
    x2 = _mm_xor_si128(fold(x2, by512), _mm_loadu_si128((const __m128i *)(p + 32)));
    x3 = _mm_xor_si128(fold(x3, by512), _mm_loadu_si128((const __m128i *)(p + 48)));
    p += 64;
    count -= 64;
  }
  x1 = _mm_xor_si128(x1, fold(x0, by128));
  x2 = _mm_xor_si128(x2, fold(x1, by128));
  x3 = _mm_xor_si128(x3, fold(x2, by128));
  while (count >= 16) {
    x3 = _mm_xor_si128(fold(x3, by128), _mm_loadu_si128((const __m128i *)p));
    p += 16;
    count -= 16;
  }
  unsigned char rest[16];
  _mm_storeu_si128((__m128i *)rest, x3);
  // The message with the initial value folded in is congruent to these 16 bytes and the
  // tail: their CRC from a zero register (zlib's initial value ~0) is the answer.
  uint32_t result = (uint32_t)crc32(0xFFFFFFFFul, rest, 16);
  return gb_crc32_portable(result, p, count);
}

uint32_t gb_crc32(uint32_t crc, const void *bytes, size_t count) {
  if (count < 64 || !available()) return gb_crc32_portable(crc, bytes, count);
  return folded(crc, bytes, count);
}

#else

uint32_t gb_crc32(uint32_t crc, const void *bytes, size_t count) {
  return gb_crc32_portable(crc, bytes, count);
}

#endif
