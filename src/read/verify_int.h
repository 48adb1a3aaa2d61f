/*
 * State shared by the two halves of hfg_verify: verify.c (block walk, index,
 * trailer, load-on-open) and verify_cells.c (cells of each DATA block, bloom,
 * file info). format-specs/reader-checks.md lists every check and its source.
 */
#ifndef HFG_READ_VERIFY_INT_H
#define HFG_READ_VERIFY_INT_H

#include "read/rd.h"

typedef struct vstate {
  hfg_reader *r;
  hfg_verify_report *rep;
  hfg_comparator_kind kind;
  rd_cell_flags flags;

  /* cells */
  uint64_t cells, rows;
  uint64_t total_key_len, total_value_len;
  uint32_t max_tags;
  /* PrivateCellUtil.estimatedSerializedSizeOf of the biggest cell and its key
   * (the first of that size), [0] as a writer fed KeyValues without tags bytes
   * computes it (HFileOutputFormat2's Puts), [1] with every cell's 2-byte tags
   * length counted (cells read back from a v3 file, as a compaction writes) */
  uint64_t biggest_len[2];
  hfg_buf biggest_key[2];
  int64_t min_ts, max_ts, earliest_put;
  uint64_t df_count;
  int64_t max_mvcc;
  hfg_buf prev_key;          /* key of the previous cell (the previous block's last key at a block start) */
  int have_prev;
  int64_t prev_mvcc;         /* mvcc of the previous cell */
  hfg_buf family;
  uint64_t bloom_keys, df_bloom_keys;
  hfg_buf df_prev_row;       /* last row added to the delete-family bloom */
  int df_have;
  hfg_buf last_bloom_key;    /* what LAST_BLOOM_KEY must hold */
  hfg_buf first_key;
  int bloom_checked;         /* general bloom usable for lookups */
  int df_bloom_checked;
} vstate;

/* Records the first failure in the report; returns HFG_EVERIFY. */
int vfail(vstate *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copies the reader's error into the report; returns rc. */
int vreader(vstate *v, int rc);

/* Checks every cell of one DATA block (index position i in the data index). */
int verify_data_block(vstate *v, const rd_block *b, size_t i);
/* After the walk: entry count, file info values, bloom totals. */
int verify_fileinfo(vstate *v);
void vstate_free(vstate *v);

#endif
