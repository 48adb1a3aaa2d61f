/*
 * The codec tests' data (random bytes, KeyValue-like blocks) and the
 * compressors under test: shared by test_codec.c and test_codec_gzip.c.
 */
#ifndef HFG_TEST_CODEC_DATA_H
#define HFG_TEST_CODEC_DATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/codec.h"
#include "format/codec_internal.h"
#include "util/buf.h"
#include "util/coding.h"

static uint32_t rng_state = 0x9e3779b9u;
static inline uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

static inline uint8_t *random_bytes(size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
  return p;
}

/* Concatenated v3 KeyValues (klen, vlen, key, value, tags len 0, mvcc 0), cut at n
 * bytes: compressible the way real data blocks are. */
static inline uint8_t *kv_bytes(size_t n) {
  uint8_t *p = malloc(n + 256);
  size_t len = 0;
  for (unsigned i = 0; len < n; i++) {
    char row[32], qual[16], val[64];
    int rl = snprintf(row, sizeof row, "row-%08u", i / 3);
    int ql = snprintf(qual, sizeof qual, "q%u", i % 3);
    int vl = snprintf(val, sizeof val, "value-%u-%08x", i, (unsigned)(i * 2654435761u));
    uint32_t klen = (uint32_t)(2 + rl + 1 + 2 + ql + 8 + 1);
    uint8_t *q = p + len;
    hfg_put_be32(q, klen);
    hfg_put_be32(q + 4, (uint32_t)vl);
    q += 8;
    hfg_put_be16(q, (uint16_t)rl);
    memcpy(q + 2, row, (size_t)rl);
    q += 2 + rl;
    *q++ = 2;
    memcpy(q, "cf", 2);
    q += 2;
    memcpy(q, qual, (size_t)ql);
    q += ql;
    hfg_put_be64(q, 1700000000000ull + i);
    q[8] = 4; /* Put */
    q += 9;
    memcpy(q, val, (size_t)vl);
    q += vl;
    q[0] = q[1] = 0; /* tags length */
    q[2] = 0;        /* mvcc */
    len = (size_t)(q + 3 - p);
  }
  return p;
}

/* Every compressor under test: all codecs (GZ on zlib, the default), plus GZ on
 * ISA-L igzip when built with it (else zlib once more). */
#define N_SUBJECTS (HFG_CODEC_COUNT_ + 1)
static inline hfg_compressor *subject_new(int i, hfg_codec *codec) {
  if (i == HFG_CODEC_COUNT_) {
    *codec = HFG_CODEC_GZ;
    return hfg_gz_isal_available() ? hfg_compressor_new(HFG_CODEC_GZ, HFG_GZ_LEVEL_ISAL)
                                   : hfg_compressor_new_gz_zlib(-1);
  }
  *codec = (hfg_codec)i;
  return hfg_compressor_new((hfg_codec)i, -1);
}

static inline const char *subject_name(int i) {
  return i == HFG_CODEC_COUNT_ ? "gz(isa-l)" : hfg_codec_name((hfg_codec)i);
}

/* Compresses src with subject i into a fresh buffer. */
static inline int compress_with(int i, const uint8_t *src, size_t n, hfg_buf *out) {
  hfg_codec c;
  hfg_compressor *z = subject_new(i, &c);
  if (!z) return HFG_ENOMEM;
  hfg_err err = {0, ""};
  int rc = hfg_compressor_compress(z, src, n, out, &err);
  if (rc) fprintf(stderr, "  compress %s: %s\n", subject_name(i), err.msg);
  hfg_compressor_free(z);
  return rc;
}

#endif
