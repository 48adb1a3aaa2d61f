/*
 * The HFile writer orchestrates; it encodes no bytes itself. Data blocks are
 * cut, encoded by the block encoder, and followed by the inline blocks the
 * index and bloom writers ask for; close writes the load-on-open section and
 * the trailer. Order and placement follow HFileWriterImpl / StoreFileWriter /
 * HFileOutputFormat2 (format-specs/overview.md).
 */
#define _GNU_SOURCE /* O_DIRECT, statx */
#include "hfilegen/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

#include "format/block.h"
#include "format/block_pool.h"
#include "format/bloom.h"
#include "format/codec.h"
#include "format/dbe.h"
#include "format/fileinfo.h"
#include "format/index.h"
#include "format/kv.h"
#include "format/trailer.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/err.h"
#include "util/escape.h"
#include "util/fsio.h"

#include "format/hfile_writer_int.h"


/* ---- output ---- */

/* O_DIRECT's unit for this file: buffer address, offset and length are
 * multiples of it (statx's STATX_DIOALIGN, Linux 6.1; 0 there: the file takes
 * no direct I/O); 4096 where the kernel does not say, and a write refused
 * anyway falls back to the page cache (hfg_io_pwrite_all). */
static size_t dio_align(int fd) {
#ifdef STATX_DIOALIGN
  struct statx sx;
  if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN)) {
    size_t a = sx.stx_dio_mem_align > sx.stx_dio_offset_align ? sx.stx_dio_mem_align
                                                               : sx.stx_dio_offset_align;
    return a && (a & (a - 1)) == 0 ? a : 0;
  }
#endif
  (void)fd;
  return 4096;
}

#define HFG_WRITEBACK_STEP (4u << 20)

/* The kernel gets [p, p+n), which ends at w->pos; on failure the error names
 * the offset where those bytes begin. */
static int io_failed(hfg_writer *w, int rc, const char *what, uint64_t off) {
  return hfg_err_set(&w->err, rc == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: %s %llu: %s", w->path,
                     what, (unsigned long long)off, strerror(-rc));
}

static int sink_out(hfg_writer *w, const uint8_t *p, size_t n) {
  int direct = 0; /* the page cache's path: O_DIRECT writes go through aout */
  int rc = hfg_io_pwrite_all(w->fd, p, n, w->pos - n, &direct);
  if (rc) return io_failed(w, rc, "write at offset", w->pos - n);
  /* a file to be fsynced goes to disk as it is written, a few MB at a time, so
   * that the fsync at its end (a core idle while it waits) has little left */
  if (w->o.fsync && w->pos - w->writeback_from >= HFG_WRITEBACK_STEP) {
    hfg_io_writeback(w->fd, w->writeback_from, w->pos - w->writeback_from);
    w->writeback_from = w->pos;
  }
  return 0;
}

static int direct_failed(hfg_writer *w, int rc) {
  return io_failed(w, rc, "write at offset", hfg_aout_failed_at(w->aout));
}

/* O_DIRECT: the bytes go into the writer thread's aligned chunk buffers, and
 * every full one to the thread (util/aout.h), which writes it while this
 * thread goes on. */
static int direct_write(hfg_writer *w, const uint8_t *p, size_t n) {
  const size_t chunk = w->chunk;
  while (n) {
    if (!w->dcur && !(w->dcur = hfg_aout_buf(w->aout)))
      return direct_failed(w, hfg_aout_drain(w->aout));
    size_t take = chunk - w->dlen < n ? chunk - w->dlen : n;
    memcpy(w->dcur + w->dlen, p, take);
    w->dlen += take;
    w->pos += take;
    p += take;
    n -= take;
    if (w->dlen == chunk) {
      int rc = hfg_aout_submit(w->aout, chunk, w->pos - chunk);
      w->dcur = NULL;
      w->dlen = 0;
      if (rc) return direct_failed(w, rc);
    }
  }
  return 0;
}

/* O_DIRECT, the file's end: O_DIRECT takes whole units, so the last one goes
 * out padded with zeros, and once every write is done the file is cut back
 * to its length. */
static int direct_finish(hfg_writer *w) {
  size_t n = w->dlen, padded = n;
  if (n) {
    if (n % w->dio_align) padded = n + (w->dio_align - n % w->dio_align);
    memset(w->dcur + n, 0, padded - n);
    int rc = hfg_aout_submit(w->aout, padded, w->pos - n);
    w->dcur = NULL;
    w->dlen = 0;
    if (rc) return direct_failed(w, rc);
  }
  int rc = hfg_aout_drain(w->aout);
  if (rc) return direct_failed(w, rc);
  if (padded != n && (rc = hfg_io_ftruncate(w->fd, w->pos)) != 0)
    return io_failed(w, rc, "truncate to", w->pos);
  return 0;
}

int hfg_w_sink_flush(hfg_writer *w) {
  if (w->aout) return direct_finish(w);
  if (w->fd < 0 || w->wbuf.len == 0) return 0;
  size_t n = w->wbuf.len;
  w->wbuf.len = 0;
  return sink_out(w, w->wbuf.p, n);
}

int hfg_w_sink_write(hfg_writer *w, const uint8_t *p, size_t n) {
  if (w->fd < 0) {
    if (hfg_buf_append(&w->mem, p, n)) return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
    w->pos += n;
    return 0;
  }
  if (w->aout) return direct_write(w, p, n);
  const size_t chunk = w->chunk;
  if (!w->wbuf.p && hfg_buf_reserve(&w->wbuf, chunk))
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
  /* wbuf holds the bytes after the last multiple of chunk: fill it to the
   * next one; whole chunks from there on go straight from p */
  while (n) {
    size_t room = chunk - w->wbuf.len;
    if (w->wbuf.len == 0 && n >= chunk) {
      size_t whole = n - n % chunk;
      w->pos += whole;
      int rc = sink_out(w, p, whole);
      if (rc) return rc;
      p += whole;
      n -= whole;
      continue;
    }
    size_t take = n < room ? n : room;
    memcpy(w->wbuf.p + w->wbuf.len, p, take);
    w->wbuf.len += take;
    w->pos += take;
    p += take;
    n -= take;
    if (w->wbuf.len == chunk) {
      int rc = hfg_w_sink_flush(w);
      if (rc) return rc;
    }
  }
  return 0;
}

/* Encodes and writes one block at the current position (hfg_block_emit_fn). */
int hfg_w_emit_block(void *ctx, hfg_block_type type, const uint8_t *payload, size_t n,
                      uint64_t *offset, hfg_block_info *info) {
  hfg_writer *w = ctx;
  hfg_buf_reset(&w->out);
  int rc = hfg_block_encode(w->enc, type, payload, n, w->prev_offset[type], &w->out, info, &w->err);
  if (rc) return rc;
  *offset = w->pos;
  rc = hfg_w_sink_write(w, w->out.p, w->out.len);
  if (rc) return rc;
  w->prev_offset[type] = (int64_t)*offset;
  if (w->count_uncompressed) w->total_uncompressed += HFG_BLOCK_HEADER_SIZE + n;
  return 0;
}

static int write_bloom_chunks(hfg_writer *w, hfg_bloom_writer *b, int closing) {
  const uint8_t *data;
  size_t len;
  int more;
  while (b && (more = hfg_bloom_writer_next_chunk(b, closing, &data, &len)) != 0) {
    if (more < 0) return hfg_err_set(&w->err, more, "bloom filter chunk: %s", hfg_strerror(more));
    uint64_t off;
    hfg_block_info info;
    int rc = hfg_w_emit_block(w, HFG_BT_BLOOM_CHUNK, data, len, &off, &info);
    if (rc) return rc;
    if (hfg_bloom_writer_chunk_written(b, off, info.on_disk_size_with_header))
      return hfg_err_set(&w->err, HFG_ENOMEM, "bloom chunk index");
  }
  return 0;
}

/* HFileWriterImpl.writeInlineBlocks: index writer first, then the blooms. */
int hfg_w_write_inline_blocks(hfg_writer *w, int closing) {
  int rc = hfg_index_writer_write_inline(w->index, closing, hfg_w_emit_block, w);
  if (rc) return w->err.code ? w->err.code : hfg_err_set(&w->err, rc, "leaf index block");
  rc = write_bloom_chunks(w, w->bloom, closing);
  if (!rc) rc = write_bloom_chunks(w, w->df_bloom, closing);
  return rc;
}

static int submit_data_block(hfg_writer *w);

/* A data block is written at off: the trailer's offsets and its index entry. */
static int data_block_written(hfg_writer *w, uint64_t off, const hfg_block_info *info,
                              const hfg_buf *key) {
  if (w->first_data_block_offset < 0) w->first_data_block_offset = (int64_t)off;
  w->last_data_block_offset = (int64_t)off;
  if (hfg_index_writer_add(w->index, key->p, key->len, off, info->on_disk_size_with_header))
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
  return 0;
}

/* HFileWriterImpl.finishBlock + the inline blocks that follow a data block. */
int hfg_w_finish_data_block(hfg_writer *w) {
  if (w->block.len == 0) return 0;
  if (w->dbe) { /* the encoded payload, built as the cells were laid (format/dbe.h) */
    int rc = hfg_dbe_finish(w->dbe, w->block.p, w->block.len);
    if (rc) return hfg_err_set(&w->err, rc, "data block encoding: %s", hfg_strerror(rc));
  }
  hfg_cell right, left;
  hfg_kv_parse_key(w->first_key.p, w->first_key.len, &right);
  int has_left = w->prev_block_last_key.len > 0;
  if (has_left) hfg_kv_parse_key(w->prev_block_last_key.p, w->prev_block_last_key.len, &left);
  hfg_buf_reset(&w->index_key);
  if (hfg_buf_reserve(&w->index_key, w->first_key.len + 1))
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
  w->index_key.len = hfg_kv_midpoint_key(has_left ? &left : NULL, &right, w->index_key.p);
  if (!w->stream) {
    uint64_t off;
    hfg_block_info info;
    int rc = w->dbe ? hfg_w_emit_block(w, HFG_BT_ENCODED_DATA, w->dbe->out.p, w->dbe->out.len, &off, &info)
                    : hfg_w_emit_block(w, HFG_BT_DATA, w->block.p, w->block.len, &off, &info);
    if (rc || (rc = data_block_written(w, off, &info, &w->index_key))) return rc;
  }
  /* the block's last key outlives the block: LASTKEY, the next index key, the order check */
  const uint8_t *lk = w->block.p + w->last_key_off;
  hfg_buf_reset(&w->prev_block_last_key);
  hfg_buf_reset(&w->last_key);
  if (hfg_buf_append(&w->prev_block_last_key, lk, w->last_key_len) ||
      hfg_buf_append(&w->last_key, lk, w->last_key_len))
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
  repoint_last(w, w->last_key.p);
  if (w->stream) {
    int rc = submit_data_block(w);
    if (w->dbe) hfg_buf_reset(&w->block); /* the stream took the encoded payload */
    return rc;
  }
  hfg_buf_reset(&w->block);
  return hfg_w_write_inline_blocks(w, 0);
}

/* ---- blocks on a pool (block_pool.h) ----
 * Blocks are submitted in file order and written in that order as they come
 * back. What a serial writer does after writing a block waits for its place:
 * a data block's index entry and the leaf index block that may follow it
 * (written in place, in turn), a bloom chunk's entry. Which bloom chunks follow
 * a data block is decided when it is submitted, as the serial writer decides. */

/* Writes the oldest pending block and does what its place decides. */
static int retire_block(hfg_writer *w) {
  pending *p = &w->pend[w->pend_head];
  hfg_block_type type = p->bloom ? HFG_BT_BLOOM_CHUNK : p->type;
  uint8_t *blk;
  size_t len;
  hfg_block_info info;
  int rc = hfg_block_stream_oldest(w->stream, &blk, &len, &info, &w->err);
  if (rc) return rc;
  hfg_block_set_prev_offset(blk, len, w->prev_offset[type]);
  uint64_t off = w->pos;
  rc = hfg_w_sink_write(w, blk, len);
  hfg_block_stream_pop(w->stream);
  w->pend_head = (w->pend_head + 1) % w->pend_cap;
  w->pend_bound -= p->bound;
  if (rc) return rc;
  w->prev_offset[type] = (int64_t)off;
  w->total_uncompressed += HFG_BLOCK_HEADER_SIZE + info.uncompressed_size;
  if (p->bloom) {
    if (hfg_bloom_writer_chunk_written(p->bloom, off, info.on_disk_size_with_header))
      return hfg_err_set(&w->err, HFG_ENOMEM, "bloom chunk index");
    return 0;
  }
  if ((rc = data_block_written(w, off, &info, &p->key))) return rc;
  rc = hfg_index_writer_write_inline(w->index, 0, hfg_w_emit_block, w);
  if (rc) return w->err.code ? w->err.code : hfg_err_set(&w->err, rc, "leaf index block");
  return 0;
}

int hfg_w_retire_all(hfg_writer *w) {
  int rc = 0;
  while (!rc && hfg_block_stream_pending(w->stream)) rc = retire_block(w);
  return rc;
}

/* The next pending entry, after making room for it. */
static int next_pending(hfg_writer *w, pending **out) {
  int rc = 0;
  while (!rc && hfg_block_stream_full(w->stream)) rc = retire_block(w);
  unsigned n = hfg_block_stream_pending(w->stream);
  *out = &w->pend[(w->pend_head + n) % w->pend_cap];
  return rc;
}

static int submit_data_block(hfg_writer *w) {
  pending *p;
  int rc = next_pending(w, &p);
  if (rc) return rc;
  uint32_t leaf = w->o.index_block_max_size ? w->o.index_block_max_size : 128 * 1024;
  p->bloom = NULL;
  hfg_buf *payload = w->dbe ? &w->dbe->out : &w->block;
  p->type = w->dbe ? HFG_BT_ENCODED_DATA : HFG_BT_DATA;
  p->bound = hfg_block_size_bound(payload->len, w->o.bytes_per_checksum) +
             hfg_block_size_bound((uint64_t)leaf + 32 + w->index_key.len, w->o.bytes_per_checksum);
  hfg_buf t = p->key; /* the index key moves to the entry, its old buffer back */
  p->key = w->index_key;
  w->index_key = t;
  if (hfg_block_stream_submit(w->stream, p->type, payload, NULL, payload->len))
    return hfg_err_set(&w->err, HFG_ESTATE, "block pool: no free slot");
  w->pend_bound += p->bound;
  /* the bloom chunks HBase writes after this block */
  hfg_bloom_writer *blooms[2] = {w->bloom, w->df_bloom};
  for (int i = 0; i < 2; i++) {
    const uint8_t *data;
    size_t len;
    int more;
    while (blooms[i] && (more = hfg_bloom_writer_take_chunk(blooms[i], 0, &data, &len)) != 0) {
      if (more < 0)
        return hfg_err_set(&w->err, more, "bloom filter chunk: %s", hfg_strerror(more));
      if ((rc = next_pending(w, &p))) return rc;
      p->bloom = blooms[i];
      p->bound = hfg_block_size_bound(len, w->o.bytes_per_checksum);
      if (hfg_block_stream_submit(w->stream, HFG_BT_BLOOM_CHUNK, NULL, data, len))
        return hfg_err_set(&w->err, HFG_ESTATE, "block pool: no free slot");
      w->pend_bound += p->bound;
    }
  }
  return 0;
}

int hfg_writer_use_pool(hfg_writer *w, hfg_block_pool *pool, unsigned slots) {
  if (w->err.code) return w->err.code;
  if (w->entries || w->stream || w->state != W_OPEN)
    return hfg_err_set(&w->err, HFG_ESTATE, "a pool must be set before the first cell");
  if (slots < 1) slots = 1;
  w->pend = hfg_calloc(slots, sizeof *w->pend);
  w->stream = w->pend ? hfg_block_stream_new(pool, slots, w->o.codec, w->o.codec_level,
                                             w->o.checksum, w->o.bytes_per_checksum)
                      : NULL;
  if (!w->stream) {
    hfg_free(w->pend);
    w->pend = NULL;
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory for the block pool");
  }
  w->pend_cap = slots;
  return 0;
}

int hfg_writer_reached(hfg_writer *w, uint64_t limit) {
  for (;;) {
    if (w->err.code) return w->err.code;
    uint64_t base = w->pos + w->block.len; /* pending blocks only add to it */
    if (base >= limit) return 1;
    if (!w->stream || !hfg_block_stream_pending(w->stream) || base + w->pend_bound < limit)
      return 0;
    int rc = retire_block(w);
    if (rc) return rc;
  }
}

/* ---- open ---- */

static int writer_new(const char *family, const hfg_writer_options *opts, hfg_writer **out) {
  *out = NULL;
  hfg_writer *w = hfg_calloc(1, sizeof *w);
  if (!w) return HFG_ENOMEM;
  *out = w;
  w->fd = -1;
  hfg_writer_options defaults = HFG_WRITER_OPTIONS_INIT;
  w->o = opts ? *opts : defaults;
  for (int i = 0; i < HFG_BT_COUNT_; i++) w->prev_offset[i] = -1;
  w->first_data_block_offset = w->last_data_block_offset = -1;
  w->count_uncompressed = 1;
  w->ts_min = INT64_MAX;
  w->ts_max = -1;
  w->earliest_put_ts = INT64_MAX;

  if (w->o.version != HFG_WRITER_OPTIONS_VERSION)
    return hfg_err_set(&w->err, HFG_EINVAL, "writer options version %u, expected %u",
                       w->o.version, HFG_WRITER_OPTIONS_VERSION);
  size_t flen = strlen(family);
  if (flen == 0 || flen > HFG_KV_MAX_FAMILY)
    return hfg_err_set(&w->err, HFG_EINVAL, "family name must be 1..%d bytes", HFG_KV_MAX_FAMILY);
  memcpy(w->family, family, flen);
  w->family_len = flen;
  w->chunk = w->o.write_chunk ? w->o.write_chunk : HFG_WRITE_CHUNK_DEFAULT;
  if (w->o.block_size == 0 || w->o.bytes_per_checksum == 0)
    return hfg_err_set(&w->err, HFG_EINVAL, "block size and bytes per checksum must be > 0");
  if (w->o.checksum != HFG_CHECKSUM_CRC32 && w->o.checksum != HFG_CHECKSUM_CRC32C)
    return hfg_err_set(&w->err, HFG_EUNSUPPORTED, "checksum type %d: use CRC32C or CRC32",
                       w->o.checksum);
  if ((unsigned)w->o.codec >= HFG_CODEC_COUNT_)
    return hfg_err_set(&w->err, HFG_EINVAL, "unknown codec %d", w->o.codec);
  if (w->o.gz_impl != HFG_GZ_ZLIB && w->o.gz_impl != HFG_GZ_ISAL)
    return hfg_err_set(&w->err, HFG_EINVAL, "unknown GZ engine %d", w->o.gz_impl);
  if (w->o.codec == HFG_CODEC_GZ && w->o.gz_impl == HFG_GZ_ISAL) {
    if (!hfg_gz_isal_available())
      return hfg_err_set(&w->err, HFG_EINVAL, "GZ engine isal: this hfilegen was built without ISA-L");
    /* the block encoders take the engine folded into the level */
    w->o.codec_level = (w->o.codec_level < 0 ? 0 : w->o.codec_level) | HFG_GZ_LEVEL_ISAL;
  }
  if ((unsigned)w->o.encoding >= HFG_ENCODING_COUNT_)
    return hfg_err_set(&w->err, HFG_EINVAL, "unknown data block encoding %d", w->o.encoding);
  if (w->o.encoding != HFG_ENCODING_NONE) {
    if (!(w->dbe = hfg_malloc(sizeof *w->dbe)))
      return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory creating the writer");
    hfg_dbe_init(w->dbe, w->o.encoding);
  }
  w->source_task = hfg_strdup(w->o.bulkload_source_task ? w->o.bulkload_source_task : "hfilegen");
  w->enc = hfg_block_encoder_new(w->o.codec, w->o.codec_level, w->o.checksum,
                                 w->o.bytes_per_checksum);
  w->index = hfg_index_writer_new(w->o.index_block_max_size, w->o.index_min_entries);
  if (!w->source_task || !w->enc || !w->index)
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory creating the writer");
  if (!(w->o.bloom_error_rate > 0.0f && w->o.bloom_error_rate < 1.0f) ||
      w->o.bloom_block_size == 0 || w->o.bloom_max_fold < 0 || w->o.bloom_max_fold > 30)
    return hfg_err_set(&w->err, HFG_EINVAL,
                       "bloom options: error rate must be in (0, 1), block size > 0, max fold "
                       "0..30");
  if (w->o.bloom == HFG_BLOOM_ROWPREFIX && (w->o.bloom_prefix_length == 0 ||
                                            w->o.bloom_prefix_length > HFG_KV_MAX_ROW))
    return hfg_err_set(&w->err, HFG_EINVAL, "a ROWPREFIX_FIXED_LENGTH bloom needs a prefix "
                       "length of 1..%d bytes", HFG_KV_MAX_ROW);
  if (w->o.bloom != HFG_BLOOM_NONE) {
    /* ROWPREFIX_FIXED_LENGTH is a ROW bloom over the rows' first N bytes
     * (RowPrefixFixedLengthBloomContext) */
    w->bloom = hfg_bloom_writer_new(w->o.bloom == HFG_BLOOM_ROWPREFIX ? HFG_BLOOM_ROW : w->o.bloom, w->o.bloom_error_rate, w->o.bloom_block_size,
                                    w->o.bloom_max_fold);
    if (!w->bloom) return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory creating the bloom filter");
  }
  /* StoreFileWriter keeps a delete-family bloom unless the general one is ROWCOL. */
  if (w->o.bloom != HFG_BLOOM_ROWCOL) {
    w->df_bloom = hfg_bloom_writer_new(HFG_BLOOM_ROW, w->o.bloom_error_rate,
                                       w->o.bloom_block_size, w->o.bloom_max_fold);
    if (!w->df_bloom) return hfg_err_set(&w->err, HFG_ENOMEM, "cannot create the bloom filter");
  }
  return 0;
}

int hfg_writer_open(const char *path, const char *family, const hfg_writer_options *opts,
                    hfg_writer **out) {
  int rc = writer_new(family, opts, out);
  if (rc) return rc;
  hfg_writer *w = *out;
  w->path = hfg_strdup(path);
  if (!w->path) return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
  int direct = w->o.fsync && w->o.direct_io;
  w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (direct ? O_DIRECT : 0), 0644);
  if (w->fd < 0 && direct && errno == EINVAL) { /* a file system without direct I/O */
    direct = 0;
    w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  if (w->fd < 0)
    return hfg_err_set(&w->err, errno == ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: cannot create: %s",
                       path, strerror(errno));
  if (direct) {
    w->dio_align = dio_align(w->fd);
    if (w->dio_align == 0 || w->chunk % w->dio_align) {
      int fl = fcntl(w->fd, F_GETFL);
      if (fl >= 0) (void)fcntl(w->fd, F_SETFL, fl & ~O_DIRECT);
      direct = 0;
    }
  }
  /* O_DIRECT: 4 chunks, one filled here while the thread writes the others */
  if (direct && !(w->aout = hfg_aout_new(w->fd, 1, w->chunk, w->dio_align, 4)))
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
  return 0;
}

int hfg_writer_open_mem(const char *family, const hfg_writer_options *opts, hfg_writer **out) {
  return writer_new(family, opts, out);
}

/* ---- append ---- */

static void describe_key(const hfg_cell *c, char *out, size_t cap) {
  hfg_buf b = HFG_BUF_INIT;
  hfg_escape(&b, c->row, c->row_len);
  hfg_buf_put_u8(&b, '/');
  hfg_escape(&b, c->family, c->family_len);
  hfg_buf_put_u8(&b, ':');
  hfg_escape(&b, c->qualifier, c->qualifier_len);
  const char *tn = hfg_cell_type_name(c->type);
  snprintf(out, cap, "%.*s/%lld/%s", (int)(b.len > 300 ? 300 : b.len), b.p ? (char *)b.p : "",
           (long long)c->timestamp, tn ? tn : "?");
  hfg_buf_free(&b);
}

static int place_cell(hfg_writer *w, const hfg_cell *c, int dup);

/* Appends c after every check (hfg_writer_append). */
static int append_cell(hfg_writer *w, const hfg_cell *c) {
  if (w->err.code) return w->err.code;
  if (w->state != W_OPEN) return hfg_err_set(&w->err, HFG_ESTATE, "append after finish/abandon");
  if (c->family_len != w->family_len ||
      (c->family != w->family && memcmp(c->family, w->family, w->family_len) != 0))
    return hfg_err_set(&w->err, HFG_EINVAL, "cell family differs from the writer's family '%.*s'",
                       (int)w->family_len, (const char *)w->family);
  int rc = hfg_kv_check(c);
  if (rc)
    return hfg_err_set(&w->err, rc,
                       "cell exceeds HFile limits (row 1..%d bytes, family <= %d, tags <= %d, "
                       "key and value < 2 GiB): row length %zu",
                       HFG_KV_MAX_ROW, HFG_KV_MAX_FAMILY, HFG_KV_MAX_TAGS, c->row_len);
  if (c->type != HFG_TYPE_PUT && (hfg_cell_type_name(c->type) == NULL ||
                                  c->type == HFG_TYPE_MINIMUM || c->type == HFG_TYPE_MAXIMUM))
    return hfg_err_set(&w->err, HFG_EINVAL, "cell type %u is not a cell type", c->type);

  int dup = 0;
  if (w->entries) {
    int cmp = hfg_kv_compare(c, &w->last);
    if (cmp < 0) {
      char a[400], b[400];
      describe_key(&w->last, a, sizeof a);
      describe_key(c, b, sizeof b);
      return hfg_err_set(&w->err, HFG_EORDER,
                         "cell out of order: %s appended after %s (cells must be in HBase order)",
                         b, a);
    }
    dup = cmp == 0;
  }

  /* StoreFileWriter.append: blooms first, then the data block boundary. */
  if (w->bloom && (rc = hfg_bloom_writer_add(w->bloom, c->row, bloom_row_len(w, c->row_len),
                                             c->qualifier, c->qualifier_len)))
    return hfg_err_set(&w->err, rc, "bloom filter: %s", hfg_strerror(rc));
  if (c->type == HFG_TYPE_DELETE_FAMILY || c->type == HFG_TYPE_DELETE_FAMILY_VERSION) {
    w->delete_family_count++;
    if (w->df_bloom && (rc = hfg_bloom_writer_add(w->df_bloom, c->row, c->row_len, NULL, 0)))
      return hfg_err_set(&w->err, rc, "delete-family bloom filter: %s", hfg_strerror(rc));
  }
  return place_cell(w, c, dup);
}

/* The part of an append after the checks, the order and the blooms: the data
 * block boundary (never between two equal keys), the cell's bytes, the last
 * key and the file's statistics. */
static int place_cell(hfg_writer *w, const hfg_cell *c, int dup) {
  if (!dup && block_full(w)) {
    int rc = hfg_w_finish_data_block(w);
    if (rc) return rc;
  }
  size_t key_len = hfg_kv_key_len(c);
  size_t cell_len = hfg_kv_cell_len(c);
  if (hfg_buf_reserve(&w->block, cell_len))
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory for a %zu-byte cell", cell_len);
  uint8_t *cell = w->block.p + w->block.len;
  hfg_kv_put_cell(cell, c);
  return note_cell(w, cell, cell_len, key_len, c, 0);
}

int hfg_writer_append(hfg_writer *w, const hfg_cell *c) { return append_cell(w, c); }

int hfg_writer_last_row(const hfg_writer *w, const uint8_t **row, size_t *len) {
  if (w->entries == 0) {
    *row = NULL;
    *len = 0;
    return 0;
  }
  *row = w->last.row;
  *len = w->last.row_len;
  return 1;
}

/* ---- finish (the load-on-open section and trailer: hfile_writer_finish.c) ---- */

int hfg_writer_finish(hfg_writer *w) {
  if (w->err.code) {
    hfg_writer_abandon(w);
    return w->err.code;
  }
  if (w->state != W_OPEN) return hfg_err_set(&w->err, HFG_ESTATE, "finish called twice");
  int rc = hfg_w_finish_file(w);
  if (rc) {
    hfg_writer_abandon(w);
    return rc;
  }
  w->state = W_FINISHED;
  return 0;
}

void hfg_writer_abandon(hfg_writer *w) {
  if (!w || w->state == W_ABANDONED) return;
  hfg_aout_free(w->aout); /* its thread writes to fd until it stops */
  w->aout = NULL;
  if (w->fd >= 0) {
    close(w->fd);
    w->fd = -1;
  }
  if (w->path && w->state == W_OPEN) unlink(w->path);
  w->state = W_ABANDONED;
}

void hfg_writer_free(hfg_writer *w) {
  if (!w) return;
  if (w->state == W_OPEN) hfg_writer_abandon(w);
  hfg_aout_free(w->aout);
  hfg_block_stream_free(w->stream); /* first: its blocks borrow the blooms' chunks */
  for (unsigned i = 0; i < w->pend_cap; i++) hfg_buf_free(&w->pend[i].key);
  hfg_free(w->pend);
  hfg_block_encoder_free(w->enc);
  hfg_index_writer_free(w->index);
  hfg_bloom_writer_free(w->bloom);
  hfg_bloom_writer_free(w->df_bloom);
  hfg_buf_free(&w->mem);
  hfg_buf_free(&w->wbuf);
  hfg_buf_free(&w->block);
  hfg_buf_free(&w->out);
  hfg_buf_free(&w->last_key);
  hfg_buf_free(&w->first_key);
  hfg_buf_free(&w->prev_block_last_key);
  hfg_buf_free(&w->index_key);
  hfg_buf_free(&w->biggest_key);
  if (w->dbe) hfg_dbe_free(w->dbe);
  hfg_free(w->dbe);
  hfg_free(w->source_task);
  hfg_free(w->path);
  hfg_free(w);
}

int hfg_writer_status(const hfg_writer *w) { return w->err.code; }
const char *hfg_writer_errmsg(const hfg_writer *w) { return w->err.msg; }
uint64_t hfg_writer_entries(const hfg_writer *w) { return w->entries; }
uint64_t hfg_writer_bytes(const hfg_writer *w) { return w->pos + w->block.len; }
unsigned hfg_writer_index_levels(const hfg_writer *w) { return hfg_index_writer_levels(w->index); }

const uint8_t *hfg_writer_mem_data(const hfg_writer *w, size_t *len) {
  *len = w->mem.len;
  return w->mem.p;
}
