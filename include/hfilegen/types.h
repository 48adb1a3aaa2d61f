/*
 * Shared enums of the public API: compression codecs, bloom types, checksum
 * types and KeyValue cell types, with the numeric values HBase uses on disk
 * where HBase has one (format-specs/ names the HBase source of each).
 */
#ifndef HFILEGEN_TYPES_H
#define HFILEGEN_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

/* Block compression. ZSTD exists in two incompatible on-disk framings and is
 * only ever chosen by one of its two explicit names (format-specs/codecs.md):
 *   HFG_CODEC_ZSTD_HADOOP  "zstd-hadoop": org.apache.hadoop.io.compress.ZStandardCodec,
 *                          a plain zstd frame per block (HBase's default ZSTD class);
 *   HFG_CODEC_ZSTD_HBASE   "zstd-hbase": org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec
 *                          (hbase-compression-zstd), Hadoop block framing around zstd. */
typedef enum hfg_codec {
  HFG_CODEC_NONE = 0,
  HFG_CODEC_GZ,
  HFG_CODEC_SNAPPY,
  HFG_CODEC_LZ4,
  HFG_CODEC_ZSTD_HADOOP,
  HFG_CODEC_ZSTD_HBASE,
  HFG_CODEC_COUNT_
} hfg_codec;

/* General bloom filter type (org.apache.hadoop.hbase.regionserver.BloomType). */
typedef enum hfg_bloom_type {
  HFG_BLOOM_NONE = 0,
  HFG_BLOOM_ROW,
  HFG_BLOOM_ROWCOL,
  HFG_BLOOM_ROWPREFIX /* ROWPREFIX_FIXED_LENGTH: the row's first N bytes (bloom_prefix_length) */
} hfg_bloom_type;

/* HBase block checksum type; values are ChecksumType codes written in headers. */
typedef enum hfg_checksum_type {
  HFG_CHECKSUM_NULL = 0,
  HFG_CHECKSUM_CRC32 = 1,
  HFG_CHECKSUM_CRC32C = 2
} hfg_checksum_type;

/* KeyValue.Type codes. */
typedef enum hfg_cell_type {
  HFG_TYPE_MINIMUM = 0,
  HFG_TYPE_PUT = 4,
  HFG_TYPE_DELETE = 8,
  HFG_TYPE_DELETE_FAMILY_VERSION = 10,
  HFG_TYPE_DELETE_COLUMN = 12,
  HFG_TYPE_DELETE_FAMILY = 14,
  HFG_TYPE_MAXIMUM = 255
} hfg_cell_type;

/* One cell as handed to the writer. All pointers are borrowed for the call. */
typedef struct hfg_cell {
  const uint8_t *row;
  size_t row_len;          /* 1..32767 */
  const uint8_t *family;
  size_t family_len;       /* 0..127; must be the writer's family */
  const uint8_t *qualifier;
  size_t qualifier_len;
  int64_t timestamp;
  uint8_t type;            /* hfg_cell_type */
  const uint8_t *value;
  size_t value_len;
  const uint8_t *tags;     /* serialized tags ([len16][type][value]...), may be NULL */
  size_t tags_len;         /* 0..65535 */
} hfg_cell;

/* Names used on the command line and in job files. parse returns 0 or -1. */
const char *hfg_codec_name(hfg_codec c);
int hfg_codec_parse(const char *name, hfg_codec *out);
const char *hfg_bloom_type_name(hfg_bloom_type t);
int hfg_bloom_type_parse(const char *name, hfg_bloom_type *out);
/* A bloom as build takes it: none, row, rowcol, or rowprefix:N with N the
 * prefix length (1..32767 bytes); ROWPREFIX_FIXED_LENGTH without N is refused
 * (HBase cannot create or read such a family). 0 with *type and *prefix_length
 * set (0 but for rowprefix), or -1 with both untouched. */
int hfg_bloom_spec_parse(const char *spec, hfg_bloom_type *type, uint32_t *prefix_length);
const char *hfg_checksum_type_name(hfg_checksum_type t);
int hfg_checksum_type_parse(const char *name, hfg_checksum_type *out);
const char *hfg_cell_type_name(uint8_t type);  /* "Put", ...; NULL if unknown */
int hfg_cell_type_parse(const char *name, uint8_t *out);


/* Data block encodings (DataBlockEncoding.java; format-specs/encodings.md).
 * Command-line names: none, prefix, diff, fast_diff, row_index_v1. */
typedef enum hfg_encoding {
  HFG_ENCODING_NONE = 0,
  HFG_ENCODING_PREFIX,
  HFG_ENCODING_DIFF,
  HFG_ENCODING_FAST_DIFF,
  HFG_ENCODING_ROW_INDEX_V1,
  HFG_ENCODING_COUNT_
} hfg_encoding;
const char *hfg_encoding_name(hfg_encoding e);       /* "fast_diff", ... */
const char *hfg_encoding_hbase_name(hfg_encoding e); /* "FAST_DIFF", ... (file info) */
int hfg_encoding_hbase_id(hfg_encoding e);           /* the 2-byte id: 0, 2, 3, 4, 7 */
int hfg_encoding_from_id(int id, hfg_encoding *out); /* 0 or -1 */
int hfg_encoding_parse(const char *name, hfg_encoding *out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
