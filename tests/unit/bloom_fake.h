/*
 * The bloom tests' pretend file (chunks "written" at fake offsets, as the
 * HFile writer's loop does at a block boundary) and their small helpers:
 * shared by test_bloom.c (the writer) and test_bloom_meta.c (the reader).
 */
#ifndef HFG_TEST_BLOOM_FAKE_H
#define HFG_TEST_BLOOM_FAKE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/bloom.h"

#define MAX_CHUNKS 4096

/* Chunks "written" to a pretend file: offsets advance by a fake block size. */
typedef struct fake_file {
  uint64_t pos;
  size_t n;
  uint64_t off[MAX_CHUNKS];
  uint32_t size[MAX_CHUNKS];
  uint8_t *data[MAX_CHUNKS];
  size_t len[MAX_CHUNKS];
} fake_file;

static inline fake_file *file_new(void) {
  fake_file *f = calloc(1, sizeof *f);
  f->pos = 1000;
  return f;
}

static inline void file_free(fake_file *f) {
  if (!f) return;
  for (size_t i = 0; i < f->n; i++) free(f->data[i]);
  free(f);
}

/* The HFile writer's loop at a block boundary. Returns chunks written or <0. */
static inline int drain(hfg_bloom_writer *b, int closing, fake_file *f) {
  const uint8_t *p;
  size_t len;
  int count = 0, rc;
  while ((rc = hfg_bloom_writer_next_chunk(b, closing, &p, &len)) == 1) {
    if (f->n == MAX_CHUNKS) return -100;
    f->data[f->n] = malloc(len);
    memcpy(f->data[f->n], p, len);
    f->len[f->n] = len;
    f->off[f->n] = f->pos;
    f->size[f->n] = (uint32_t)(len + 33 + 4);
    rc = hfg_bloom_writer_chunk_written(b, f->pos, f->size[f->n]);
    if (rc) {
      free(f->data[f->n]);
      return rc;
    }
    f->pos += f->size[f->n] + 100; /* a data block between */
    f->n++;
    count++;
  }
  return rc < 0 ? rc : count;
}

static inline size_t row_name(char *buf, int i) { return (size_t)sprintf(buf, "row-%09d", i); }

static inline float f32(double d) { return (float)d; }

static inline hfg_bloom_writer *defaults(hfg_bloom_type t) {
  return hfg_bloom_writer_new(t, 0.01f, 131072, 7);
}

/* Looks key up the way verify does: index, then the chunk's bits. */
static inline int lookup(const hfg_bloom_meta *m, const fake_file *f, const uint8_t *key, size_t len) {
  int c = hfg_bloom_meta_find_chunk(m, key, len);
  if (c < 0) return 0;
  if (m->chunk_offset[c] != f->off[c]) return -1;
  return hfg_bloom_meta_chunk_contains(m, f->data[c], f->len[c], key, len);
}

/* The meta of the fold example (format-specs/bloom.md): one chunk of 8 bytes. */
static const uint8_t fold_meta[] = {
    0x00, 0x00, 0x00, 0x03,                          /* version 3 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08,  /* totalByteSize 8 */
    0x00, 0x00, 0x00, 0x07,                          /* hashCount 7 */
    0x00, 0x00, 0x00, 0x01,                          /* hashType 1 (murmur) */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,  /* totalKeyCount 3 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06,  /* totalMaxKeys 6 */
    0x00, 0x00, 0x00, 0x01,                          /* numChunks 1 */
    0x00,                                            /* comparator: none */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xd2,  /* chunk offset 1234 */
    0x00, 0x00, 0x16, 0x2e,                          /* on-disk size 5678 */
    0x04, 'r', 'o', 'w', '1',                        /* first key */
};

#endif
