/*
 * Internals shared by the reader modules (src/read/). The reader decodes every
 * structure itself (format-specs/reader-checks.md) and shares no encoder with
 * the writer in src/format/: only util (coding, crc, alloc, err), the
 * decompression side of codec.h and the read side of bloom.h.
 *
 * Every size read from the file is checked against the bytes that hold it
 * before anything is allocated from it.
 */
#ifndef HFG_READ_RD_H
#define HFG_READ_RD_H

#include <stddef.h>
#include <stdint.h>

#include "format/bloom.h"
#include "hfilegen/reader.h"
#include "util/buf.h"
#include "util/err.h"

#define RD_TRAILER_SIZE 4096u
#define RD_HDR HFG_BLOCK_HEADER_SIZE
#define RD_MAX_INDEX_LEVELS 64u
/* Cap on all index block payloads held by one reader (hostile files). */
#define RD_MAX_INDEX_BYTES ((uint64_t)1 << 30)
#define RD_LATEST_TS INT64_MAX

/* Compression.Algorithm ordinals (Compression.java enum order). */
#define RD_ORD_GZ 1
#define RD_ORD_NONE 2
#define RD_ORD_COUNT 9

/* A block in memory: header plus uncompressed payload. The payload points into
 * the file image (NONE) or into `owned` (decompressed). */
typedef struct rd_block {
  hfg_block_info info;
  const uint8_t *data;
  size_t len;
  uint8_t *owned;
  size_t owned_cap;
  hfg_buf decoded;           /* ENCODED_DATA: the cells decoded (rd_enc.h) */
  int enc_id;                /* ENCODED_DATA: the block's encoding id */
} rd_block;

/* A parsed KeyValue key: pointers into the key bytes. */
typedef struct rd_key {
  const uint8_t *row;
  size_t row_len;
  const uint8_t *fam;
  size_t fam_len;
  const uint8_t *qual;
  size_t qual_len;
  int64_t ts;
  uint8_t type;
} rd_key;

/* A loaded non-root index block (leaf or intermediate). */
typedef struct rd_iblock {
  uint64_t offset;
  uint32_t on_disk_size;
  uint32_t level;            /* 1 = just below the root */
  hfg_block_type type;
  rd_block blk;
  uint32_t n;                /* entries */
} rd_iblock;

typedef struct rd_fi_entry {
  const uint8_t *key;
  size_t key_len;
  const uint8_t *val;
  size_t val_len;
} rd_fi_entry;

typedef struct rd_bloom_state {
  int present;               /* the meta block exists */
  rd_block meta_blk;
  int parsed;                /* meta parsed (1), failed (-1), not yet (0) */
  hfg_bloom_meta meta;
  int cached_chunk;          /* chunk index held in chunk_blk, -1 none */
  rd_block chunk_blk;
  hfg_buf key;               /* scratch for bloom keys */
} rd_bloom_state;

struct hfg_reader {
  hfg_err err;
  int open_code;             /* <0 when open failed */
  int verify_checksums;

  const uint8_t *map;        /* whole file image */
  size_t size;
  int mapped;                /* map came from mmap */
  uint64_t trailer_off;      /* size - 4096 */

  hfg_trailer trailer;
  char *comparator;          /* owned copy of trailer.comparator */
  hfg_file_meta meta;

  rd_block root_blk;         /* data root index */
  hfg_index_entry *root;     /* trailer.data_index_count entries */
  size_t root_n;
  int has_mid_meta;
  uint64_t mid_leaf_offset;
  uint32_t mid_leaf_size;
  uint32_t mid_key_entry;
  size_t root_trailing;      /* payload bytes after the root entries */

  rd_block meta_idx_blk;
  hfg_index_entry *meta_idx;
  size_t meta_idx_n;

  rd_block fi_blk;
  uint64_t fi_offset;        /* where FILE_INFO was found */
  void *fi_proto;            /* Hbase__Pb__FileInfoProto */
  rd_fi_entry *fi;
  size_t fi_n;

  uint64_t lo_offsets[8];    /* load-on-open block offsets in order */
  hfg_block_type lo_types[8];
  uint32_t lo_sizes[8];
  uint32_t lo_uncompressed[8];
  size_t lo_n;

  rd_bloom_state bloom[2];   /* 0 general, 1 delete family */

  /* full index (hfg_reader_load_index) */
  int idx_loaded;            /* 1 ok, <0 failed with this code */
  hfg_err idx_err;           /* why the load failed */
  hfg_index_summary idx_sum;
  rd_iblock *iblocks;        /* sorted by offset */
  size_t iblocks_n;
  hfg_index_entry *data;     /* lowest-level entries */
  size_t data_n;

  rd_block scratch;          /* hfg_reader_read_block's borrowed payload */
  rd_block loc_blk;          /* index block last read by hfg_reader_locate */
};

#define RD_ENTER(r)                                \
  do {                                             \
    if ((r)->open_code < 0) return (r)->open_code; \
    hfg_err_clear(&(r)->err);                      \
  } while (0)

/* ---- rd_kv.c ---- */
/* Parses a KeyValue key; 0 or -1 (with a reason in *why) when malformed. */
int rd_key_parse(const uint8_t *k, size_t n, rd_key *out, const char **why);
/* HBase CellComparatorImpl order of two parsed keys. */
int rd_key_cmp(const rd_key *a, const rd_key *b);
/* Compares two serialized keys in the order of `kind` (CELL/UNKNOWN: cell
 * order, RAW: bytes). Malformed keys sort by raw bytes after valid ones. */
int rd_compare_keys(hfg_comparator_kind kind, const uint8_t *a, size_t an, const uint8_t *b,
                    size_t bn);
int rd_bytes_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn);

typedef struct rd_cell_flags {
  int tags;
  int mvcc;
  int decode_mvcc;
  int tags_compressed; /* encoded blocks: tags dictionary-compressed (TagCompressionContext) */
} rd_cell_flags;

/* Parses the cell at payload[pos]. 0 and *next, or HFG_ECORRUPT with a message
 * in err naming the payload position. */
int rd_cell_parse(const uint8_t *p, size_t n, size_t pos, const rd_cell_flags *f,
                  hfg_read_cell *c, size_t *next, hfg_err *err);

/* ---- rd_block.c ---- */
const char *rd_block_magic_str(const uint8_t *magic8, char out[40]);
int rd_block_header(hfg_reader *r, uint64_t offset, uint64_t limit, hfg_block_info *info);
/* Reads the block at offset: header checks (extent <= limit), optional size
 * and type expectations (expect_size 0 / expect_type -1: any), checksums,
 * decompression. b is reused (its owned buffer kept). */
int rd_block_read(hfg_reader *r, uint64_t offset, uint64_t limit, uint32_t expect_size,
                  int expect_type, rd_block *b);
void rd_block_release(rd_block *b);
uint64_t rd_max_uncompressed(int ordinal, uint64_t on_disk_payload);

/* ---- rd_trailer.c ---- */
struct ProtobufCAllocator;
/* protobuf-c allocator routed through util/alloc.h (fault injection). */
struct ProtobufCAllocator *rd_pb_allocator(void);
/* The same allocator raising *nomem when an allocation fails. */
void rd_pb_tracking_allocator(struct ProtobufCAllocator *a, int *nomem);
int rd_trailer_parse(hfg_reader *r);
hfg_comparator_kind rd_comparator_kind(const char *name);

/* ---- rd_fileinfo.c ---- */
int rd_fileinfo_parse(hfg_reader *r);
void rd_fileinfo_free(hfg_reader *r);
const rd_fi_entry *rd_fileinfo_find(const hfg_reader *r, const char *key);
/* The id of the file info's DATA_BLOCK_ENCODING (absent: 0, NONE), -1 if unknown. */
int rd_fileinfo_encoding_id(const hfg_reader *r);

/* ---- rd_index.c ---- */
/* Parses a root-format index payload holding exactly n entries; keys point
 * into p. *used gets the bytes the entries took. */
int rd_root_parse(const uint8_t *p, size_t len, size_t n, hfg_index_entry **out, size_t *used,
                  hfg_err *err, const char *what);
/* Validates a non-root (leaf / intermediate) payload; *n gets its entry count. */
int rd_nonroot_check(const uint8_t *p, size_t len, uint32_t *n, hfg_err *err, uint64_t offset);
/* Entry i of a validated non-root payload. */
void rd_nonroot_entry(const uint8_t *p, uint32_t i, hfg_index_entry *e);
int rd_index_load(hfg_reader *r);
void rd_index_free(hfg_reader *r);
const rd_iblock *rd_index_find_iblock(const hfg_reader *r, uint64_t offset);

/* ---- rd_bloom.c ---- */
void rd_bloom_free(rd_bloom_state *b);

/* ---- rd_scan (scanner.c) ---- */
struct hfg_scanner {
  hfg_reader *r;
  hfg_err err;
  rd_block blk;
  int state;                 /* 0 before first, 1 in a block, 2 at end */
  size_t pos;
  rd_cell_flags flags;
};

#endif
