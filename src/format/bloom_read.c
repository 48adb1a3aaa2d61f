/*
 * Compound bloom filter read side: format-specs/bloom.md, "Reading".
 *
 * Parses BLMFMET2 as HBase's CompoundBloomFilter constructor does
 * (hbase-server .../io/hfile/CompoundBloomFilter.java, BlockIndexReader.
 * readRootIndex in HFileBlockIndex.java), looks keys up like
 * rootBlockContainingKey and tests bits like BloomFilterUtil.contains.
 *
 * The meta comes from a file we may not have written, so the parser trusts
 * nothing: every length is checked against the bytes left before use, and
 * num_chunks against the smallest possible entry size before anything is
 * allocated, so a hostile meta costs at most O(n) memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format/bloom.h"
#include "format/kv.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/murmur.h"

#define BLOOM_FIXED_LEN 40            /* version .. numChunks */
#define BLOOM_MIN_ENTRY_LEN 13        /* offset 8 + size 4 + empty key 1 */
#define BLOOM_MAX_HASH_COUNT 1024
#define BLOOM_MAX_CHUNK_LEN 268435455u /* chunk_len*8 must fit a Java int */

/* ---- comparator names (FixedFileTrailer.getComparatorClass) ---- */

enum { CMP_BYTES, CMP_KV, CMP_META, CMP_UNKNOWN };

static int classify_comparator(const char *name) {
  static const struct {
    const char *name;
    int kind;
  } names[] = {
      {"", CMP_BYTES},
      /* 1.x ROW blooms named the raw comparator; 2.x maps it to "none". */
      {"org.apache.hadoop.hbase.KeyValue$RawBytesComparator", CMP_BYTES},
      {"org.apache.hadoop.hbase.util.Bytes$ByteArrayComparator", CMP_BYTES},
      {"org.apache.hadoop.hbase.CellComparatorImpl", CMP_KV},
      {"org.apache.hadoop.hbase.CellComparator", CMP_KV},
      {"org.apache.hadoop.hbase.InnerStoreCellComparator", CMP_KV},
      {"org.apache.hadoop.hbase.KeyValue$KVComparator", CMP_KV},
      {"org.apache.hadoop.hbase.KeyValue$KeyComparator", CMP_KV},
      {"org.apache.hadoop.hbase.MetaCellComparator", CMP_META},
      {"org.apache.hadoop.hbase.CellComparatorImpl$MetaCellComparator", CMP_META},
      {"org.apache.hadoop.hbase.CellComparator$MetaCellComparator", CMP_META},
      {"org.apache.hadoop.hbase.KeyValue$MetaComparator", CMP_META},
      {"org.apache.hadoop.hbase.KeyValue$MetaKeyComparator", CMP_META},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(names[i].name, name) == 0) return names[i].kind;
  return CMP_UNKNOWN;
}

/* ---- key orders ---- */


/* ---- parse ---- */

static int meta_fail(char *errmsg, size_t errmsg_len, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int meta_fail(char *errmsg, size_t errmsg_len, int code, const char *fmt, ...) {
  if (errmsg && errmsg_len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errmsg, errmsg_len, fmt, ap);
    va_end(ap);
  }
  return code;
}

#define CORRUPT(...) meta_fail(errmsg, errmsg_len, HFG_ECORRUPT, "bloom meta: " __VA_ARGS__)

int hfg_bloom_meta_parse(const uint8_t *p, size_t n, hfg_bloom_meta *out, char *errmsg,
                         size_t errmsg_len) {
  memset(out, 0, sizeof *out);
  if (errmsg && errmsg_len) errmsg[0] = '\0';
  if (!p || n < BLOOM_FIXED_LEN)
    return CORRUPT("truncated: %zu bytes, the fixed part alone is %d", p ? n : 0,
                   BLOOM_FIXED_LEN);
  hfg_bloom_meta m;
  memset(&m, 0, sizeof m);
  m.version = (int32_t)hfg_get_be32(p);
  m.total_byte_size = (int64_t)hfg_get_be64(p + 4);
  m.hash_count = (int32_t)hfg_get_be32(p + 12);
  m.hash_type = (int32_t)hfg_get_be32(p + 16);
  m.total_key_count = (int64_t)hfg_get_be64(p + 20);
  m.total_max_keys = (int64_t)hfg_get_be64(p + 28);
  m.num_chunks = (int32_t)hfg_get_be32(p + 36);
  if (m.version != 3) return CORRUPT("version %d, expected 3", m.version);
  if (m.hash_type == 0)
    return meta_fail(errmsg, errmsg_len, HFG_EUNSUPPORTED,
                     "bloom meta: hash type 0 (Jenkins) is not supported");
  if (m.hash_type != 1 && m.hash_type != 2) return CORRUPT("invalid hash type %d", m.hash_type);
  if (m.hash_count < 1 || m.hash_count > BLOOM_MAX_HASH_COUNT)
    return CORRUPT("hash count %d out of range", m.hash_count);
  if (m.num_chunks < 0) return CORRUPT("negative chunk count %d", m.num_chunks);
  /* Every chunk holds at least one key and one byte; keys never exceed capacity. */
  if (m.total_byte_size < m.num_chunks || m.total_key_count < m.num_chunks ||
      m.total_max_keys < m.total_key_count || (m.num_chunks == 0 && m.total_key_count != 0))
    return CORRUPT("inconsistent totals: %d chunks, %lld bytes, %lld keys, %lld max keys",
                   m.num_chunks, (long long)m.total_byte_size, (long long)m.total_key_count,
                   (long long)m.total_max_keys);

  const uint8_t *q = p + BLOOM_FIXED_LEN, *end = p + n;
  int64_t name_len;
  size_t used = hfg_get_vlong(q, end, &name_len);
  if (!used) return CORRUPT("truncated comparator name length");
  q += used;
  if (name_len < 0 || name_len > end - q)
    return CORRUPT("comparator name length %lld exceeds the %td bytes left", (long long)name_len,
                   end - q);
  if ((size_t)name_len >= sizeof m.comparator)
    return CORRUPT("comparator name of %lld bytes is too long", (long long)name_len);
  memcpy(m.comparator, q, (size_t)name_len);
  m.comparator[name_len] = '\0';
  if (memchr(q, 0, (size_t)name_len)) return CORRUPT("NUL byte in comparator name");
  q += name_len;
  switch (classify_comparator(m.comparator)) {
    case CMP_BYTES: m.key_order = HFG_BLOOM_ORDER_BYTES; break;
    case CMP_KV: m.key_order = HFG_BLOOM_ORDER_KV; break;
    case CMP_META:
      return meta_fail(errmsg, errmsg_len, HFG_EUNSUPPORTED,
                       "bloom meta: comparator %s (hbase:meta order) is not supported",
                       m.comparator);
    default: return CORRUPT("unknown comparator \"%s\"", m.comparator);
  }

  size_t left = (size_t)(end - q);
  if ((size_t)m.num_chunks > left / BLOOM_MIN_ENTRY_LEN)
    return CORRUPT("%d chunk entries cannot fit in the %zu bytes left", m.num_chunks, left);
  if (m.num_chunks == 0) {
    if (q != end) return CORRUPT("%td trailing bytes", end - q);
    *out = m;
    return 0;
  }

  size_t nc = (size_t)m.num_chunks;
  m.chunk_offset = hfg_calloc(nc, sizeof *m.chunk_offset);
  m.chunk_on_disk_size = hfg_calloc(nc, sizeof *m.chunk_on_disk_size);
  m.chunk_first_key = hfg_calloc(nc, sizeof *m.chunk_first_key);
  m.chunk_first_key_len = hfg_calloc(nc, sizeof *m.chunk_first_key_len);
  if (!m.chunk_offset || !m.chunk_on_disk_size || !m.chunk_first_key || !m.chunk_first_key_len) {
    hfg_bloom_meta_free(&m);
    return meta_fail(errmsg, errmsg_len, HFG_ENOMEM, "bloom meta: out of memory");
  }

  /* First pass: validate the entries, pointing keys into the input. */
  int rc = 0;
  size_t key_total = 0;
  hfg_cell prev_kv = {0}, cur_kv = {0};
  for (size_t i = 0; i < nc && !rc; i++) {
    if (end - q < 12) {
      rc = CORRUPT("chunk entry %zu truncated", i);
      break;
    }
    int64_t off = (int64_t)hfg_get_be64(q);
    int32_t size = (int32_t)hfg_get_be32(q + 8);
    q += 12;
    int64_t klen;
    used = hfg_get_vlong(q, end, &klen);
    if (!used) {
      rc = CORRUPT("chunk entry %zu: truncated key length", i);
      break;
    }
    q += used;
    if (off < 0 || size <= 0) {
      rc = CORRUPT("chunk entry %zu: bad block offset %lld or size %d", i, (long long)off, size);
      break;
    }
    if (klen < 0 || klen > end - q) {
      rc = CORRUPT("chunk entry %zu: key length %lld exceeds the %td bytes left", i,
                   (long long)klen, end - q);
      break;
    }
    m.chunk_offset[i] = (uint64_t)off;
    m.chunk_on_disk_size[i] = (uint32_t)size;
    m.chunk_first_key[i] = (uint8_t *)q;
    m.chunk_first_key_len[i] = (size_t)klen;
    key_total += (size_t)klen;
    q += klen;
    /* Lookups binary-search these keys: they must be strictly ascending in
     * the comparator's order, and KeyValue keys must split. */
    if (m.key_order == HFG_BLOOM_ORDER_KV) {
      if (hfg_kv_parse_key(m.chunk_first_key[i], (size_t)klen, &cur_kv)) {
        rc = CORRUPT("chunk entry %zu: first key is not a KeyValue key", i);
      } else if (i > 0 && hfg_kv_compare(&prev_kv, &cur_kv) >= 0) {
        rc = CORRUPT("chunk entry %zu: first keys not ascending", i);
      }
      prev_kv = cur_kv;
    } else if (i > 0 && hfg_bytes_cmp(m.chunk_first_key[i - 1], m.chunk_first_key_len[i - 1],
                                  m.chunk_first_key[i], (size_t)klen) >= 0) {
      rc = CORRUPT("chunk entry %zu: first keys not ascending", i);
    }
  }
  if (!rc && q != end) rc = CORRUPT("%td trailing bytes", end - q);
  if (rc) {
    hfg_bloom_meta_free(&m); /* the keys still point into the input: nothing to free */
    return rc;
  }

  /* Second pass: copy the keys into one block the meta owns. */
  uint8_t *mem = hfg_malloc(key_total);
  if (!mem) {
    hfg_bloom_meta_free(&m);
    return meta_fail(errmsg, errmsg_len, HFG_ENOMEM, "bloom meta: out of memory");
  }
  m.key_mem_ = mem;
  for (size_t i = 0; i < nc; i++) {
    if (m.chunk_first_key_len[i]) memcpy(mem, m.chunk_first_key[i], m.chunk_first_key_len[i]);
    m.chunk_first_key[i] = mem;
    mem += m.chunk_first_key_len[i];
  }
  *out = m;
  return 0;
}

void hfg_bloom_meta_free(hfg_bloom_meta *m) {
  if (!m) return;
  hfg_free(m->chunk_offset);
  hfg_free(m->chunk_on_disk_size);
  hfg_free(m->chunk_first_key);
  hfg_free(m->chunk_first_key_len);
  hfg_free(m->key_mem_);
  memset(m, 0, sizeof *m);
}

/* ---- lookup ---- */

/* rootBlockContainingKey: the last chunk whose first key is <= key. */
int hfg_bloom_meta_find_chunk(const hfg_bloom_meta *m, const uint8_t *key, size_t len) {
  hfg_cell k, e;
  int kv = m->key_order == HFG_BLOOM_ORDER_KV;
  if (kv && hfg_kv_parse_key(key, len, &k)) return -1;
  int lo = 0, hi = m->num_chunks; /* answer in [lo-1, hi-1] */
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    int c;
    if (kv) {
      hfg_kv_parse_key(m->chunk_first_key[mid], m->chunk_first_key_len[mid], &e); /* checked at parse */
      c = hfg_kv_compare(&e, &k);
    } else {
      c = hfg_bytes_cmp(m->chunk_first_key[mid], m->chunk_first_key_len[mid], key, len);
    }
    if (c <= 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo - 1;
}

typedef uint32_t (*hash_fn)(const void *, size_t, uint32_t);

static int contains_with(hash_fn hash, const uint8_t *chunk, size_t chunk_len, int hash_count,
                         const uint8_t *key, size_t len) {
  if (chunk_len == 0 || chunk_len > BLOOM_MAX_CHUNK_LEN || hash_count < 1) return HFG_EINVAL;
  uint32_t nbits = (uint32_t)chunk_len * 8;
  uint32_t h1 = hash(key, len, 0);
  uint32_t h2 = hash(key, len, h1);
  uint32_t c = h1;
  for (int i = 0; i < hash_count; i++, c += h2) {
    uint32_t pos = hfg_bloom_bit_index(c, nbits);
    if (!(chunk[pos >> 3] & (1u << (pos & 7)))) return 0;
  }
  return 1;
}

int hfg_bloom_chunk_contains(const uint8_t *chunk, size_t chunk_len, int hash_count,
                             const uint8_t *key, size_t len) {
  return contains_with(hfg_murmur_hbase, chunk, chunk_len, hash_count, key, len);
}

int hfg_bloom_meta_chunk_contains(const hfg_bloom_meta *m, const uint8_t *chunk,
                                  size_t chunk_len, const uint8_t *key, size_t len) {
  hash_fn hash;
  switch (m->hash_type) {
    case 1: hash = hfg_murmur_hbase; break;
    case 2: hash = hfg_murmur3_32; break;
    default: return HFG_EINVAL;
  }
  return contains_with(hash, chunk, chunk_len, m->hash_count, key, len);
}

void hfg_bloom_bit_positions(const uint8_t *key, size_t len, int hash_count, uint32_t nbits,
                             uint32_t *pos_out) {
  uint32_t h1 = hfg_murmur_hbase(key, len, 0);
  uint32_t h2 = hfg_murmur_hbase(key, len, h1);
  uint32_t c = h1;
  for (int i = 0; i < hash_count; i++, c += h2) pos_out[i] = hfg_bloom_bit_index(c, nbits);
}
