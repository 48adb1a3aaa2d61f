/*
 * The FILE_INFO block (format-specs/reader-checks.md, "File info"): "PBUF",
 * a varint length, a FileInfoProto of BytesBytesPair entries (HFileInfo.read /
 * parsePB), and the flags HFileInfo.loadMetaInfo derives from it, which decide
 * the cell layout of every data block:
 *   includesTags   <=> hfile.MAX_TAGS_LEN present (its value is not read)
 *   includesMvcc   <=> KEY_VALUE_VERSION present and == 1
 *   decodeMvcc     <=> includesMvcc and MAX_MEMSTORE_TS_KEY > 0
 * The reader stays lenient where HBase is (missing AVG_* only fail in verify).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hfile.pb-c.h"
#include "read/rd.h"
#include "util/alloc.h"
#include "util/coding.h"

const rd_fi_entry *rd_fileinfo_find(const hfg_reader *r, const char *key) {
  size_t n = strlen(key);
  for (size_t i = 0; i < r->fi_n; i++)
    if (r->fi[i].key_len == n && memcmp(r->fi[i].key, key, n) == 0) return &r->fi[i];
  return NULL;
}

void rd_fileinfo_free(hfg_reader *r) {
  if (r->fi_proto)
    hbase__pb__file_info_proto__free_unpacked((Hbase__Pb__FileInfoProto *)r->fi_proto,
                                              rd_pb_allocator());
  r->fi_proto = NULL;
  hfg_free(r->fi);
  r->fi = NULL;
  r->fi_n = 0;
}

int rd_fileinfo_parse(hfg_reader *r) {
  hfg_err *e = &r->err;
  const uint8_t *p = r->fi_blk.data;
  size_t n = r->fi_blk.len;
  uint64_t off = r->fi_blk.info.offset;
  if (n < 4 || memcmp(p, "PBUF", 4) != 0)
    return hfg_err_set(e, HFG_EUNSUPPORTED,
                       "file info block at offset %" PRIu64
                       ": no \"PBUF\" magic (pre-protobuf Writable file info is not supported)",
                       off);
  uint64_t len;
  size_t k = hfg_get_varint(p + 4, p + n, &len);
  if (!k || len > n - 4 - k)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "file info block at offset %" PRIu64
                       ": protobuf length prefix invalid or larger than the block",
                       off);
  ProtobufCAllocator track;
  int nomem;
  rd_pb_tracking_allocator(&track, &nomem);
  Hbase__Pb__FileInfoProto *m = hbase__pb__file_info_proto__unpack(&track, (size_t)len, p + 4 + k);
  if (!m && nomem) return hfg_err_set(e, HFG_ENOMEM, "file info: out of memory");
  if (!m)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "file info block at offset %" PRIu64 ": FileInfoProto does not parse", off);
  r->fi_proto = m;
  if (m->n_map_entry) {
    r->fi = hfg_calloc(m->n_map_entry, sizeof *r->fi);
    if (!r->fi) return hfg_err_set(e, HFG_ENOMEM, "out of memory");
  }
  r->fi_n = m->n_map_entry;
  for (size_t i = 0; i < m->n_map_entry; i++) {
    r->fi[i].key = m->map_entry[i]->first.data;
    r->fi[i].key_len = m->map_entry[i]->first.len;
    r->fi[i].val = m->map_entry[i]->second.data;
    r->fi[i].val_len = m->map_entry[i]->second.len;
  }

  hfg_file_meta *mt = &r->meta;
  const rd_fi_entry *f;
  mt->avg_key_len = -1;
  mt->avg_value_len = -1;
  if ((f = rd_fileinfo_find(r, "hfile.AVG_KEY_LEN")) && f->val_len >= 4)
    mt->avg_key_len = (int32_t)hfg_get_be32(f->val);
  if ((f = rd_fileinfo_find(r, "hfile.AVG_VALUE_LEN")) && f->val_len >= 4)
    mt->avg_value_len = (int32_t)hfg_get_be32(f->val);
  if ((f = rd_fileinfo_find(r, "hfile.LASTKEY"))) {
    mt->last_key = f->val;
    mt->last_key_len = f->val_len;
  }
  mt->includes_tags = rd_fileinfo_find(r, "hfile.MAX_TAGS_LEN") != NULL;
  /* HFileInfo: TAGS_COMPRESSED is read only when the file has tags (Bytes.toBoolean: 1 byte) */
  if (mt->includes_tags && (f = rd_fileinfo_find(r, "hfile.TAGS_COMPRESSED")) &&
      f->val_len == 1)
    mt->tags_compressed = f->val[0] != 0;
  if ((f = rd_fileinfo_find(r, "KEY_VALUE_VERSION"))) {
    /* Bytes.toInt needs at least 4 bytes */
    if (f->val_len < 4)
      return hfg_err_set(e, HFG_ECORRUPT, "file info: KEY_VALUE_VERSION has %zu bytes, not 4",
                         f->val_len);
    mt->includes_mvcc = hfg_get_be32(f->val) == 1;
  }
  if (mt->includes_mvcc) {
    f = rd_fileinfo_find(r, "MAX_MEMSTORE_TS_KEY");
    if (!f || f->val_len < 8)
      return hfg_err_set(e, HFG_ECORRUPT,
                         "file info: KEY_VALUE_VERSION is 1 but MAX_MEMSTORE_TS_KEY is %s",
                         f ? "shorter than 8 bytes" : "missing");
    mt->max_memstore_ts = (int64_t)hfg_get_be64(f->val);
    mt->decode_mvcc = mt->max_memstore_ts > 0;
  }
  mt->bloom_type = HFG_BLOOM_NONE;
  if ((f = rd_fileinfo_find(r, "BLOOM_FILTER_TYPE"))) {
    if (f->val_len == 3 && !memcmp(f->val, "ROW", 3)) mt->bloom_type = HFG_BLOOM_ROW;
    else if (f->val_len == 6 && !memcmp(f->val, "ROWCOL", 6)) mt->bloom_type = HFG_BLOOM_ROWCOL;
    else if (f->val_len == 22 && !memcmp(f->val, "ROWPREFIX_FIXED_LENGTH", 22))
      mt->bloom_type = HFG_BLOOM_ROWPREFIX;
  }
  mt->bloom_prefix_length = 0;
  if ((f = rd_fileinfo_find(r, "BLOOM_FILTER_PARAM")) && f->val_len == 4) {
    int32_t plen = (int32_t)hfg_get_be32(f->val);
    if (plen > 0) mt->bloom_prefix_length = (uint32_t)plen;
  }
  return 0;
}

/* ---- public accessors ---- */

size_t hfg_reader_fileinfo_count(const hfg_reader *r) { return r->open_code < 0 ? 0 : r->fi_n; }

int hfg_reader_fileinfo_entry(const hfg_reader *r, size_t i, const uint8_t **key, size_t *key_len,
                              const uint8_t **value, size_t *value_len) {
  if (r->open_code < 0) return r->open_code;
  if (i >= r->fi_n) return HFG_EINVAL;
  *key = r->fi[i].key;
  *key_len = r->fi[i].key_len;
  *value = r->fi[i].val;
  *value_len = r->fi[i].val_len;
  return 0;
}

int hfg_reader_fileinfo_get(const hfg_reader *r, const char *key, const uint8_t **value,
                            size_t *value_len) {
  if (r->open_code < 0) return r->open_code;
  const rd_fi_entry *f = rd_fileinfo_find(r, key);
  if (!f) return 0;
  *value = f->val;
  *value_len = f->val_len;
  return 1;
}

int rd_fileinfo_encoding_id(const hfg_reader *r) {
  static const struct {
    const char *name;
    int id;
  } known[] = {{"NONE", 0}, {"PREFIX", 2}, {"DIFF", 3}, {"FAST_DIFF", 4}, {"ROW_INDEX_V1", 7}};
  const rd_fi_entry *f = rd_fileinfo_find(r, "DATA_BLOCK_ENCODING");
  if (!f) return 0;
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (f->val_len == strlen(known[i].name) && !memcmp(f->val, known[i].name, f->val_len))
      return known[i].id;
  return -1;
}
