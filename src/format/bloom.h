/*
 * HBase compound bloom filters (ROW and ROWCOL), bit for bit as HBase 2.x
 * writes them (format-specs/bloom.md): HBase's MurmurHash (hash type 1),
 * double hashing, fixed-size chunks, folding of the last chunk, BLMFMET2 meta.
 *
 * Writer lifecycle (driven by the HFile writer, which owns block placement):
 *   new → (add)* interleaved with (next_chunk → chunk_written)* at data-block
 *   boundaries → next_chunk(closing=1) → chunk_written → meta → free
 */
#ifndef HFG_FORMAT_BLOOM_H
#define HFG_FORMAT_BLOOM_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/types.h"
#include "util/buf.h"

typedef struct hfg_bloom_writer hfg_bloom_writer;

/* error_rate is HBase's float io.storefile.bloom.error.rate (default 0.01f),
 * chunk_bytes the io.storefile.bloom.block.size hint (default 131072), max_fold
 * io.storefile.bloom.max.fold (default 7). NULL on ENOMEM or bad arguments. */
hfg_bloom_writer *hfg_bloom_writer_new(hfg_bloom_type type, float error_rate,
                                       uint32_t chunk_bytes, int max_fold);

/* Offers one cell in cell order; the writer adds a key only when it is new
 * (a new row for ROW; a new row or qualifier for ROWCOL). */
int hfg_bloom_writer_add(hfg_bloom_writer *b, const uint8_t *row, size_t row_len,
                         const uint8_t *qual, size_t qual_len);

/* At a data-block boundary (closing = 0) yields the next full chunk, at close
 * (closing = 1) also the last one, folded. Returns 1 and sets data/len (borrowed
 * until the next call) when a chunk must be written now, 0 when none. */
int hfg_bloom_writer_next_chunk(hfg_bloom_writer *b, int closing, const uint8_t **data,
                                size_t *len);

/* Records the position of the chunk last returned by next_chunk. */
int hfg_bloom_writer_chunk_written(hfg_bloom_writer *b, uint64_t offset,
                                   uint32_t on_disk_size_with_header);

/* Number of keys added; 0 means: write no bloom blocks and no bloom file info. */
uint64_t hfg_bloom_writer_key_count(const hfg_bloom_writer *b);

/* Appends the BLMFMET2 payload. Call after the last chunk was written. */
int hfg_bloom_writer_meta(hfg_bloom_writer *b, hfg_buf *out);

/* LAST_BLOOM_KEY file-info value (the last key added; for ROW the row bytes). */
const uint8_t *hfg_bloom_writer_last_key(const hfg_bloom_writer *b, size_t *len);

void hfg_bloom_writer_free(hfg_bloom_writer *b);

/* ---- read side (used by the reader and verify) ---- */

typedef struct hfg_bloom_meta {
  int32_t version;
  int64_t total_byte_size;
  int32_t hash_count;
  int32_t hash_type;
  int64_t total_key_count;
  int64_t total_max_keys;
  int32_t num_chunks;
  char comparator[128];        /* "" for ROW */
  uint64_t *chunk_offset;      /* num_chunks entries each */
  uint32_t *chunk_on_disk_size;
  uint8_t **chunk_first_key;
  size_t *chunk_first_key_len;
} hfg_bloom_meta;

/* Parses a BLMFMET2 payload; bounded, HFG_ECORRUPT on bad input. */
int hfg_bloom_meta_parse(const uint8_t *p, size_t n, hfg_bloom_meta *out, char *errmsg,
                         size_t errmsg_len);
void hfg_bloom_meta_free(hfg_bloom_meta *m);

/* Bloom key bytes for a lookup: for ROW the row; for ROWCOL the synthetic key
 * HBase hashes. Appends to out. */
int hfg_bloom_key(hfg_bloom_type type, const uint8_t *row, size_t row_len, const uint8_t *qual,
                  size_t qual_len, hfg_buf *out);

/* Index of the chunk that may hold key (-1: before the first chunk = absent). */
int hfg_bloom_meta_find_chunk(const hfg_bloom_meta *m, const uint8_t *key, size_t len);

/* 1 if the chunk's bits say "maybe present", 0 if certainly absent. */
int hfg_bloom_chunk_contains(const uint8_t *chunk, size_t chunk_len, int hash_count,
                             const uint8_t *key, size_t len);

#endif
