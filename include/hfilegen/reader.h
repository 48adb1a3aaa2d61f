/*
 * hfilegen reader: an independent reader and verifier of HBase HFile v3 files
 * (format-specs/reader-checks.md). It shares no encoding code with the writer:
 * it decodes every structure itself, bounded by the file size, so it can judge
 * the writer's output and survive hostile input.
 *
 * Layers of the API, each usable on its own:
 *   open/close     trailer + load-on-open section (data root index, meta index,
 *                  file info, bloom metas) are read and checked at open
 *   trailer/meta   decoded trailer fields, file info map and the flags derived
 *                  from it (tags, mvcc)
 *   index          root entries at once; the whole multi-level index on demand
 *   blocks         header of / checked and decompressed payload of any block
 *   scanner        cells in file order, seek by key or row
 *   bloom          the general bloom's "might contain" answer for a row(/qualifier)
 *   stats, verify  whole-file passes
 *
 * Errors: every fallible call returns 0 (or a documented positive value) or a
 * negative HFG_E* code; the reader keeps a message naming what failed ("block
 * at offset 4096 (DATABLK*): checksum mismatch in chunk 0 ..."), read with
 * hfg_reader_errmsg(). Messages never include the file name: callers add it.
 * A reader is single-threaded; separate readers of one file are independent.
 * Pointers returned by accessors are borrowed from the reader and stay valid
 * until hfg_reader_close unless said otherwise.
 */
#ifndef HFILEGEN_READER_H
#define HFILEGEN_READER_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/status.h"
#include "hfilegen/types.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

typedef struct hfg_reader hfg_reader;

/* ---- open / close ---- */

/* Opens an HFile by path (mapped read-only). On failure *out still receives a
 * reader holding the error message (read it with hfg_reader_errmsg, then close
 * it) unless the handle itself could not be allocated: then *out is NULL and
 * HFG_ENOMEM is returned. Every other call on a reader whose open failed
 * returns the open's error code. */
int hfg_reader_open(const char *path, hfg_reader **out);

/* Same over a caller's buffer, which is borrowed and must outlive the reader. */
int hfg_reader_open_mem(const uint8_t *data, size_t len, hfg_reader **out);

/* Closes the reader and frees everything it returned. NULL is a no-op. */
void hfg_reader_close(hfg_reader *r);

/* The message of the last error ("" if none) and its code (0 if none). */
const char *hfg_reader_errmsg(const hfg_reader *r);
int hfg_reader_errcode(const hfg_reader *r);

/* Forgets the last error of an open reader (a failed open cannot be cleared). */
void hfg_reader_clear_error(hfg_reader *r);

/* Block checksums are verified on every block read unless turned off (for
 * looking into a damaged file). On by default. */
void hfg_reader_set_verify_checksums(hfg_reader *r, int on);

/* ---- trailer ---- */

typedef struct hfg_trailer {
  uint64_t file_size;
  int major_version;                 /* 3 */
  int minor_version;                 /* 3 for HBase 2.x */
  uint32_t pb_size;                  /* bytes of the FileTrailerProto message */
  uint64_t file_info_offset;
  uint64_t load_on_open_offset;
  uint64_t uncompressed_data_index_size;
  uint64_t total_uncompressed_bytes;
  uint32_t data_index_count;
  uint32_t meta_index_count;
  uint64_t entry_count;
  uint32_t num_data_index_levels;
  int64_t first_data_block_offset;   /* -1 in an empty file */
  int64_t last_data_block_offset;    /* start of the last DATA block; -1 if empty */
  const char *comparator;            /* field 11 as written; NULL when absent */
  int compression;                   /* Compression.Algorithm ordinal (2 = NONE when absent) */
  size_t encryption_key_len;         /* 0: not encrypted */
} hfg_trailer;

const hfg_trailer *hfg_reader_trailer(const hfg_reader *r);

/* HBase's name of a Compression.Algorithm ordinal ("gz", "none", "snappy",
 * "lz4", "zstd", ...); NULL when unknown. */
const char *hfg_compression_name(int ordinal);

/* How the trailer's comparator name orders cells. */
typedef enum hfg_comparator_kind {
  HFG_CMP_CELL = 0,  /* KeyValue$KVComparator, CellComparator(Impl), InnerStoreCellComparator */
  HFG_CMP_META,      /* hbase:meta comparators (rows with ',' fields) */
  HFG_CMP_RAW,       /* KeyValue$RawBytesComparator, Bytes$ByteArrayComparator */
  HFG_CMP_UNKNOWN    /* another class name: read with cell order, not judged */
} hfg_comparator_kind;

/* ---- file info and the flags derived from it ---- */

typedef struct hfg_file_meta {
  int includes_tags;                 /* hfile.MAX_TAGS_LEN present: cells carry tagsLength */
  int includes_mvcc;                 /* KEY_VALUE_VERSION == 1: cells carry an mvcc vlong */
  int decode_mvcc;                   /* MAX_MEMSTORE_TS_KEY > 0 (else 1 byte per cell is skipped) */
  int64_t max_memstore_ts;
  int32_t avg_key_len;
  int32_t avg_value_len;
  hfg_comparator_kind comparator;
  const uint8_t *first_key;          /* data root index key 0 (NULL when the index is empty) */
  size_t first_key_len;
  const uint8_t *last_key;           /* hfile.LASTKEY (NULL when absent) */
  size_t last_key_len;
  hfg_bloom_type bloom_type;         /* BLOOM_FILTER_TYPE (NONE when absent or unknown) */
  int has_bloom_meta;                /* a BLMFMET2 block is present */
  int has_delete_family_bloom_meta;  /* a DFBLMET2 block is present */
  uint32_t bloom_prefix_length;      /* ROWPREFIX: BLOOM_FILTER_PARAM (0 when absent or bad) */
  int tags_compressed;               /* hfile.TAGS_COMPRESSED true (with tags): encoded blocks
                                        hold dictionary-compressed tags */
} hfg_file_meta;

const hfg_file_meta *hfg_reader_meta(const hfg_reader *r);

/* File info entries in file order. Returns 0, or HFG_EINVAL if i is out of range. */
size_t hfg_reader_fileinfo_count(const hfg_reader *r);
int hfg_reader_fileinfo_entry(const hfg_reader *r, size_t i, const uint8_t **key, size_t *key_len,
                              const uint8_t **value, size_t *value_len);
/* Looks a key up: 1 and the value when present, 0 when absent. */
int hfg_reader_fileinfo_get(const hfg_reader *r, const char *key, const uint8_t **value,
                            size_t *value_len);

/* ---- block index ---- */

typedef struct hfg_index_entry {
  uint64_t offset;        /* file offset of the referenced block */
  uint32_t on_disk_size;  /* its onDiskSizeWithHeader */
  const uint8_t *key;     /* KeyValue key (data index) or block name (meta index) */
  size_t key_len;
} hfg_index_entry;

/* Root level of the data index (trailer data_index_count entries) and the
 * meta index (named META blocks). i out of range: HFG_EINVAL. */
size_t hfg_reader_root_count(const hfg_reader *r);
int hfg_reader_root_entry(const hfg_reader *r, size_t i, hfg_index_entry *out);
size_t hfg_reader_meta_index_count(const hfg_reader *r);
int hfg_reader_meta_index_entry(const hfg_reader *r, size_t i, hfg_index_entry *out);

typedef struct hfg_index_summary {
  uint32_t levels;                 /* num_data_index_levels */
  uint64_t root_entries;
  uint64_t intermediate_blocks;
  uint64_t leaf_blocks;
  uint64_t data_blocks;            /* entries of the lowest level */
  uint64_t index_uncompressed_bytes; /* sum of U over root + intermediate + leaf blocks */
  int has_mid_key_meta;            /* root carries the 16-byte mid-key metadata */
  uint64_t mid_leaf_offset;
  uint32_t mid_leaf_on_disk_size;
  uint32_t mid_key_entry;
  const uint8_t *mid_key;          /* the mid key HBase's midkey() returns; NULL when empty */
  size_t mid_key_len;
} hfg_index_summary;

/* Reads every intermediate and leaf index block (checking block types per
 * level, entry formats and file order) and fills the summary. The first call
 * does the work; later ones return the cached result. */
int hfg_reader_load_index(hfg_reader *r, hfg_index_summary *out);

/* Data blocks in index order, after hfg_reader_load_index (before it: count 0,
 * HFG_ESTATE). The key is the index key stored for the block (possibly a
 * shortened "fake" key). */
size_t hfg_reader_data_block_count(const hfg_reader *r);
int hfg_reader_data_block(const hfg_reader *r, size_t i, hfg_index_entry *out);

/* Walks the index from the root down to the data block that may hold key
 * (the last block whose index key <= key). Returns 1 and its entry, or 0 when
 * key sorts before the first index key (it is before every cell). Needs no
 * prior load; uses it when present. Without a load, out->key is borrowed until
 * the next hfg_reader_locate call. HFG_EUNSUPPORTED for hbase:meta files. */
int hfg_reader_locate(hfg_reader *r, const uint8_t *key, size_t key_len, hfg_index_entry *out);

/* ---- blocks ---- */

typedef enum hfg_block_type {
  HFG_BLOCK_DATA = 0,
  HFG_BLOCK_ENCODED_DATA,
  HFG_BLOCK_LEAF_INDEX,
  HFG_BLOCK_BLOOM_CHUNK,
  HFG_BLOCK_META,
  HFG_BLOCK_INTERMEDIATE_INDEX,
  HFG_BLOCK_ROOT_INDEX,
  HFG_BLOCK_FILE_INFO,
  HFG_BLOCK_GENERAL_BLOOM_META,
  HFG_BLOCK_DELETE_FAMILY_BLOOM_META,
  HFG_BLOCK_TYPE_COUNT_
} hfg_block_type;

/* HBase BlockType name ("DATA", "LEAF_INDEX", ...) and 8-byte magic. */
const char *hfg_block_type_name(hfg_block_type t);
const char *hfg_block_type_magic(hfg_block_type t);

#define HFG_BLOCK_HEADER_SIZE 33

typedef struct hfg_block_info {
  uint64_t offset;
  hfg_block_type type;
  uint32_t on_disk_size_without_header;  /* payload on disk + checksum bytes */
  uint32_t uncompressed_size;            /* payload after decompression */
  int64_t prev_block_offset;             /* previous block of the same type, or -1 */
  uint8_t checksum_type;                 /* hfg_checksum_type */
  uint32_t bytes_per_checksum;
  uint32_t on_disk_data_size_with_header; /* 33 + on-disk payload */
  uint64_t on_disk_size_with_header;     /* 33 + on_disk_size_without_header */
  uint32_t checksum_bytes;               /* 4 per bytesPerChecksum chunk */
} hfg_block_info;

/* Parses and sanity-checks the header of the block at offset (magic, sizes,
 * checksum parameters, extent inside the file); reads no payload. */
int hfg_reader_block_header(hfg_reader *r, uint64_t offset, hfg_block_info *out);

/* Reads a whole block: header checks, checksums (unless turned off) and
 * decompression. *payload (uncompressed_size bytes) is borrowed until the next
 * hfg_reader_read_block call on r. */
int hfg_reader_read_block(hfg_reader *r, uint64_t offset, hfg_block_info *info,
                          const uint8_t **payload, size_t *len);

/* ---- cells ---- */

typedef struct hfg_read_cell {
  hfg_cell cell;              /* row, family, qualifier, ts, type, value, tags: borrowed */
  const uint8_t *key;         /* the serialized KeyValue key */
  size_t key_len;
  int64_t mvcc;               /* 0 when the file has none or does not decode it */
  uint64_t block_offset;      /* the DATA block holding the cell */
} hfg_read_cell;

typedef struct hfg_scanner hfg_scanner;

/* A scanner starts before the first cell. It borrows r (close r after the
 * scanner). NULL/HFG_ENOMEM when it cannot be allocated. */
int hfg_scanner_new(hfg_reader *r, hfg_scanner **out);
void hfg_scanner_free(hfg_scanner *s);

/* Next cell in file order: 1 and *c (valid until the next scanner call), 0 at
 * the end, <0 on error (hfg_scanner_errmsg). */
int hfg_scanner_next(hfg_scanner *s, hfg_read_cell *c);

/* Positions the scanner so that the next hfg_scanner_next returns the first
 * cell whose key is >= key (KeyValue key; HBase cell order). 0 or <0. */
int hfg_scanner_seek(hfg_scanner *s, const uint8_t *key, size_t key_len);

/* Same for the first cell of row (or of a later row when row is absent). */
int hfg_scanner_seek_row(hfg_scanner *s, const uint8_t *row, size_t row_len);

/* Back to before the first cell. */
void hfg_scanner_rewind(hfg_scanner *s);

const char *hfg_scanner_errmsg(const hfg_scanner *s);

/* ---- helpers for keys and values found in files ---- */

/* Splits a serialized KeyValue key (rowLength:be16 row familyLength:u8 family
 * qualifier timestamp:be64 type:u8) into *out (row..type; pointers into key,
 * value and tags left empty). 0 or HFG_ECORRUPT when malformed. */
int hfg_parse_key(const uint8_t *key, size_t len, hfg_cell *out);

/* Renders a key as "row/family:qualifier/timestamp/Type" with escaped bytes
 * (util escape rules) into out (always NUL-terminated when cap > 0; longer
 * renderings end in "..."). A malformed key renders as "<malformed key: hex>".
 * Returns the length written. */
size_t hfg_format_key(const uint8_t *key, size_t len, char *out, size_t cap);

/* KeyValue type name ("Put", "Delete", "DeleteColumn", "DeleteFamily",
 * "DeleteFamilyVersion", "Minimum", "Maximum"), NULL for other codes. */
const char *hfg_read_type_name(uint8_t type);

/* Decodes a TIMERANGE file-info value: 16 bytes (two BE int64) or "PBUF" +
 * TimeRangeTracker {from = 1, to = 2}. 0 or HFG_ECORRUPT. */
int hfg_decode_timerange(const uint8_t *v, size_t n, int64_t *min_ts, int64_t *max_ts);

/* ---- bloom ---- */

typedef struct hfg_bloom_summary {
  hfg_bloom_type type;        /* from BLOOM_FILTER_TYPE */
  int32_t version;
  int64_t total_byte_size;
  int32_t hash_count;
  int32_t hash_type;
  int64_t total_key_count;
  int64_t total_max_keys;
  int32_t num_chunks;
  const char *comparator;     /* "" for ROW */
} hfg_bloom_summary;

/* Parses the general (which = 0) or delete-family (which = 1) bloom meta.
 * 1 and *out when present, 0 when the file has none, <0 when it is corrupt. */
int hfg_reader_bloom(hfg_reader *r, int which, hfg_bloom_summary *out);

/* Asks the general bloom about a row (ROW) or row + qualifier (ROWCOL; qual
 * ignored for ROW). 1 "maybe present", 0 "certainly absent", HFG_EUNSUPPORTED
 * when the file has no usable bloom, other <0 on a corrupt bloom. */
int hfg_reader_bloom_check(hfg_reader *r, const uint8_t *row, size_t row_len,
                           const uint8_t *qual, size_t qual_len);
/* Same against the delete-family bloom (rows only). */
int hfg_reader_delete_family_bloom_check(hfg_reader *r, const uint8_t *row, size_t row_len);

/* ---- whole-file passes ---- */

#define HFG_STATS_BUCKETS 34
#define HFG_STATS_MAX_FAMILIES 16

/* Histograms use log2 buckets: bucket 0 counts size 0, bucket i (i >= 1) counts
 * sizes in [2^(i-1), 2^i). */
typedef struct hfg_stats {
  uint64_t cells;
  uint64_t rows;                         /* distinct consecutive rows */
  uint64_t key_bytes, value_bytes, tags_bytes;
  uint64_t key_hist[HFG_STATS_BUCKETS];  /* KeyValue key length */
  uint64_t value_hist[HFG_STATS_BUCKETS];
  uint64_t row_hist[HFG_STATS_BUCKETS];  /* serialized bytes of all cells of a row */
  uint64_t row_key_min, row_key_max;     /* row key length */
  uint64_t type_count[256];              /* cells per KeyValue type code */
  int64_t min_ts, max_ts;
  uint64_t data_blocks;
  uint64_t data_uncompressed_bytes;      /* sum of DATA payloads before compression */
  uint64_t data_on_disk_bytes;           /* sum of DATA blocks on disk, headers and checksums included */
  uint64_t data_on_disk_payload_bytes;   /* on-disk payload only */
  size_t family_count;                   /* distinct families (up to the max below) */
  int families_truncated;
  uint8_t family[HFG_STATS_MAX_FAMILIES][128];
  uint8_t family_len[HFG_STATS_MAX_FAMILIES];
} hfg_stats;

/* One pass over all cells. */
int hfg_reader_stats(hfg_reader *r, hfg_stats *out);

#define HFG_VERIFY_MSG_MAX 1024

typedef struct hfg_verify_report {
  uint64_t cells;
  uint64_t rows;
  uint64_t blocks;            /* all blocks before the trailer */
  uint64_t data_blocks, index_blocks, bloom_blocks, meta_blocks;
  int has_cells;
  uint8_t *first_row;         /* copies, owned by the report; NULL when no cells */
  size_t first_row_len;
  uint8_t *last_row;
  size_t last_row_len;
  uint8_t *family;            /* the one family of all cells */
  size_t family_len;
  char message[HFG_VERIFY_MSG_MAX]; /* the first failed check, "" when all passed */
} hfg_verify_report;

/* Runs every check of format-specs/reader-checks.md on an open reader: block
 * headers, checksums, prevBlockOffset chains, contiguity, load-on-open tiling,
 * cell order, index coverage and keys, seeks, bloom, file info and trailer
 * counts. Returns 0 when all pass, HFG_EVERIFY with report->message when a
 * check failed, another <0 code (also in message) when the file could not be
 * read. Free the report with hfg_verify_report_free. */
int hfg_verify(hfg_reader *r, hfg_verify_report *report);

/* Opens path, verifies, closes; an open failure is reported like a failed check. */
int hfg_verify_path(const char *path, hfg_verify_report *report);

void hfg_verify_report_free(hfg_verify_report *report);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
