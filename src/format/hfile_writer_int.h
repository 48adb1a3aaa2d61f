/*
 * The HFile writer's state (hfile_writer.c: open, append, data blocks, the
 * block pool; hfile_writer_finish.c: file info, bloom metas, the load-on-open
 * section and the trailer; hfile_writer_puts.c: the Put paths). Private to
 * those three files.
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
#include "util/aout.h"
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

/* File writers hand the kernel whole, aligned chunks (o.write_chunk bytes,
 * the last one shorter): a block at a time (~20-40 KB with a codec, never
 * page aligned) the page cache spends about half again as much system time
 * per byte (dd, 1 GiB on this VM's ext4: 0.45 s with 23 KB writes, 0.30 s
 * with 64-128 KB ones). */
#define HFG_WRITE_CHUNK_DEFAULT ((size_t)128 << 10)

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

  hfg_buf block;      /* current data block payload (its plain KeyValues; with an
                         encoding, the cells of a Put run that are never read may be
                         left unwritten: hfile_writer_puts.c put_run_enc) */
  hfg_buf out;        /* encoded bytes of the block being written */
  hfg_cell last;      /* parts of the last cell's key: they point into the current
                         block while it is open, into last_key once it is written */
  size_t last_key_off, last_key_len; /* that key inside the current block */
  hfg_buf last_key;   /* the last key, copied out when its block is written */
  hfg_buf first_key;  /* key of the first cell of the current block */
  hfg_buf prev_block_last_key;
  hfg_buf index_key;

  uint64_t pos;       /* bytes written, with those still in wbuf */
  hfg_buf wbuf;       /* file writers: the bytes after the last whole chunk
                         written (hfg_w_sink_write), fewer than chunk */
  size_t chunk;       /* o.write_chunk, or HFG_WRITE_CHUNK_DEFAULT */
  uint64_t writeback_from; /* bytes before it were handed to writeback (hfg_io_writeback) */
  size_t dio_align;   /* O_DIRECT's unit for buffer address, offset and length */
  hfg_aout *aout;     /* fd was opened with O_DIRECT: every byte goes through the
                         chunks' writer thread (util/aout.h) */
  uint8_t *dcur;      /* the aout buffer being filled (NULL: none taken yet) */
  size_t dlen;        /* bytes in it */
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

/* Writes n bytes at the end of the file (or memory); a file's go to the
 * kernel in whole chunks (w->chunk) at chunk-aligned offsets, through wbuf. */
int hfg_w_sink_write(hfg_writer *w, const uint8_t *p, size_t n);
/* Hands wbuf's bytes to the kernel: before the file's fsync and close. */
int hfg_w_sink_flush(hfg_writer *w);
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

/* ---- the append bookkeeping, shared by the single-cell path (hfile_writer.c)
 * and the Put paths (hfile_writer_puts.c) ---- */

/* Points c's row, family and qualifier into its flat key (lengths unchanged). */
static inline void repoint_cell(hfg_cell *c, const uint8_t *key) {
  c->row = key + 2;
  c->family = c->row + c->row_len + 1;
  c->qualifier = c->family + c->family_len;
}

/* Points w->last's parts at a copy of the last key. */
static inline void repoint_last(hfg_writer *w, const uint8_t *key) { repoint_cell(&w->last, key); }

static inline void track_cell(hfg_writer *w, const hfg_cell *c, size_t key_len) {
  w->entries++;
  w->total_key_len += key_len;
  w->total_value_len += c->value_len;
  if (c->tags_len > w->max_tags_len) w->max_tags_len = (uint32_t)c->tags_len;
  /* TimeRangeTracker.includeTimestamp: DeleteColumn/DeleteFamily also include 0. */
  if (c->timestamp < w->ts_min) w->ts_min = c->timestamp;
  if (c->timestamp > w->ts_max) w->ts_max = c->timestamp;
  if (c->type == HFG_TYPE_DELETE_COLUMN || c->type == HFG_TYPE_DELETE_FAMILY) {
    if (0 < w->ts_min) w->ts_min = 0;
    if (0 > w->ts_max) w->ts_max = 0;
  }
  if (c->type == HFG_TYPE_PUT && c->timestamp < w->earliest_put_ts)
    w->earliest_put_ts = c->timestamp;
}

/* How many of a row's bytes its general bloom takes: a ROWPREFIX_FIXED_LENGTH
 * bloom the prefix (a shorter row whole), every other type the row. */
static inline size_t bloom_row_len(const hfg_writer *w, size_t row_len) {
  return w->o.bloom == HFG_BLOOM_ROWPREFIX && row_len > w->o.bloom_prefix_length
             ? w->o.bloom_prefix_length
             : row_len;
}

/* b (the block's first key, the biggest cell's key) becomes a copy of the
 * key_len bytes at key; 0, or ENOMEM set in w->err. */
static inline int keep_key(hfg_writer *w, hfg_buf *b, const uint8_t *key, size_t key_len) {
  hfg_buf_reset(b);
  return hfg_buf_append(b, key, key_len) ? hfg_err_set(&w->err, HFG_ENOMEM, "out of memory") : 0;
}

/* HFileWriterImpl.checkBlockBoundary (hbase.writer.unified.encoded.blocksize.ratio
 * unset): the unencoded or the encoded size has reached the block size. */
static inline int block_full(const hfg_writer *w) {
  return w->block.len >= w->o.block_size ||
         (w->dbe && w->block.len && w->dbe->encoded >= w->o.block_size);
}
static inline int note_cell(hfg_writer *w, uint8_t *cell, size_t cell_len, size_t key_len,
                            const hfg_cell *c, int same_put) __attribute__((always_inline));

/* Bookkeeping for the cell c just written at cell (cell_len bytes, key_len of
 * them its key): the block's length, the last and first keys, the biggest
 * cell, the file's statistics. same_put: c is a Put without tags with the row,
 * family and timestamp of the cell before it, whose parts are already noted. */
static inline int note_cell(hfg_writer *w, uint8_t *cell, size_t cell_len, size_t key_len,
                            const hfg_cell *c, int same_put) {
  if (w->dbe) {
    /* the encoder reads the cell as laid here and the block's previous cell
     * (w->last, its key at last_key_off and its value after it) in place */
    int rc;
    if (w->block.len == 0) {
      if (!(rc = hfg_dbe_begin(w->dbe))) rc = hfg_dbe_add(w->dbe, c, cell, NULL);
    } else {
      hfg_cell prev = w->last;
      repoint_cell(&prev, w->block.p + w->last_key_off);
      prev.value = w->block.p + w->last_key_off + w->last_key_len;
      rc = hfg_dbe_add(w->dbe, c, cell, &prev);
    }
    if (rc) return hfg_err_set(&w->err, rc, "data block encoding: %s", hfg_strerror(rc));
  }
  w->block.len += cell_len;
  /* the key's parts, without parsing: key = rowLen(2) row famLen(1) fam qual ts(8) type(1) */
  w->last_key_off = (size_t)(cell + 8 - w->block.p);
  w->last_key_len = key_len;
  w->last.qualifier_len = c->qualifier_len;
  w->last.value_len = c->value_len;
  if (!same_put) {
    w->last.row_len = c->row_len;
    w->last.family_len = c->family_len;
    w->last.timestamp = c->timestamp;
    w->last.type = c->type;
  }
  repoint_last(w, cell + 8);
  int rc;
  if (w->block.len == cell_len && (rc = keep_key(w, &w->first_key, cell + 8, key_len))) return rc;
  /* PrivateCellUtil.estimatedSerializedSizeOf: KeyValue length + 4. */
  uint64_t size = 4 + 8 + key_len + c->value_len + (c->tags_len ? 2 + c->tags_len : 0);
  if (size > w->biggest_cell_len) {
    w->biggest_cell_len = size;
    if ((rc = keep_key(w, &w->biggest_key, cell + 8, key_len))) return rc;
  }
  if (same_put) { /* the time range and the earliest Put already include its timestamp */
    w->entries++;
    w->total_key_len += key_len;
    w->total_value_len += c->value_len;
  } else {
    track_cell(w, c, key_len);
  }
  return 0;
}

#endif
