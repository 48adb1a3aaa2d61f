/*
 * hfilegen HFile writer: writes one HFile v3 for one column family, as HBase's
 * HFileOutputFormat2 does for bulk load (format-specs/overview.md).
 *
 * Legal call order:  open (append)* (finish | abandon) free
 *
 * Errors are sticky: after the first failure every call returns the same code
 * and hfg_writer_errmsg() names what failed (e.g. both keys of an out-of-order
 * append). A writer that failed or was abandoned has removed its partial file.
 * The writer does not rename or publish; callers write under a temporary name
 * and publish it (see the pipeline's publisher).
 */
#ifndef HFILEGEN_WRITER_H
#define HFILEGEN_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/status.h"
#include "hfilegen/types.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

#define HFG_WRITER_OPTIONS_VERSION 3 /* 2: write_chunk; 3: direct_io */

typedef struct hfg_writer_options {
  unsigned version;                 /* HFG_WRITER_OPTIONS_VERSION */
  hfg_codec codec;                  /* default NONE */
  int codec_level;                  /* < 0: the codec's default */
  hfg_checksum_type checksum;       /* default CRC32C (HBase's default) */
  uint32_t bytes_per_checksum;      /* default 16384 */
  uint32_t block_size;              /* data block size, default 65536 */
  uint32_t index_block_max_size;    /* hfile.index.block.max.size, default 131072 */
  uint32_t index_min_entries;       /* hfile.index.block.min.entries, default 16 */
  hfg_bloom_type bloom;             /* default ROW (HBase's family default) */
  float bloom_error_rate;           /* io.storefile.bloom.error.rate, default 0.01f */
  uint32_t bloom_block_size;        /* io.storefile.bloom.block.size, default 131072 */
  int bloom_max_fold;               /* io.storefile.bloom.max.fold, default 7 */
  int64_t create_time;              /* hfile.CREATE_TIME_TS; HFileOutputFormat2 writes 0 */
  int64_t bulkload_timestamp;       /* BULKLOAD_TIMESTAMP; < 0: wall clock at finish */
  const char *bulkload_source_task; /* BULKLOAD_SOURCE_TASK; NULL: "hfilegen" (copied) */
  int major_compaction;             /* MAJOR_COMPACTION_KEY, default 1 as HFileOutputFormat2 */
  int exclude_from_minor_compaction;/* EXCLUDE_FROM_MINOR_COMPACTION, default 0 */
  int fsync;                        /* fsync the file in finish, default 1 */
  hfg_encoding encoding;            /* DATA_BLOCK_ENCODING, default NONE (format-specs/encodings.md) */
  uint32_t bloom_prefix_length;     /* ROWPREFIX bloom: RowPrefixBloomFilter.prefix_length (> 0) */
  int gz_impl;                      /* GZ deflate engine, HFG_GZ_ZLIB (default) or HFG_GZ_ISAL */
  uint32_t write_chunk;             /* a file's bytes go to the kernel in writes of this many,
                                       at offsets that are multiples of it (the last one
                                       shorter), default 131072; 0: the default */
  int direct_io;                    /* a file to be fsynced is written with O_DIRECT where its
                                       file system takes it (its bytes reach the disk without
                                       a copy into the page cache; the tail unit is padded and
                                       the file cut back to its length), else through the page
                                       cache; default 1; 0: always the page cache */
} hfg_writer_options;

/* GZ engines (hfg_writer_options.gz_impl). HFG_GZ_ZLIB deflates every block as
 * HBase does (zlib raw deflate with HBase's level 6 unless codec_level says
 * otherwise): with the same zlib release the blocks are byte-identical to
 * HBase's. HFG_GZ_ISAL (builds with ISA-L only, else open fails with
 * HFG_EINVAL) uses igzip for blocks of 4 KiB and more, at igzip level 1 unless
 * codec_level says otherwise: several times faster, valid GZ that HBase reads,
 * not HBase's bytes. Both are deterministic (the same bytes every run, at any
 * thread count). */
#define HFG_GZ_ZLIB 0
#define HFG_GZ_ISAL 1

#define HFG_WRITER_OPTIONS_INIT                                                          \
  {HFG_WRITER_OPTIONS_VERSION, HFG_CODEC_NONE, -1, HFG_CHECKSUM_CRC32C, 16384, 65536,   \
   131072, 16, HFG_BLOOM_ROW, 0.01f, 131072, 7, 0, -1, NULL, 1, 0, 1, HFG_ENCODING_NONE, 0,  \
   HFG_GZ_ZLIB, 131072, 1}

typedef struct hfg_writer hfg_writer;

/* Creates (truncates) `path` and prepares to write cells of `family`.
 * On failure returns < 0 and, if *out is non-NULL, a writer holding the message
 * (free it). opts NULL means defaults. */
int hfg_writer_open(const char *path, const char *family, const hfg_writer_options *opts,
                    hfg_writer **out);

/* Same, writing into memory (tests, benchmarks); see hfg_writer_mem_data. */
int hfg_writer_open_mem(const char *family, const hfg_writer_options *opts, hfg_writer **out);

/* Appends one cell; cells must come in HBase order (row, family, qualifier
 * ascending unsigned; timestamp and type descending). The cell's family must be
 * the writer's. The cell's bytes are copied. */
int hfg_writer_append(hfg_writer *w, const hfg_cell *cell);

/* A Put's column and value, for hfg_writer_append_puts. */
typedef struct hfg_put {
  const uint8_t *qualifier;
  size_t qualifier_len;
  const uint8_t *value;
  size_t value_len;
} hfg_put;

/* Appends the n Puts of one row of the writer's family, all at timestamp ts
 * and without tags, qualifiers ascending: the same bytes, checks and errors
 * as hfg_writer_append on each cell, at a fraction of the cost (the row and
 * family bytes are laid out once per row). The bulk-load common case. */
int hfg_writer_append_puts(hfg_writer *w, const uint8_t *row, size_t row_len, int64_t ts,
                           const hfg_put *puts, size_t n);

/* Writes the remaining blocks, file info, trailer; fsyncs and closes. */
int hfg_writer_finish(hfg_writer *w);

/* Stops writing and removes the partial file. Safe after a failure. */
void hfg_writer_abandon(hfg_writer *w);

/* Frees the writer; abandons it first if neither finish nor abandon ran. NULL ok. */
void hfg_writer_free(hfg_writer *w);

int hfg_writer_status(const hfg_writer *w);
const char *hfg_writer_errmsg(const hfg_writer *w);

uint64_t hfg_writer_entries(const hfg_writer *w);   /* cells appended */
uint64_t hfg_writer_bytes(const hfg_writer *w);     /* bytes written so far (file size after finish) */
unsigned hfg_writer_index_levels(const hfg_writer *w);

/* The row of the last cell appended, borrowed until the next append, finish or
 * free; returns 0 (and NULL, 0) before the first cell. */
int hfg_writer_last_row(const hfg_writer *w, const uint8_t **row, size_t *len);

/* Memory writers: the file bytes after finish (borrowed until free). */
const uint8_t *hfg_writer_mem_data(const hfg_writer *w, size_t *len);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
