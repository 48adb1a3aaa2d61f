/*
 * Data block index writer: single-level, or multi-level with inline leaf
 * blocks, intermediate levels and mid-key metadata, following HBase's
 * HFileBlockIndex.BlockIndexWriter (format-specs/block-index.md).
 *
 * The index writer decides what index blocks exist and encodes their payloads;
 * the HFile writer places them in the file through the emit callback, which
 * writes one block and reports its offset and sizes.
 *
 * Lifecycle: new → (add → write_inline(closing = 0))* → write_inline(closing = 1)
 *            → finish → free
 */
#ifndef HFG_FORMAT_INDEX_H
#define HFG_FORMAT_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "format/block.h"
#include "util/buf.h"
#include "util/err.h"

typedef int (*hfg_block_emit_fn)(void *ctx, hfg_block_type type, const uint8_t *payload, size_t n,
                                 uint64_t *offset, hfg_block_info *info);

typedef struct hfg_index_writer hfg_index_writer;

/* max_chunk_size: hfile.index.block.max.size (HBase default 131072);
 * min_entries: hfile.index.block.min.entries (default 16). */
hfg_index_writer *hfg_index_writer_new(uint32_t max_chunk_size, uint32_t min_entries);

/* Records the index entry of one data block (key copied). */
int hfg_index_writer_add(hfg_index_writer *w, const uint8_t *key, size_t key_len, uint64_t offset,
                         uint32_t on_disk_size);

/* After each data block (closing = 0) and at close (closing = 1): writes a
 * leaf index block when the inline chunk is full (or, at close, holds entries
 * and a leaf was already written). At close with no leaf written, the entries
 * become a single-level root instead. */
int hfg_index_writer_write_inline(hfg_index_writer *w, int closing, hfg_block_emit_fn emit,
                                  void *ctx);

/* Writes intermediate levels (while the root is too big) and the root block.
 * *root_offset receives the root block's offset (trailer load_on_open). */
int hfg_index_writer_finish(hfg_index_writer *w, hfg_block_emit_fn emit, void *ctx,
                            uint64_t *root_offset);

unsigned hfg_index_writer_levels(const hfg_index_writer *w);
uint32_t hfg_index_writer_root_count(const hfg_index_writer *w);
/* Σ uncompressed payload sizes of leaf, intermediate and root blocks. */
uint64_t hfg_index_writer_uncompressed_size(const hfg_index_writer *w);

void hfg_index_writer_free(hfg_index_writer *w);

/* Single-level root payload of (offset, size, key) entries, used for the meta
 * index and by tests. */
int hfg_index_encode_root_entry(hfg_buf *out, uint64_t offset, uint32_t on_disk_size,
                                const uint8_t *key, size_t key_len);

#endif
