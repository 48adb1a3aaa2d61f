/*
 * The fixed file trailer (format-specs/reader-checks.md, "Trailer"), as
 * FixedFileTrailer.readFromStream / deserializeFromPB read it: the last 4096
 * bytes, magic "TRABLK\"$", a varint-delimited FileTrailerProto, zero padding
 * (not checked by HBase) and the version int (minor << 24 | major) at the end.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hfile.pb-c.h"
#include "read/rd.h"
#include "util/alloc.h"
#include "util/coding.h"

/* allocator_data, when set, points at a flag raised by a failed allocation, so
 * an unpack that returns NULL can be told apart: out of memory vs malformed. */
static void *pb_alloc(void *data, size_t n) {
  void *p = hfg_malloc(n ? n : 1);
  if (!p && data) *(int *)data = 1;
  return p;
}
static void pb_free(void *data, void *p) {
  (void)data;
  hfg_free(p);
}
static ProtobufCAllocator PB_ALLOC = {pb_alloc, pb_free, NULL};

struct ProtobufCAllocator *rd_pb_allocator(void) { return &PB_ALLOC; }

void rd_pb_tracking_allocator(struct ProtobufCAllocator *a, int *nomem) {
  *nomem = 0;
  a->alloc = pb_alloc;
  a->free = pb_free;
  a->allocator_data = nomem;
}

static const char *const CODEC_NAMES[RD_ORD_COUNT] = {
    "lzo", "gz", "none", "snappy", "lz4", "bzip2", "zstd", "lzma", "brotli",
};

const char *hfg_compression_name(int ordinal) {
  return ordinal >= 0 && ordinal < RD_ORD_COUNT ? CODEC_NAMES[ordinal] : NULL;
}

/* FixedFileTrailer.getComparatorClass: the names HBase maps to its own
 * comparators; anything else it loads by class name. */
hfg_comparator_kind rd_comparator_kind(const char *name) {
  static const char *const cell[] = {
      "org.apache.hadoop.hbase.KeyValue$KVComparator",
      "org.apache.hadoop.hbase.KeyValue$KeyComparator",
      "org.apache.hadoop.hbase.CellComparator",
      "org.apache.hadoop.hbase.CellComparatorImpl",
      "org.apache.hadoop.hbase.InnerStoreCellComparator",
  };
  static const char *const meta[] = {
      "org.apache.hadoop.hbase.KeyValue$MetaComparator",
      "org.apache.hadoop.hbase.KeyValue$MetaKeyComparator",
      "org.apache.hadoop.hbase.CellComparator$MetaCellComparator",
      "org.apache.hadoop.hbase.CellComparatorImpl$MetaCellComparator",
      "org.apache.hadoop.hbase.MetaCellComparator",
  };
  static const char *const raw[] = {
      "org.apache.hadoop.hbase.KeyValue$RawBytesComparator",
      "org.apache.hadoop.hbase.util.Bytes$ByteArrayComparator",
  };
  if (!name || !*name) return HFG_CMP_CELL;
  for (size_t i = 0; i < sizeof cell / sizeof *cell; i++)
    if (!strcmp(name, cell[i])) return HFG_CMP_CELL;
  for (size_t i = 0; i < sizeof meta / sizeof *meta; i++)
    if (!strcmp(name, meta[i])) return HFG_CMP_META;
  for (size_t i = 0; i < sizeof raw / sizeof *raw; i++)
    if (!strcmp(name, raw[i])) return HFG_CMP_RAW;
  return HFG_CMP_UNKNOWN;
}

int rd_trailer_parse(hfg_reader *r) {
  hfg_err *e = &r->err;
  hfg_trailer *t = &r->trailer;
  memset(t, 0, sizeof *t);
  t->file_size = r->size;
  t->compression = RD_ORD_NONE;
  if (r->size < RD_TRAILER_SIZE)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "file of %zu bytes is too small to hold the 4096-byte v3 trailer", r->size);
  const uint8_t *tr = r->map + r->size - RD_TRAILER_SIZE;
  uint32_t ver = hfg_get_be32(tr + RD_TRAILER_SIZE - 4);
  t->major_version = (int)(ver & 0x00ffffff);
  t->minor_version = (int)(ver >> 24);
  if (t->major_version == 2)
    return hfg_err_set(e, HFG_EUNSUPPORTED,
                       "trailer: HFile version 2.%d is not supported (v3 only)", t->minor_version);
  if (t->major_version != 3)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "trailer: version bytes %02x %02x %02x %02x at offset %zu are not HFile "
                       "v3 (expected 03 00 00 03)",
                       tr[4092], tr[4093], tr[4094], tr[4095], r->size - 4);
  if (memcmp(tr, "TRABLK\"$", 8) != 0)
    return hfg_err_set(e, HFG_ECORRUPT, "trailer at offset %zu: magic TRABLK\"$ missing",
                       r->size - RD_TRAILER_SIZE);
  uint64_t len;
  const uint8_t *pb_end = tr + RD_TRAILER_SIZE - 4;
  size_t k = hfg_get_varint(tr + 8, pb_end, &len);
  if (!k || len > (uint64_t)(pb_end - (tr + 8 + k)))
    return hfg_err_set(e, HFG_ECORRUPT,
                       "trailer: protobuf length prefix invalid or larger than the trailer");
  t->pb_size = (uint32_t)len;
  ProtobufCAllocator track;
  int nomem;
  rd_pb_tracking_allocator(&track, &nomem);
  Hbase__Pb__FileTrailerProto *m =
      hbase__pb__file_trailer_proto__unpack(&track, (size_t)len, tr + 8 + k);
  if (!m && nomem) return hfg_err_set(e, HFG_ENOMEM, "trailer: out of memory");
  if (!m)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "trailer: FileTrailerProto (%" PRIu64 " bytes) does not parse", len);
  t->file_info_offset = m->file_info_offset;
  t->load_on_open_offset = m->load_on_open_data_offset;
  t->uncompressed_data_index_size = m->uncompressed_data_index_size;
  t->total_uncompressed_bytes = m->total_uncompressed_bytes;
  t->data_index_count = m->data_index_count;
  t->meta_index_count = m->meta_index_count;
  t->entry_count = m->entry_count;
  t->num_data_index_levels = m->num_data_index_levels;
  t->first_data_block_offset = m->has_first_data_block_offset ? (int64_t)m->first_data_block_offset : -1;
  t->last_data_block_offset = m->has_last_data_block_offset ? (int64_t)m->last_data_block_offset : -1;
  if (m->has_compression_codec) t->compression = (int)m->compression_codec;
  t->encryption_key_len = m->has_encryption_key ? m->encryption_key.len : 0;
  int rc = 0;
  if (m->comparator_class_name) {
    r->comparator = hfg_strdup(m->comparator_class_name);
    if (!r->comparator) rc = hfg_err_set(e, HFG_ENOMEM, "out of memory");
    t->comparator = r->comparator;
  }
  hbase__pb__file_trailer_proto__free_unpacked(m, &PB_ALLOC);
  if (rc) return rc;
  r->meta.comparator = rd_comparator_kind(t->comparator);

  /* What the rest of the reader relies on. */
  if (t->compression < 0 || t->compression >= RD_ORD_COUNT)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "trailer: compression codec ordinal %d is not a Compression.Algorithm",
                       t->compression);
  if (t->encryption_key_len)
    return hfg_err_set(e, HFG_EUNSUPPORTED, "trailer: encrypted HFiles are not supported");
  if (t->load_on_open_offset >= r->trailer_off)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "trailer: load_on_open_data_offset %" PRIu64
                       " is not before the trailer at %" PRIu64,
                       t->load_on_open_offset, r->trailer_off);
  if (t->num_data_index_levels < 1 || t->num_data_index_levels > RD_MAX_INDEX_LEVELS)
    return hfg_err_set(e, HFG_ECORRUPT, "trailer: num_data_index_levels %" PRIu32 " out of range",
                       t->num_data_index_levels);
  if (t->entry_count &&
      (t->first_data_block_offset < 0 || t->last_data_block_offset < t->first_data_block_offset ||
       (uint64_t)t->last_data_block_offset >= t->load_on_open_offset))
    return hfg_err_set(e, HFG_ECORRUPT,
                       "trailer: data block offsets first %" PRId64 " / last %" PRId64
                       " invalid for %" PRIu64 " entries before load-on-open offset %" PRIu64,
                       t->first_data_block_offset, t->last_data_block_offset, t->entry_count,
                       t->load_on_open_offset);
  return 0;
}
