/*
 * Private to the record reader (record_reader.c): the byte scanners of CSV/TSV
 * parsing, 16 or 32 bytes a step where SSE2 (every x86-64) or AVX2 is there,
 * a byte loop elsewhere. Static inline: they run inside the parse loops.
 */
#ifndef HFG_PIPELINE_RECORD_SCAN_H
#define HFG_PIPELINE_RECORD_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __AVX2__
#include <immintrin.h>
#endif

/* The CSV walk's positions (record_reader.c, parse_csv_fast) among the 64
 * bytes at p (all readable) as a mask, bit i for p[i]: every delimiter,
 * quote and LF, and a few bytes more that the walk passes over ('*' and
 * 0x02): '"' (0x22) and LF (0x0a) differ only in the bits 0x28, so one
 * compare of (byte | 0x28) with 0x2a finds both, where two compares would
 * cost one more each 16 bytes. */
static inline uint64_t hfg_scan_csv64(const char *p, char delim) {
#if defined(__AVX2__)
  const __m256i vd = _mm256_set1_epi8(delim), v28 = _mm256_set1_epi8(0x28),
                v2a = _mm256_set1_epi8(0x2a);
  __m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
  __m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
  __m256i m0 = _mm256_or_si256(_mm256_cmpeq_epi8(x0, vd),
                               _mm256_cmpeq_epi8(_mm256_or_si256(x0, v28), v2a));
  __m256i m1 = _mm256_or_si256(_mm256_cmpeq_epi8(x1, vd),
                               _mm256_cmpeq_epi8(_mm256_or_si256(x1, v28), v2a));
  return (uint64_t)(uint32_t)_mm256_movemask_epi8(m0) |
         (uint64_t)(uint32_t)_mm256_movemask_epi8(m1) << 32;
#elif defined(__SSE2__)
  const __m128i vd = _mm_set1_epi8(delim), v28 = _mm_set1_epi8(0x28), v2a = _mm_set1_epi8(0x2a);
  uint64_t m = 0;
  for (int k = 0; k < 4; k++) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
    __m128i y = _mm_or_si128(_mm_cmpeq_epi8(x, vd), _mm_cmpeq_epi8(_mm_or_si128(x, v28), v2a));
    m |= (uint64_t)(unsigned)_mm_movemask_epi8(y) << (16 * k);
  }
  return m;
#else
  uint64_t m = 0;
  for (int i = 0; i < 64; i++) m |= (uint64_t)(p[i] == delim || (p[i] | 0x28) == 0x2a) << i;
  return m;
#endif
}

/* The first byte of [p, e) equal to a, b or c, or e: 16 bytes a step where
 * SSE2 is there (every x86-64), a byte loop elsewhere and for the tail. */
static inline const char *scan3(const char *p, const char *e, char a, char b, char c) {
#ifdef __SSE2__
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
  while (e - p >= 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                             _mm_cmpeq_epi8(x, vc));
    unsigned mask = (unsigned)_mm_movemask_epi8(m);
    if (mask) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p < e; p++)
    if (*p == a || *p == b || *p == c) return p;
  return e;
}

/* The first byte of [p, e) equal to a or b, or e: scan3 with 32-byte steps
 * first where AVX2 is there. For TSV, whose long fields are unquoted (CSV's
 * short unquoted fields do better without the extra setup). */
static inline const char *scan2_wide(const char *p, const char *e, char a, char b) {
#ifdef __AVX2__
  if (e - p >= 32) {
    const __m256i wa = _mm256_set1_epi8(a), wb = _mm256_set1_epi8(b);
    do {
      __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
      __m256i m = _mm256_or_si256(_mm256_cmpeq_epi8(x, wa), _mm256_cmpeq_epi8(x, wb));
      unsigned mask = (unsigned)_mm256_movemask_epi8(m);
      if (mask) return p + __builtin_ctz(mask);
      p += 32;
    } while (e - p >= 32);
  }
#endif
  return scan3(p, e, a, b, b);
}

/* One vector's quote and LF masks (bit i: byte i): the offset of its first
 * '"' with *n += the LFs before it, or -1 with *n += all of its LFs. */
static inline int quote_in_masks(unsigned mq, unsigned mn, uint64_t *n) {
  if (mq) {
    if (mn) *n += (unsigned)__builtin_popcount(mn & ((mq & -mq) - 1));
    return __builtin_ctz(mq);
  }
  if (mn) *n += (unsigned)__builtin_popcount(mn);
  return -1;
}

/* The first '"' in [p, e), or NULL; *lf += the LFs before it (all of them
 * when there is none): the closing-quote search of a quoted field, which
 * also counts its quoted newlines. */
static inline const char *scan_quote(const char *p, const char *e, uint64_t *lf) {
  uint64_t n = 0;
#ifdef __AVX2__
  const __m256i wq = _mm256_set1_epi8('"'), wn = _mm256_set1_epi8('\n');
  for (; e - p >= 32; p += 32) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    int at = quote_in_masks((unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, wq)),
                            (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, wn)), &n);
    if (at >= 0) return *lf += n, p + at;
  }
#endif
#ifdef __SSE2__
  const __m128i vq = _mm_set1_epi8('"'), vn = _mm_set1_epi8('\n');
  for (; e - p >= 16; p += 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    int at = quote_in_masks((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, vq)),
                            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, vn)), &n);
    if (at >= 0) return *lf += n, p + at;
  }
#endif
  for (; p < e; p++) {
    if (*p == '"') {
      *lf += n;
      return p;
    }
    n += *p == '\n';
  }
  *lf += n;
  return NULL;
}

#endif
