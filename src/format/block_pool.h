/*
 * A pool of threads that encode HFile blocks (compression and checksums,
 * block.h) for any number of writers at once, so that one writer laying out
 * cells in order keeps every core busy.
 *
 * A writer attaches a stream and submits its blocks in file order. Workers
 * encode them in any order, each with its own codec contexts; the writer
 * retires them strictly in submit order: hfg_block_stream_oldest waits for the
 * oldest block (running its own stream's queued blocks on the calling thread
 * meanwhile rather than sleeping), the writer places it
 * (hfg_block_set_prev_offset), writes it and records its offset and size, then
 * hfg_block_stream_pop frees its slot. A block's bytes equal a serial
 * hfg_block_encode of the same payload: the codecs keep no state from one
 * block to the next.
 *
 * Memory: a stream has a fixed number of slots, each holding a payload buffer
 * and an encoded buffer that keep their capacity (about two blocks per slot);
 * submit needs a free slot (hfg_block_stream_full: retire one first). The
 * pool's workers hold one codec context per codec setting they met.
 *
 * Lifecycle: pool_new → (stream_new → (submit | oldest → pop)* → stream_free)*
 *            → pool_free. A stream belongs to one thread; the pool to all.
 */
#ifndef HFG_FORMAT_BLOCK_POOL_H
#define HFG_FORMAT_BLOCK_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "format/block.h"
#include "hfilegen/writer.h"

typedef struct hfg_block_pool hfg_block_pool;
typedef struct hfg_block_stream hfg_block_stream;

/* workers threads (0: every block is encoded by its writer's thread when it
 * retires it). NULL on ENOMEM or when no thread could be started. */
hfg_block_pool *hfg_block_pool_new(unsigned workers);
/* Stops and joins the workers; every stream must have been freed. NULL ok. */
void hfg_block_pool_free(hfg_block_pool *p);

/* delta (+1 or -1): a thread starts or stops submitting blocks (to any of
 * its streams). While the producers are as many as the workers, or more, the
 * workers neither spin nor wake for new blocks: each producer encodes its own
 * when it retires them (the bytes are the same). Default 0 producers: the
 * workers take every block. */
void hfg_block_pool_producers(hfg_block_pool *p, int delta);
/* Blocks the pool's workers encoded so far (not those their streams' own threads did). */
uint64_t hfg_block_pool_worker_blocks(hfg_block_pool *p);

/* A stream of blocks encoded with one codec setting; slots >= 1. NULL on ENOMEM. */
hfg_block_stream *hfg_block_stream_new(hfg_block_pool *p, unsigned slots, hfg_codec codec,
                                       int level, hfg_checksum_type checksum,
                                       uint32_t bytes_per_checksum);
/* Waits for the stream's running blocks, drops its queued ones, frees it. NULL ok. */
void hfg_block_stream_free(hfg_block_stream *s);

unsigned hfg_block_stream_pending(const hfg_block_stream *s); /* submitted, not popped */
int hfg_block_stream_full(const hfg_block_stream *s);         /* no slot free */

/* Queues a block of payload[0..n). owned: the stream takes *owned's bytes and
 * leaves in *owned an empty buffer (of an earlier block, capacity kept);
 * borrowed (owned NULL): the bytes must stay unchanged until the block is
 * popped. HFG_ESTATE when the stream is full. */
int hfg_block_stream_submit(hfg_block_stream *s, hfg_block_type type, hfg_buf *owned,
                            const uint8_t *borrowed, size_t n);

/* Waits until the oldest block is encoded: *block / *len its bytes (with
 * prevBlockOffset -1, writable, borrowed until pop), *info its sizes. Returns
 * the encoding's error (with err filled) or HFG_ESTATE when nothing is pending. */
int hfg_block_stream_oldest(hfg_block_stream *s, uint8_t **block, size_t *len,
                            hfg_block_info *info, hfg_err *err);
/* Frees the oldest block's slot. */
void hfg_block_stream_pop(hfg_block_stream *s);

/* Writer side (hfile_writer.c): blocks of w are encoded on the pool from now
 * on, with `slots` blocks in flight at most. Call after open, before the first
 * append; the pool must outlive the writer. HFG_ENOMEM, HFG_ESTATE if cells
 * were appended. Output bytes are those of a writer without a pool. */
int hfg_writer_use_pool(hfg_writer *w, hfg_block_pool *p, unsigned slots);

/* Whether the file, as a writer without a pool would have it now, holds at
 * least `limit` bytes (hfg_writer_bytes >= limit): 1 or 0, waiting for blocks
 * in flight only when their sizes decide it; < 0 on an error (sticky). */
int hfg_writer_reached(hfg_writer *w, uint64_t limit);

#endif
