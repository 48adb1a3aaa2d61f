/*
 * Compound bloom filter writer: format-specs/bloom.md, "Writing".
 *
 * Mirrors HBase 2.x CompoundBloomFilterWriter + BloomFilterChunk +
 * BloomFilterUtil (hbase-server .../io/hfile/CompoundBloomFilterWriter.java,
 * .../util/BloomFilterChunk.java, .../util/BloomFilterUtil.java) and the
 * new-key rules of RowBloomContext / RowColBloomContext. The read side is in
 * bloom_read.c.
 *
 * Invariants:
 *  - every chunk buffer is allocated at the full (unfolded) byte size and bits
 *    are set against the full bit count; folding ORs the halves into the
 *    prefix, which is exactly what HBase's reader recomputes with the smaller
 *    size (|x| mod N*2^k mod N = |x| mod N);
 *  - a chunk is queued ("ready") when a new key arrives and it is full, or at
 *    next_chunk when it is full or closing: the two places HBase calls
 *    enqueueReadyChunk. Queued chunks leave in FIFO order;
 *  - the buffer of a written chunk is kept as `spare` for the next chunk, so a
 *    steady stream allocates one buffer pair, not one per chunk.
 */
#include <math.h>
#include <string.h>

#include "format/bloom.h"
#include "format/kv.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/murmur.h"

#define BLOOM_META_VERSION 3     /* CompoundBloomFilterBase.VERSION */
#define BLOOM_HASH_MURMUR 1      /* Hash.MURMUR_HASH */
#define BLOOM_MAX_BYTE_SIZE 268435455u  /* byteSize*8 must fit a Java int */
#define BLOOM_MAX_FOLD 20
#define KV_COMPARATOR_NAME "org.apache.hadoop.hbase.CellComparatorImpl"
#define ROWCOL_KEY_OVERHEAD 12   /* row length 2 + family length 1 + ts 8 + type 1 */

typedef struct ready_chunk {
  uint8_t *bits;          /* owned; allocated at the full byte size */
  uint32_t byte_size;     /* after folding */
  uint8_t *first_key;     /* owned */
  size_t first_key_len;
} ready_chunk;

struct hfg_bloom_writer {
  hfg_bloom_type type;
  hfg_bloom_params params;
  uint32_t nbits;          /* params.byte_size * 8 */
  uint32_t nbits_mask;     /* nbits - 1 when nbits is a power of two, else 0 */

  uint8_t *cur;            /* current chunk, NULL between chunks */
  uint8_t *cur_first_key;
  size_t cur_first_key_len;
  int32_t cur_keys;
  uint8_t *spare;          /* a recycled full-size buffer, or NULL */

  ready_chunk *queue;      /* ready chunks are queue[q_head .. q_len) */
  size_t q_head, q_len, q_cap;
  size_t pending;          /* queue[q_head .. q_head + pending) were handed out */

  hfg_buf index;           /* root index entries of the chunks written */
  hfg_buf last;            /* the last key added */
  int have_last;

  uint64_t total_keys;
  int64_t total_byte_size; /* sums of post-fold sizes, as HBase's meta */
  int64_t total_max_keys;
  int32_t num_chunks;
  int closed;
  int err;                 /* sticky HFG_ENOMEM */
};

/* ---- sizing (BloomFilterUtil) ---- */

/* computeFoldableByteSize: round the byte count up to a multiple of 2^fold. */
static uint64_t foldable_byte_size(uint64_t bits, int fold) {
  uint64_t bytes = (bits + 7) / 8;
  uint64_t mask = ((uint64_t)1 << fold) - 1;
  if (bytes & mask) bytes = ((bytes >> fold) + 1) << fold;
  return bytes;
}

/* createBySize, with HBase's double arithmetic on the float error rate widened
 * to double. The rounding steps (long truncation, long division, ceil) are
 * where a sloppier formula would pick a different hash count or maxKeys. */
static int compute_params(hfg_bloom_type type, float err_cfg, uint32_t hint, int max_fold,
                          hfg_bloom_params *p) {
  float err = err_cfg;
  if (type == HFG_BLOOM_ROWCOL) {
    /* BloomFilterFactory: err = (float)(1 - Math.sqrt(1 - err)); the inner
     * 1 - err is float arithmetic, the rest double. */
    float one_minus = 1.0f - err;
    err = (float)(1.0 - sqrt((double)one_minus));
  }
  if (!(err > 0.0f && err < 1.0f)) return HFG_EINVAL;
  /* The writer pre-rounds the hint, createBySize rounds again (a no-op). */
  uint64_t bytes = foldable_byte_size(foldable_byte_size((uint64_t)hint * 8, max_fold) * 8,
                                      max_fold);
  if (bytes == 0 || bytes > BLOOM_MAX_BYTE_SIZE) return HFG_EINVAL;
  int64_t bits = (int64_t)bytes * 8;
  const double log2_squared = log(2.0) * log(2.0);
  double ideal = (double)bits * (log2_squared / -log((double)err));
  if (!(ideal >= 1.0 && ideal < 2147483648.0)) return HFG_EINVAL;
  int64_t ideal_keys = (int64_t)ideal;
  double hc = ceil(log(2.0) * (double)(bits / ideal_keys));
  if (!(hc >= 1.0 && hc <= 1024.0)) return HFG_EINVAL;
  int32_t hash_count = (int32_t)hc;
  double mk = (double)(-bits) * 1.0 / hash_count *
              log(1 - exp(log((double)err) / hash_count));
  if (!(mk >= 1.0 && mk < 2147483648.0)) return HFG_EINVAL;
  p->error_rate = err;
  p->byte_size = (uint32_t)bytes;
  p->hash_count = hash_count;
  p->max_keys = (int32_t)(int64_t)mk;
  return 0;
}

hfg_bloom_writer *hfg_bloom_writer_new(hfg_bloom_type type, float error_rate,
                                       uint32_t chunk_bytes, int max_fold) {
  if (type != HFG_BLOOM_ROW && type != HFG_BLOOM_ROWCOL) return NULL;
  if (max_fold < 0 || max_fold > BLOOM_MAX_FOLD || chunk_bytes == 0) return NULL;
  hfg_bloom_params params;
  if (compute_params(type, error_rate, chunk_bytes, max_fold, &params)) return NULL;
  hfg_bloom_writer *b = hfg_calloc(1, sizeof *b);
  if (!b) return NULL;
  b->type = type;
  b->params = params;
  b->nbits = params.byte_size * 8;
  b->nbits_mask = (b->nbits & (b->nbits - 1)) == 0 ? b->nbits - 1 : 0;
  return b;
}

void hfg_bloom_writer_params(const hfg_bloom_writer *b, hfg_bloom_params *out) {
  *out = b->params;
}

/* ---- keys ---- */

/* Order of (row, qual) against the last key added: <0, 0 (same bloom key),
 * >0. RowBloomContext compares rows; RowColBloomContext rows and columns
 * (the family is the same for the whole file). */
static int cmp_last(const hfg_bloom_writer *b, const uint8_t *row, size_t row_len,
                    const uint8_t *qual, size_t qual_len) {
  const uint8_t *k = b->last.p;
  if (b->type == HFG_BLOOM_ROW) return hfg_bytes_cmp(row, row_len, k, b->last.len);
  size_t lrow = hfg_get_be16(k);
  int c = hfg_bytes_cmp(row, row_len, k + 2, lrow);
  if (c) return c;
  return hfg_bytes_cmp(qual, qual_len, k + 3 + lrow,
                          b->last.len - lrow - ROWCOL_KEY_OVERHEAD);
}

int hfg_bloom_key(hfg_bloom_type type, const uint8_t *row, size_t row_len, const uint8_t *qual,
                  size_t qual_len, hfg_buf *out) {
  if (type == HFG_BLOOM_ROW) return hfg_buf_append(out, row, row_len);
  if (type != HFG_BLOOM_ROWCOL || row_len > 0x7fff) return HFG_EINVAL;
  /* RowColBloomHashKey: [rowlen BE16][row][famlen 0][qual][LATEST_TIMESTAMP][Maximum]. */
  size_t n = row_len + qual_len + ROWCOL_KEY_OVERHEAD;
  if (n < qual_len || hfg_buf_reserve(out, n)) return HFG_ENOMEM;
  uint8_t *p = out->p + out->len;
  hfg_put_be16(p, (uint16_t)row_len);
  p += 2;
  if (row_len) memcpy(p, row, row_len);
  p += row_len;
  *p++ = 0;
  if (qual_len) memcpy(p, qual, qual_len);
  p += qual_len;
  hfg_put_be64(p, (uint64_t)INT64_MAX);
  p[8] = 0xff;
  out->len += n;
  return 0;
}

/* ---- chunks ---- */

static int fail(hfg_bloom_writer *b, int code) {
  if (code == HFG_ENOMEM) b->err = code;
  return code;
}

/* BloomFilterChunk.compactBloom: halve while the size is even and the halved
 * capacity still exceeds twice the keys present. A full chunk never folds. */
static void fold_chunk(uint8_t *bits, uint32_t *byte_size, int32_t *max_keys, int32_t keys) {
  if (keys <= 0) return;
  uint32_t pieces = 1, size = *byte_size;
  int32_t mk = *max_keys;
  while ((size & 1) == 0 && (int64_t)mk > (int64_t)keys * 2) {
    pieces <<= 1;
    size >>= 1;
    mk >>= 1;
  }
  if (pieces == 1) return;
  for (uint32_t piece = 1; piece < pieces; piece++) {
    const uint8_t *src = bits + (size_t)piece * size;
    for (uint32_t i = 0; i < size; i++) bits[i] |= src[i];
  }
  *byte_size = size;
  *max_keys = mk;
}

/* enqueueReadyChunk: fold the current chunk, queue it, add its post-fold size
 * and capacity to the totals. On ENOMEM the chunk stays current. */
static int enqueue_current(hfg_bloom_writer *b) {
  if (b->q_len == b->q_cap) {
    if (b->q_head > 0) {
      memmove(b->queue, b->queue + b->q_head, (b->q_len - b->q_head) * sizeof *b->queue);
      b->q_len -= b->q_head;
      b->q_head = 0;
    } else {
      size_t cap = b->q_cap ? b->q_cap * 2 : 4;
      ready_chunk *q = hfg_realloc(b->queue, cap * sizeof *q);
      if (!q) return HFG_ENOMEM;
      b->queue = q;
      b->q_cap = cap;
    }
  }
  uint32_t size = b->params.byte_size;
  int32_t max_keys = b->params.max_keys;
  fold_chunk(b->cur, &size, &max_keys, b->cur_keys);
  b->queue[b->q_len++] = (ready_chunk){b->cur, size, b->cur_first_key, b->cur_first_key_len};
  b->total_byte_size += size;
  b->total_max_keys += max_keys;
  b->cur = NULL;
  b->cur_first_key = NULL;
  b->cur_first_key_len = 0;
  b->cur_keys = 0;
  return 0;
}

static int start_chunk(hfg_bloom_writer *b, const uint8_t *key, size_t len) {
  uint8_t *first = hfg_memdup(key, len);
  if (!first) return HFG_ENOMEM;
  uint8_t *bits = b->spare;
  if (bits) {
    memset(bits, 0, b->params.byte_size);
    b->spare = NULL;
  } else {
    bits = hfg_calloc(b->params.byte_size, 1);
    if (!bits) {
      hfg_free(first);
      return HFG_ENOMEM;
    }
  }
  b->cur = bits;
  b->cur_first_key = first;
  b->cur_first_key_len = len;
  b->cur_keys = 0;
  b->num_chunks++;
  return 0;
}

/* BloomFilterChunk.add: h1 = hash(key, 0), h2 = hash(key, h1), bit i at
 * abs((h1 + i*h2) % bits). The power-of-two case (the default 2^20 bits)
 * avoids the division. Everything the loop reads is copied to locals first:
 * the stores through uint8_t * would otherwise make the compiler reload the
 * writer's fields on every bit. */
static void set_bits(hfg_bloom_writer *b, const uint8_t *key, size_t len) {
  uint32_t h1 = hfg_murmur_hbase_inline(key, len, 0);
  uint32_t h2 = hfg_murmur_hbase_inline(key, len, h1);
  uint8_t *bits = b->cur;
  const int k = b->params.hash_count;
  const uint32_t mask = b->nbits_mask, nbits = b->nbits;
  uint32_t c = h1;
  if (mask) {
    for (int i = 0; i < k; i++, c += h2) {
      uint32_t sign = 0u - (c >> 31);
      uint32_t pos = ((c ^ sign) - sign) & mask; /* |c| mod 2^n */
      bits[pos >> 3] |= (uint8_t)(1u << (pos & 7));
    }
  } else {
    for (int i = 0; i < k; i++, c += h2) {
      uint32_t pos = hfg_bloom_bit_index(c, nbits);
      bits[pos >> 3] |= (uint8_t)(1u << (pos & 7));
    }
  }
}

int hfg_bloom_writer_add(hfg_bloom_writer *b, const uint8_t *row, size_t row_len,
                         const uint8_t *qual, size_t qual_len) {
  if (b->err) return b->err;
  if (b->closed) return HFG_ESTATE;
  if (row_len > 0x7fff) return HFG_EINVAL;
  if (b->type == HFG_BLOOM_ROW) qual_len = 0;
  if (b->have_last) {
    int c = cmp_last(b, row, row_len, qual, qual_len);
    if (c == 0) return 0;  /* same row (ROW) or same row and column (ROWCOL) */
    if (c < 0) return HFG_EORDER;
  }
  /* The new key replaces the last one in place: room first, so a failed
   * reservation leaves the old key intact. */
  size_t klen = b->type == HFG_BLOOM_ROW ? row_len : row_len + qual_len + ROWCOL_KEY_OVERHEAD;
  if (klen > b->last.len && hfg_buf_reserve(&b->last, klen - b->last.len))
    return fail(b, HFG_ENOMEM);
  b->last.len = 0;
  if (b->type == HFG_BLOOM_ROW) {
    hfg_copy(b->last.p, row, row_len);
    b->last.len = row_len;
  } else {
    hfg_bloom_key(b->type, row, row_len, qual, qual_len, &b->last); /* cannot fail now */
  }
  b->have_last = 1;

  int rc;
  if (b->cur && b->cur_keys >= b->params.max_keys && (rc = enqueue_current(b)))
    return fail(b, rc);
  if (!b->cur && (rc = start_chunk(b, b->last.p, b->last.len))) return fail(b, rc);
  set_bits(b, b->last.p, b->last.len);
  b->cur_keys++;
  b->total_keys++;
  return 0;
}

int hfg_bloom_writer_next_chunk(hfg_bloom_writer *b, int closing, const uint8_t **data,
                                size_t *len) {
  *data = NULL;
  *len = 0;
  if (b->err) return b->err;
  /* shouldWriteBlock → enqueueReadyChunk(closing). */
  if (b->cur && (closing || b->cur_keys >= b->params.max_keys)) {
    int rc = enqueue_current(b);
    if (rc) return fail(b, rc);
  }
  if (closing) b->closed = 1;
  if (b->q_head == b->q_len) return 0;
  const ready_chunk *r = &b->queue[b->q_head];
  *data = r->bits;
  *len = r->byte_size;
  if (!b->pending) b->pending = 1;
  return 1;
}

int hfg_bloom_writer_take_chunk(hfg_bloom_writer *b, int closing, const uint8_t **data,
                                size_t *len) {
  *data = NULL;
  *len = 0;
  if (b->err) return b->err;
  if (b->cur && (closing || b->cur_keys >= b->params.max_keys)) {
    int rc = enqueue_current(b);
    if (rc) return fail(b, rc);
  }
  if (closing) b->closed = 1;
  if (b->q_head + b->pending == b->q_len) return 0;
  const ready_chunk *r = &b->queue[b->q_head + b->pending++];
  *data = r->bits;
  *len = r->byte_size;
  return 1;
}

int hfg_bloom_writer_chunk_written(hfg_bloom_writer *b, uint64_t offset,
                                   uint32_t on_disk_size_with_header) {
  if (b->err) return b->err;
  if (!b->pending) return HFG_ESTATE;
  if (offset > (uint64_t)INT64_MAX || on_disk_size_with_header > (uint32_t)INT32_MAX)
    return HFG_EINVAL;
  ready_chunk *r = &b->queue[b->q_head];
  /* BlockIndexChunk.writeRoot entry: offset, on-disk size, vint key length, key. */
  size_t need = 8 + 4 + HFG_VLONG_MAX + r->first_key_len;
  if (hfg_buf_reserve(&b->index, need)) return fail(b, HFG_ENOMEM);
  hfg_buf_put_be64(&b->index, offset);
  hfg_buf_put_be32(&b->index, on_disk_size_with_header);
  hfg_buf_put_vlong(&b->index, (int64_t)r->first_key_len);
  hfg_buf_append(&b->index, r->first_key, r->first_key_len);

  if (!b->spare) {
    b->spare = r->bits;
  } else {
    hfg_free(r->bits);
  }
  hfg_free(r->first_key);
  if (++b->q_head == b->q_len) b->q_head = b->q_len = 0;
  b->pending--;
  return 0;
}

uint64_t hfg_bloom_writer_key_count(const hfg_bloom_writer *b) { return b->total_keys; }

int hfg_bloom_writer_meta(hfg_bloom_writer *b, hfg_buf *out) {
  if (b->err) return b->err;
  if (!b->closed || b->cur || b->q_head != b->q_len || b->total_keys == 0) return HFG_ESTATE;
  const char *cmp = b->type == HFG_BLOOM_ROWCOL ? KV_COMPARATOR_NAME : "";
  size_t cmp_len = strlen(cmp);
  /* Reserve everything first so that `out` is either complete or untouched. */
  if (hfg_buf_reserve(out, 40 + 1 + cmp_len + b->index.len)) return fail(b, HFG_ENOMEM);
  /* CompoundBloomFilterWriter.MetaWriter.write */
  hfg_buf_put_be32(out, BLOOM_META_VERSION);
  hfg_buf_put_be64(out, (uint64_t)b->total_byte_size);
  hfg_buf_put_be32(out, (uint32_t)b->params.hash_count);
  hfg_buf_put_be32(out, BLOOM_HASH_MURMUR);
  hfg_buf_put_be64(out, b->total_keys);
  hfg_buf_put_be64(out, (uint64_t)b->total_max_keys);
  hfg_buf_put_be32(out, (uint32_t)b->num_chunks);
  hfg_buf_put_vlong(out, (int64_t)cmp_len); /* Bytes.writeByteArray; null → 0 */
  hfg_buf_append(out, cmp, cmp_len);
  hfg_buf_append(out, b->index.p, b->index.len);
  return 0;
}

const uint8_t *hfg_bloom_writer_last_key(const hfg_bloom_writer *b, size_t *len) {
  if (!b->have_last) {
    *len = 0;
    return NULL;
  }
  *len = b->last.len;
  return b->last.p;
}

void hfg_bloom_writer_free(hfg_bloom_writer *b) {
  if (!b) return;
  hfg_free(b->cur);
  hfg_free(b->cur_first_key);
  hfg_free(b->spare);
  for (size_t i = b->q_head; i < b->q_len; i++) {
    hfg_free(b->queue[i].bits);
    hfg_free(b->queue[i].first_key);
  }
  hfg_free(b->queue);
  hfg_buf_free(&b->index);
  hfg_buf_free(&b->last);
  hfg_free(b);
}
