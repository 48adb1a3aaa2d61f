/* Block index writer: format-specs/block-index.md. */
#include "format/index.h"

#include "util/alloc.h"
#include "util/coding.h"

#define MID_KEY_METADATA_SIZE 16
#define MAX_INDEX_LEVELS 16

/* One level's worth of entries (BlockIndexChunkImpl). Keys live in one arena. */
typedef struct entry {
  uint64_t offset;
  uint32_t on_disk_size;
  uint32_t key_len;
  size_t key_off;
  uint64_t cum_sub_entries; /* data blocks covered up to and including this one */
} entry;

typedef struct chunk {
  entry *e;
  size_t n, cap;
  hfg_buf keys;
  size_t root_size;          /* Σ 8 + 4 + vint(len) + len */
  size_t nonroot_entry_size; /* Σ 12 + len */
} chunk;

struct hfg_index_writer {
  chunk inline_chunk;   /* current leaf-level chunk */
  chunk root;           /* root-level entries */
  int inline_open;      /* 0 once entries moved to the root at close */
  int leaf_written;
  uint8_t *leaf_first_key; /* first key of the leaf being written */
  size_t leaf_first_key_len;
  uint64_t total_entries;
  uint64_t total_uncompressed;
  unsigned levels;
  uint32_t max_chunk;
  uint32_t min_entries;
};

static void chunk_clear(chunk *c) {
  c->n = 0;
  hfg_buf_reset(&c->keys);
  c->root_size = c->nonroot_entry_size = 0;
}

static void chunk_free(chunk *c) {
  hfg_free(c->e);
  hfg_buf_free(&c->keys);
  c->e = NULL;
  c->n = c->cap = 0;
}

static int chunk_add(chunk *c, const uint8_t *key, size_t len, uint64_t off, uint32_t size,
                     uint64_t cum) {
  if (c->n == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 64;
    entry *e = hfg_realloc(c->e, cap * sizeof *e);
    if (!e) return HFG_ENOMEM;
    c->e = e;
    c->cap = cap;
  }
  size_t key_off = c->keys.len;
  if (hfg_buf_append(&c->keys, key, len)) return HFG_ENOMEM;
  c->e[c->n++] = (entry){off, size, (uint32_t)len, key_off, cum};
  c->root_size += 8 + 4 + hfg_vlong_size((int64_t)len) + len;
  c->nonroot_entry_size += 12 + len;
  return 0;
}

static size_t chunk_nonroot_size(const chunk *c) {
  return 4 + 4 * (c->n + 1) + c->nonroot_entry_size;
}

static const uint8_t *chunk_key(const chunk *c, size_t i) { return c->keys.p + c->e[i].key_off; }

/* Root format: per entry offset:be64 size:be32 vint(len) key. */
int hfg_index_encode_root_entry(hfg_buf *out, uint64_t offset, uint32_t on_disk_size,
                                const uint8_t *key, size_t key_len) {
  if (hfg_buf_put_be64(out, offset) || hfg_buf_put_be32(out, on_disk_size) ||
      hfg_buf_put_vlong(out, (int64_t)key_len) || hfg_buf_append(out, key, key_len))
    return HFG_ENOMEM;
  return 0;
}

static int chunk_encode_root(const chunk *c, hfg_buf *out) {
  for (size_t i = 0; i < c->n; i++)
    if (hfg_index_encode_root_entry(out, c->e[i].offset, c->e[i].on_disk_size, chunk_key(c, i),
                                    c->e[i].key_len))
      return HFG_ENOMEM;
  return 0;
}

/* Non-root format: numEntries:be32, secondary index of (n + 1) be32 offsets
 * relative to the entries area, then entries offset:be64 size:be32 key. */
static int chunk_encode_nonroot(const chunk *c, hfg_buf *out) {
  if (hfg_buf_reserve(out, chunk_nonroot_size(c))) return HFG_ENOMEM;
  hfg_buf_put_be32(out, (uint32_t)c->n);
  uint32_t rel = 0;
  for (size_t i = 0; i < c->n; i++) {
    hfg_buf_put_be32(out, rel);
    rel += 12 + c->e[i].key_len;
  }
  hfg_buf_put_be32(out, rel);
  for (size_t i = 0; i < c->n; i++) {
    hfg_buf_put_be64(out, c->e[i].offset);
    hfg_buf_put_be32(out, c->e[i].on_disk_size);
    hfg_buf_append(out, chunk_key(c, i), c->e[i].key_len);
  }
  return 0;
}

hfg_index_writer *hfg_index_writer_new(uint32_t max_chunk_size, uint32_t min_entries) {
  hfg_index_writer *w = hfg_calloc(1, sizeof *w);
  if (!w) return NULL;
  w->inline_open = 1;
  w->levels = 1;
  w->max_chunk = max_chunk_size ? max_chunk_size : 128 * 1024;
  w->min_entries = min_entries ? min_entries : 16;
  return w;
}

void hfg_index_writer_free(hfg_index_writer *w) {
  if (!w) return;
  chunk_free(&w->inline_chunk);
  chunk_free(&w->root);
  hfg_free(w->leaf_first_key);
  hfg_free(w);
}

int hfg_index_writer_add(hfg_index_writer *w, const uint8_t *key, size_t key_len, uint64_t offset,
                         uint32_t on_disk_size) {
  if (!w->inline_open) return HFG_ESTATE;
  w->total_entries++;
  return chunk_add(&w->inline_chunk, key, key_len, offset, on_disk_size, w->total_entries);
}

/* BlockIndexWriter.shouldWriteBlock. */
static int should_write_leaf(hfg_index_writer *w, int closing) {
  if (!w->inline_open || w->inline_chunk.n == 0) return 0;
  if (closing) {
    if (w->root.n == 0) {
      /* No leaf yet: the entries become a single-level root. */
      chunk tmp = w->root;
      w->root = w->inline_chunk;
      w->inline_chunk = tmp;
      w->inline_open = 0;
      return 0;
    }
    return 1;
  }
  return chunk_nonroot_size(&w->inline_chunk) >= w->max_chunk;
}

int hfg_index_writer_write_inline(hfg_index_writer *w, int closing, hfg_block_emit_fn emit,
                                  void *ctx) {
  while (should_write_leaf(w, closing)) {
    hfg_buf payload = HFG_BUF_INIT;
    int rc = chunk_encode_nonroot(&w->inline_chunk, &payload);
    uint64_t off = 0;
    hfg_block_info info;
    if (!rc) rc = emit(ctx, HFG_BT_LEAF_INDEX, payload.p, payload.len, &off, &info);
    hfg_buf_free(&payload);
    if (rc) return rc;
    /* blockWritten: the root gets the leaf's first key, with the running count
     * of data blocks for the mid-key computation. */
    rc = chunk_add(&w->root, chunk_key(&w->inline_chunk, 0), w->inline_chunk.e[0].key_len, off,
                   info.on_disk_size_with_header, w->total_entries);
    if (rc) return rc;
    w->total_uncompressed += info.uncompressed_size;
    w->leaf_written = 1;
    w->levels = 2;
    chunk_clear(&w->inline_chunk);
  }
  return 0;
}

/* BlockIndexChunkImpl.getMidKeyMetadata: the leaf holding data-block entry
 * (N - 1) / 2 and that entry's position inside the leaf. */
static void mid_key_metadata(const chunk *root, uint8_t out[MID_KEY_METADATA_SIZE]) {
  uint64_t total = root->e[root->n - 1].cum_sub_entries;
  uint64_t mid = (total - 1) / 2;
  size_t i = 0;
  while (i < root->n && root->e[i].cum_sub_entries <= mid) i++;
  uint64_t before = i > 0 ? root->e[i - 1].cum_sub_entries : 0;
  hfg_put_be64(out, root->e[i].offset);
  hfg_put_be32(out + 8, root->e[i].on_disk_size);
  hfg_put_be32(out + 12, (uint32_t)(mid - before));
}

static int write_intermediate_block(hfg_index_writer *w, chunk *cur, chunk *parent,
                                    hfg_block_emit_fn emit, void *ctx) {
  hfg_buf payload = HFG_BUF_INIT;
  int rc = chunk_encode_nonroot(cur, &payload);
  uint64_t off = 0;
  hfg_block_info info;
  if (!rc) rc = emit(ctx, HFG_BT_INTERMEDIATE_INDEX, payload.p, payload.len, &off, &info);
  hfg_buf_free(&payload);
  if (!rc) rc = chunk_add(parent, chunk_key(cur, 0), cur->e[0].key_len, off,
                          info.on_disk_size_with_header, 0);
  if (rc) return rc;
  w->total_uncompressed += info.uncompressed_size;
  chunk_clear(cur);
  return 0;
}

/* BlockIndexWriter.writeIntermediateLevel: packs the current level into
 * INTERMEDIATE_INDEX blocks; a chunk is cut once it has passed min_entries
 * (counted over the whole level) and reached max_chunk in root format. */
static int write_intermediate_level(hfg_index_writer *w, hfg_block_emit_fn emit, void *ctx) {
  chunk parent = {0}, cur = {0};
  int rc = 0;
  for (size_t i = 0; i < w->root.n && !rc; i++) {
    rc = chunk_add(&cur, chunk_key(&w->root, i), w->root.e[i].key_len, w->root.e[i].offset,
                   w->root.e[i].on_disk_size, 0);
    if (!rc && i >= w->min_entries && cur.root_size >= w->max_chunk)
      rc = write_intermediate_block(w, &cur, &parent, emit, ctx);
  }
  if (!rc && cur.n > 0) rc = write_intermediate_block(w, &cur, &parent, emit, ctx);
  chunk_free(&cur);
  if (rc) {
    chunk_free(&parent);
    return rc;
  }
  chunk_free(&w->root);
  w->root = parent;
  return 0;
}

int hfg_index_writer_finish(hfg_index_writer *w, hfg_block_emit_fn emit, void *ctx,
                            uint64_t *root_offset) {
  if (w->inline_open && w->inline_chunk.n != 0) return HFG_ESTATE;
  uint8_t mid[MID_KEY_METADATA_SIZE];
  int has_mid = w->levels > 1;
  if (has_mid) mid_key_metadata(&w->root, mid);
  if (w->leaf_written) {
    while (w->root.root_size > w->max_chunk && w->root.n > w->min_entries &&
           w->levels < MAX_INDEX_LEVELS) {
      int rc = write_intermediate_level(w, emit, ctx);
      if (rc) return rc;
      w->levels++;
    }
  }
  hfg_buf payload = HFG_BUF_INIT;
  int rc = chunk_encode_root(&w->root, &payload);
  if (!rc && has_mid && hfg_buf_append(&payload, mid, sizeof mid)) rc = HFG_ENOMEM;
  hfg_block_info info;
  if (!rc) rc = emit(ctx, HFG_BT_ROOT_INDEX, payload.p, payload.len, root_offset, &info);
  hfg_buf_free(&payload);
  if (rc) return rc;
  w->total_uncompressed += info.uncompressed_size;
  w->inline_open = 0;
  return 0;
}

unsigned hfg_index_writer_levels(const hfg_index_writer *w) { return w->levels; }
uint32_t hfg_index_writer_root_count(const hfg_index_writer *w) { return (uint32_t)w->root.n; }
uint64_t hfg_index_writer_uncompressed_size(const hfg_index_writer *w) {
  return w->total_uncompressed;
}
