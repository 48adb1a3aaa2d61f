/*
 * HBase compound bloom filters (ROW and ROWCOL), bit for bit as HBase 2.x
 * writes them (format-specs/bloom.md): HBase's MurmurHash (hash type 1),
 * double hashing, fixed-size chunks, folding of the last chunk, BLMFMET2 meta.
 *
 * Writer lifecycle (driven by the HFile writer, which owns block placement):
 *   new → (add)* interleaved with (next_chunk → chunk_written)* at data-block
 *   boundaries → next_chunk(closing=1) → chunk_written → meta → free
 *
 * Where chunks land. HBase's StoreFileWriter offers each cell to the bloom
 * BEFORE HFileWriterImpl.append decides whether the cell starts a new data
 * block. So, per cell: hfg_bloom_writer_add first; then, if the data block
 * closes, write it (and any leaf-index block), then
 *   while (hfg_bloom_writer_next_chunk(b, 0, &p, &n) == 1) {
 *     write a BLMFBLK2 block with payload p[0..n); chunk_written(b, offset, size);
 *   }
 * At close, after the last data block and the final leaf-index block, the same
 * loop with closing = 1 releases the last (folded) chunk. Done this way, every
 * chunk is released after exactly the data block HBase releases it after.
 *
 * Keys. ROW: the row bytes. ROWCOL: the synthetic KeyValue key
 *   [row length BE16][row][0x00][qualifier][7f ff ff ff ff ff ff ff][ff]
 * (family left out with length 0, LATEST_TIMESTAMP, type Maximum). For ROWCOL
 * the same bytes are hashed, used as the chunk-index first key and written as
 * LAST_BLOOM_KEY.
 *
 * Errors: add/next_chunk/chunk_written/meta return 0 (or 1 where stated) or a
 * negative HFG_E* code. HFG_ENOMEM is sticky (every later call returns it);
 * HFG_EORDER, HFG_ESTATE and HFG_EINVAL leave the writer unchanged.
 */
#ifndef HFG_FORMAT_BLOOM_H
#define HFG_FORMAT_BLOOM_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/types.h"
#include "util/buf.h"

typedef struct hfg_bloom_writer hfg_bloom_writer;

/* error_rate is HBase's float io.storefile.bloom.error.rate (default 0.01f),
 * as configured: for ROWCOL the writer applies HBase's 1 - sqrt(1 - err)
 * itself. chunk_bytes is the io.storefile.bloom.block.size hint (default
 * 131072), max_fold io.storefile.bloom.max.fold (default 7, 0..20).
 * NULL on ENOMEM or bad arguments (type NONE, error_rate outside (0,1), a chunk
 * too small to hold one key, or one of 2^28 bytes or more, whose bit count
 * would overflow HBase's int arithmetic). */
hfg_bloom_writer *hfg_bloom_writer_new(hfg_bloom_type type, float error_rate,
                                       uint32_t chunk_bytes, int max_fold);

/* Chunk parameters HBase would derive (BloomFilterUtil.createBySize). */
typedef struct hfg_bloom_params {
  float error_rate;      /* effective rate (ROWCOL-adjusted) */
  uint32_t byte_size;    /* unfolded chunk size in bytes */
  int32_t hash_count;
  int32_t max_keys;      /* keys per full chunk */
} hfg_bloom_params;

void hfg_bloom_writer_params(const hfg_bloom_writer *b, hfg_bloom_params *out);

/* Offers one cell in cell order; the writer adds a key only when it is new
 * (a new row for ROW; a new row or qualifier for ROWCOL). Borrowed bytes.
 * HFG_EORDER if the key sorts before the previous one; HFG_ESTATE after close. */
int hfg_bloom_writer_add(hfg_bloom_writer *b, const uint8_t *row, size_t row_len,
                         const uint8_t *qual, size_t qual_len);

/* At a data-block boundary (closing = 0) yields the next full chunk, at close
 * (closing = 1) also the last one, folded. Returns 1 and sets data/len when a
 * chunk must be written now (the same chunk again until chunk_written is
 * called), 0 when none. data is borrowed until chunk_written or free. After a
 * call with closing = 1 no more keys may be added. */
int hfg_bloom_writer_next_chunk(hfg_bloom_writer *b, int closing, const uint8_t **data,
                                size_t *len);

/* Like next_chunk, but hands each ready chunk out once, so that several can
 * be on their way at once (blocks encoded on a pool): returns 1 with the next
 * ready chunk not handed out yet, 0 when there is none. data is borrowed until
 * that chunk's chunk_written (or free). */
int hfg_bloom_writer_take_chunk(hfg_bloom_writer *b, int closing, const uint8_t **data,
                                size_t *len);

/* Records the position of the oldest chunk handed out by next_chunk or
 * take_chunk and not recorded yet: the block's file offset and its on-disk
 * size with header and checksums. HFG_ESTATE if no chunk is pending. */
int hfg_bloom_writer_chunk_written(hfg_bloom_writer *b, uint64_t offset,
                                   uint32_t on_disk_size_with_header);

/* Number of keys added; 0 means: write no bloom blocks and no bloom file info. */
uint64_t hfg_bloom_writer_key_count(const hfg_bloom_writer *b);

/* Appends the BLMFMET2 payload. Call after the last chunk was written
 * (HFG_ESTATE otherwise, or when no key was added). */
int hfg_bloom_writer_meta(hfg_bloom_writer *b, hfg_buf *out);

/* LAST_BLOOM_KEY file-info value: the last key added (ROW: the row bytes;
 * ROWCOL: the synthetic key above). NULL with *len = 0 when no key was added.
 * Borrowed until the next add or free. */
const uint8_t *hfg_bloom_writer_last_key(const hfg_bloom_writer *b, size_t *len);

void hfg_bloom_writer_free(hfg_bloom_writer *b);

/* ---- read side (used by the reader and verify) ---- */

/* How the chunk index orders its first keys, from the meta's comparator name. */
enum {
  HFG_BLOOM_ORDER_BYTES = 0,  /* "" (ROW): unsigned lexicographic bytes */
  HFG_BLOOM_ORDER_KV = 1      /* CellComparatorImpl (ROWCOL): KeyValue keys */
};

typedef struct hfg_bloom_meta {
  int32_t version;
  int64_t total_byte_size;
  int32_t hash_count;
  int32_t hash_type;
  int64_t total_key_count;
  int64_t total_max_keys;
  int32_t num_chunks;
  char comparator[128];        /* "" for ROW */
  int key_order;               /* HFG_BLOOM_ORDER_* */
  uint64_t *chunk_offset;      /* num_chunks entries each */
  uint32_t *chunk_on_disk_size;
  uint8_t **chunk_first_key;
  size_t *chunk_first_key_len;
  void *key_mem_;              /* private: storage of the first keys */
} hfg_bloom_meta;

/* Parses a BLMFMET2 payload (starting with the version). Bounded: any
 * malformed input gives HFG_ECORRUPT (HFG_EUNSUPPORTED for a valid HBase meta
 * this reader cannot evaluate: Jenkins hash, hbase:meta comparator) with a
 * message in errmsg (may be NULL), and *out left empty; HFG_ENOMEM on
 * allocation failure. First keys must be strictly ascending. On success free
 * with hfg_bloom_meta_free. */
int hfg_bloom_meta_parse(const uint8_t *p, size_t n, hfg_bloom_meta *out, char *errmsg,
                         size_t errmsg_len);
void hfg_bloom_meta_free(hfg_bloom_meta *m);

/* Bloom key bytes for a lookup: for ROW the row; for ROWCOL the synthetic key
 * HBase hashes (also its chunk-index key). Appends to out. HFG_EINVAL for NONE. */
int hfg_bloom_key(hfg_bloom_type type, const uint8_t *row, size_t row_len, const uint8_t *qual,
                  size_t qual_len, hfg_buf *out);

/* Index of the chunk that may hold key (-1: before the first chunk = absent,
 * or, under KeyValue ordering, a key that is not a KeyValue key). */
int hfg_bloom_meta_find_chunk(const hfg_bloom_meta *m, const uint8_t *key, size_t len);

/* 1 if the chunk's bits say "maybe present", 0 if certainly absent, for hash
 * type 1 (murmur). chunk_len is the block's uncompressed payload size;
 * HFG_EINVAL if it is 0 or 2^28 or more, or hash_count < 1. */
int hfg_bloom_chunk_contains(const uint8_t *chunk, size_t chunk_len, int hash_count,
                             const uint8_t *key, size_t len);

/* Like hfg_bloom_chunk_contains with the hash type and count of the meta. */
int hfg_bloom_meta_chunk_contains(const hfg_bloom_meta *m, const uint8_t *chunk,
                                  size_t chunk_len, const uint8_t *key, size_t len);

/* Bit i of a chunk of nbits bits for the composite hash h1 + i*h2 (wrapping
 * int arithmetic): abs(c % nbits) with Java's truncating %, which equals
 * |c| mod nbits (|INT_MIN| = 2^31 as an unsigned value). Bit p is
 * chunk[p >> 3] & (1 << (p & 7)). */
static inline uint32_t hfg_bloom_bit_index(uint32_t composite, uint32_t nbits) {
  uint32_t a = (composite & 0x80000000u) ? 0u - composite : composite;
  return a % nbits;
}

/* The hash_count bit positions of key in a bit array of nbits bits (1..2^31-1),
 * as HBase's BloomFilterChunk sets them (hash type 1). For inspect and tests. */
void hfg_bloom_bit_positions(const uint8_t *key, size_t len, int hash_count, uint32_t nbits,
                             uint32_t *pos_out);

#endif
