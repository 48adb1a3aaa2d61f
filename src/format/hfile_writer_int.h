/*
 * The HFile writer's state (hfile_writer.c: open, append, data blocks, the
 * block pool; hfile_writer_finish.c: file info, bloom metas, the load-on-open
 * section and the trailer). Private to those two files.
 */
#ifndef HFG_FORMAT_HFILE_WRITER_INT_H
#define HFG_FORMAT_HFILE_WRITER_INT_H

#include <stdint.h>

#include "format/block.h"
#include "format/block_pool.h"
#include "format/bloom.h"
#include "format/dbe.h"
#include "format/index.h"
#include "format/kv.h"
#include "hfilegen/writer.h"
#include "util/buf.h"
#include "util/err.h"

enum { W_OPEN, W_FINISHED, W_ABANDONED };

/* A block on the pool (hfg_writer_use_pool), in file order: what to do with
 * its place once it is written. */
typedef struct pending {
  hfg_bloom_writer *bloom; /* a chunk of this bloom; NULL: a data block */
  hfg_block_type type;     /* data block: HFG_BT_DATA or HFG_BT_ENCODED_DATA */
  hfg_buf key;             /* data block: its index key */
  uint64_t bound;          /* most bytes it (and a leaf index after it) can take */
} pending;

struct hfg_writer {
  hfg_writer_options o;
  char *path;         /* NULL for memory writers */
  int fd;
  hfg_buf mem;        /* memory writers: the file */
  uint8_t family[HFG_KV_MAX_FAMILY];
  size_t family_len;
  char *source_task;
  int state;
  hfg_err err;

  hfg_block_encoder *enc;
  hfg_index_writer *index;
  hfg_bloom_writer *bloom;     /* general bloom, NULL for NONE */
  hfg_bloom_writer *df_bloom;  /* delete-family bloom (not with ROWCOL) */

  hfg_buf block;      /* current data block payload */
  hfg_buf out;        /* encoded bytes of the block being written */
  hfg_cell last;      /* parts of the last cell's key: they point into the current
                         block while it is open, into last_key once it is written */
  size_t last_key_off, last_key_len; /* that key inside the current block */
  hfg_buf last_key;   /* the last key, copied out when its block is written */
  hfg_buf first_key;  /* key of the first cell of the current block */
  hfg_buf prev_block_last_key;
  hfg_buf index_key;

  uint64_t pos;
  uint64_t writeback_from; /* bytes before it were handed to writeback (hfg_io_writeback) */
  int64_t prev_offset[HFG_BT_COUNT_];
  int64_t first_data_block_offset, last_data_block_offset;
  uint64_t total_uncompressed;
  int count_uncompressed;

  uint64_t entries;
  uint64_t total_key_len, total_value_len;
  uint32_t max_tags_len;
  int64_t ts_min, ts_max, earliest_put_ts;
  uint64_t delete_family_count;
  uint64_t biggest_cell_len;
  hfg_buf biggest_key;

  hfg_block_stream *stream; /* NULL: every block is encoded and written in place */
  pending *pend;            /* ring of the stream's blocks, oldest at pend_head */
  unsigned pend_head, pend_cap;
  uint64_t pend_bound;      /* Σ bound of the pending blocks */
  hfg_dbe *dbe;       /* data block encoder, NULL for NONE */
};

/* Writes n bytes at the end of the file (or memory). */
int hfg_w_sink_write(hfg_writer *w, const uint8_t *p, size_t n);
/* Encodes and writes one block at the current position (hfg_block_emit_fn). */
int hfg_w_emit_block(void *ctx, hfg_block_type type, const uint8_t *payload, size_t n,
                     uint64_t *off, hfg_block_info *info);
/* HFileWriterImpl.writeInlineBlocks: index writer first, then the blooms. */
int hfg_w_write_inline_blocks(hfg_writer *w, int closing);
/* HFileWriterImpl.finishBlock + the inline blocks that follow a data block. */
int hfg_w_finish_data_block(hfg_writer *w);
/* Writes every block still on the pool, in file order. */
int hfg_w_retire_all(hfg_writer *w);
/* The rest of the file after the last cell (hfile_writer_finish.c). */
int hfg_w_finish_file(hfg_writer *w);

#endif
