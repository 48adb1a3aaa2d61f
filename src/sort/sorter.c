/* External merge sort by region: see sorter.h for the design. */
#include "sort/sorter.h"

#include <lz4.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sort/sorter_sort.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/fsio.h"

#define SLAB_MIN ((size_t)64 << 10)
#define MERGE_FANIN 64
#define READ_BUF ((size_t)256 << 10)  /* largest merge read buffer, plain spill write buffer */
#define READ_MIN ((size_t)16 << 10)   /* smallest merge read buffer */
#define LZ4_FRAME ((size_t)64 << 10)  /* raw bytes of an LZ4 spill frame */


typedef struct region_mem {
  item *v;
  size_t n, cap;
  uint64_t rows, bytes; /* totals over the job */
} region_mem;

typedef struct run {
  char *path;
  uint64_t *seg; /* nregions + 1 offsets: region r is [seg[r], seg[r+1]) */
} run;

typedef struct slab {
  uint8_t *p;
  size_t len, cap;
} slab;

/* One adder's share (hfg_sorter_set_parts): its own slabs, per-region index
 * and budget, so parallel ingest workers add without a lock. */
typedef struct part {
  region_mem *reg;
  slab *slabs;
  size_t nslabs, cur_slab;
  size_t used;   /* slab bytes + index bytes in use */
  size_t budget; /* this part's share of the records budget */
} part;

struct hfg_sorter {
  size_t nregions;
  size_t budget;
  char *tmp_dir;
  part *parts;
  size_t nparts;
  pthread_mutex_t mu;   /* runs, run_seq, spilled, discarded: parts spill concurrently */
  run *runs;
  size_t nruns;
  unsigned run_seq;
  uint64_t spilled;
  int lz4;              /* compress spill runs */
  size_t merge_mem;     /* the budget's share for merge read buffers, all readers together */
  unsigned readers;     /* iterators open at once while emitting */
  volatile sig_atomic_t *cancel; /* hfg_sorter_set_cancel, may be NULL */
  uint64_t discarded;   /* bytes of partial runs a failure removed */
};

uint64_t hfg_rec_seq(const uint8_t *r) { return hfg_get_be64(r + 6 + hfg_rec_klen(r)); }


hfg_sorter *hfg_sorter_new(size_t nregions, size_t mem_budget, const char *tmp_dir) {
  hfg_sorter *s = hfg_calloc(1, sizeof *s);
  if (!s) return NULL;
  s->nregions = nregions;
  s->budget = mem_budget < ((size_t)256 << 10) ? ((size_t)256 << 10) : mem_budget;
  /* an eighth of the budget reads the runs back; the rest holds records and index */
  s->merge_mem = s->budget / 8;
  s->budget -= s->merge_mem;
  s->readers = 1;
  s->tmp_dir = hfg_strdup(tmp_dir ? tmp_dir : "/tmp");
  pthread_mutex_init(&s->mu, NULL);
  if (!s->tmp_dir || hfg_sorter_set_parts(s, 1, 0)) {
    hfg_sorter_free(s);
    return NULL;
  }
  return s;
}

static void free_parts(hfg_sorter *s) {
  for (size_t k = 0; s->parts && k < s->nparts; k++) {
    part *pt = &s->parts[k];
    for (size_t i = 0; i < pt->nslabs; i++) hfg_free(pt->slabs[i].p);
    hfg_free(pt->slabs);
    if (pt->reg)
      for (size_t i = 0; i < s->nregions; i++) hfg_free(pt->reg[i].v);
    hfg_free(pt->reg);
  }
  hfg_free(s->parts);
  s->parts = NULL;
  s->nparts = 0;
}

int hfg_sorter_set_parts(hfg_sorter *s, size_t n, size_t reserve) {
  if (n == 0) n = 1;
  free_parts(s);
  /* what the adders hold besides the sorter comes out of the records budget */
  s->budget = s->budget > reserve + ((size_t)256 << 10) ? s->budget - reserve : (size_t)256 << 10;
  s->parts = hfg_calloc(n, sizeof *s->parts);
  if (!s->parts) return HFG_ENOMEM;
  s->nparts = n;
  for (size_t k = 0; k < n; k++) {
    s->parts[k].budget = s->budget / n;
    if (!(s->parts[k].reg = hfg_calloc(s->nregions, sizeof *s->parts[k].reg))) {
      free_parts(s);
      return HFG_ENOMEM;
    }
  }
  return 0;
}

static void remove_runs(hfg_sorter *s) {
  for (size_t i = 0; i < s->nruns; i++) {
    unlink(s->runs[i].path);
    hfg_free(s->runs[i].path);
    hfg_free(s->runs[i].seg);
  }
  hfg_free(s->runs);
  s->runs = NULL;
  s->nruns = 0;
}

void hfg_sorter_free(hfg_sorter *s) {
  if (!s) return;
  remove_runs(s);
  free_parts(s);
  pthread_mutex_destroy(&s->mu);
  hfg_free(s->tmp_dir);
  hfg_free(s);
}

/* ---- run files ---- */

/* A run being written. Without compression the file is the records back to
 * back. With LZ4 it is a sequence of frames, rawLen:be32 compLen:be32 then an
 * LZ4 block, and every region's segment starts on a frame boundary. */
typedef struct wbuf {
  int fd;
  const char *path;
  uint8_t *p;
  size_t len, cap;
  uint64_t file_pos;   /* bytes written to the file so far */
  int lz4;
  uint8_t *z;          /* compression output */
  size_t zcap;
} wbuf;

#define FRAME_HEADER 8

static int write_bytes(wbuf *w, const uint8_t *p, size_t n, hfg_err *err) {
  int rc = hfg_io_write_all(w->fd, p, n);
  if (rc)
    return hfg_err_set(err, rc == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "spill file %s: write: %s",
                       w->path, strerror(-rc));
  w->file_pos += n;
  return 0;
}

static int write_frame(wbuf *w, const uint8_t *p, size_t n, hfg_err *err) {
  if (!w->lz4) return write_bytes(w, p, n, err);
  size_t bound = (size_t)LZ4_compressBound((int)n) + FRAME_HEADER;
  if (bound > w->zcap) {
    uint8_t *z = hfg_realloc(w->z, bound);
    if (!z) return hfg_err_set(err, HFG_ENOMEM, "out of memory compressing a spill run");
    w->z = z;
    w->zcap = bound;
  }
  int c = LZ4_compress_default((const char *)p, (char *)w->z + FRAME_HEADER, (int)n,
                               (int)(bound - FRAME_HEADER));
  if (c <= 0) return hfg_err_set(err, HFG_ECODEC, "spill file %s: lz4 failed", w->path);
  hfg_put_be32(w->z, (uint32_t)n);
  hfg_put_be32(w->z + 4, (uint32_t)c);
  return write_bytes(w, w->z, FRAME_HEADER + (size_t)c, err);
}

static int wbuf_flush(wbuf *w, hfg_err *err) {
  if (!w->len) return 0;
  int rc = write_frame(w, w->p, w->len, err);
  if (!rc) w->len = 0;
  return rc;
}

static int wbuf_put(wbuf *w, const uint8_t *p, size_t n, hfg_err *err) {
  if (w->len + n > w->cap) {
    int rc = wbuf_flush(w, err);
    if (rc) return rc;
    if (n >= w->cap) return n > INT32_MAX / 2 ? hfg_err_set(err, HFG_ETOOBIG, "record too large")
                                              : write_frame(w, p, n, err);
  }
  memcpy(w->p + w->len, p, n);
  w->len += n;
  return 0;
}

/* The file offset where the next record will start: a region boundary. With
 * LZ4 the pending frame is closed so that the region starts a new one. */
static int wbuf_mark(wbuf *w, uint64_t *pos, hfg_err *err) {
  if (w->lz4) {
    int rc = wbuf_flush(w, err);
    if (rc) return rc;
    *pos = w->file_pos;
  } else {
    *pos = w->file_pos + w->len;
  }
  return 0;
}

static int run_create(hfg_sorter *s, run *r, wbuf *w, hfg_err *err) {
  char path[4096];
  snprintf(path, sizeof path, "%s/_hfilegen-%d-run-%u", s->tmp_dir, (int)getpid(), s->run_seq++);
  memset(r, 0, sizeof *r);
  memset(w, 0, sizeof *w);
  r->path = hfg_strdup(path);
  r->seg = hfg_calloc(s->nregions + 1, sizeof *r->seg);
  w->cap = s->lz4 ? LZ4_FRAME : READ_BUF;
  w->p = hfg_malloc(w->cap);
  if (!r->path || !r->seg || !w->p) {
    hfg_free(r->path);
    hfg_free(r->seg);
    hfg_free(w->p);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory creating a spill run");
  }
  w->path = r->path;
  w->lz4 = s->lz4;
  w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (w->fd < 0) {
    int e = errno;
    hfg_free(r->path);
    hfg_free(r->seg);
    hfg_free(w->p);
    return hfg_err_set(err, e == ENOSPC ? HFG_ENOSPC : HFG_EIO, "spill file %s: %s", path,
                       strerror(e));
  }
  return 0;
}

static int run_close(hfg_sorter *s, run *r, wbuf *w, int ok, hfg_err *err) {
  int rc = ok ? wbuf_flush(w, err) : 0;
  close(w->fd);
  hfg_free(w->p);
  hfg_free(w->z);
  if (!ok || rc) {
    s->discarded += w->file_pos;
    unlink(r->path);
    hfg_free(r->path);
    hfg_free(r->seg);
    return rc ? rc : err->code;
  }
  run *runs = hfg_realloc(s->runs, (s->nruns + 1) * sizeof *runs);
  if (!runs) {
    unlink(r->path);
    hfg_free(r->path);
    hfg_free(r->seg);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  s->runs = runs;
  s->runs[s->nruns++] = *r;
  return 0;
}

/* ---- reading runs and merging ---- */

typedef struct source {
  int fd;          /* -1: in-memory items */
  int lz4;         /* the run is LZ4 frames */
  uint8_t *z;      /* a compressed frame */
  size_t zcap;
  const char *path;
  uint64_t pos, end;
  uint8_t *buf;
  size_t cap, start, len;
  size_t cap0;     /* the read buffer's size at open, which it goes back to after a long record */
  const item *mem;
  size_t mem_i, mem_n;
  const uint8_t *cur;
  size_t cur_len;
  uint64_t cur_prefix; /* cur's first 8 key bytes (item.prefix): most merge
                          comparisons end there */
} source;

static int source_fill(source *src, size_t need, hfg_err *err) {
  if (src->len - src->start >= need) return 0;
  if (src->start) {
    memmove(src->buf, src->buf + src->start, src->len - src->start);
    src->len -= src->start;
    src->start = 0;
  }
  if (src->cap > src->cap0 && need <= src->cap0 && src->len <= src->cap0) {
    uint8_t *b = hfg_realloc(src->buf, src->cap0); /* a long record was read: give it back */
    if (b) src->buf = b, src->cap = src->cap0;
  }
  if (need > src->cap) {
    size_t cap = src->cap;
    while (cap < need) cap *= 2;
    uint8_t *b = hfg_realloc(src->buf, cap);
    if (!b) return hfg_err_set(err, HFG_ENOMEM, "out of memory reading %s", src->path);
    src->buf = b;
    src->cap = cap;
  }
  while (src->lz4 && src->len < need) {
    /* one frame: rawLen compLen, then the LZ4 block; bounded by the segment */
    uint8_t h[FRAME_HEADER];
    if (src->end - src->pos < FRAME_HEADER ||
        pread(src->fd, h, FRAME_HEADER, (off_t)src->pos) != FRAME_HEADER)
      return hfg_err_set(err, HFG_ECORRUPT, "spill file %s: truncated frame", src->path);
    size_t raw = hfg_get_be32(h), comp = hfg_get_be32(h + 4);
    if (comp > src->end - src->pos - FRAME_HEADER || raw > INT32_MAX || comp > INT32_MAX)
      return hfg_err_set(err, HFG_ECORRUPT, "spill file %s: bad frame", src->path);
    if (src->len + raw > src->cap) {
      size_t cap = src->cap;
      while (cap < src->len + raw) cap *= 2;
      uint8_t *b = hfg_realloc(src->buf, cap);
      if (!b) return hfg_err_set(err, HFG_ENOMEM, "out of memory reading %s", src->path);
      src->buf = b;
      src->cap = cap;
    }
    if (comp > src->zcap) {
      uint8_t *z = hfg_realloc(src->z, comp);
      if (!z) return hfg_err_set(err, HFG_ENOMEM, "out of memory reading %s", src->path);
      src->z = z;
      src->zcap = comp;
    }
    if (pread(src->fd, src->z, comp, (off_t)(src->pos + FRAME_HEADER)) != (ssize_t)comp)
      return hfg_err_set(err, HFG_EIO, "spill file %s: read: %s", src->path, strerror(errno));
    int got = LZ4_decompress_safe((const char *)src->z, (char *)src->buf + src->len, (int)comp,
                                  (int)raw);
    if (got < 0 || (size_t)got != raw)
      return hfg_err_set(err, HFG_ECORRUPT, "spill file %s: bad LZ4 frame", src->path);
    src->pos += FRAME_HEADER + comp;
    src->len += raw;
  }
  while (src->len < need) {
    size_t want = src->cap - src->len;
    if (want > src->end - src->pos) want = (size_t)(src->end - src->pos);
    if (want == 0)
      return hfg_err_set(err, HFG_ECORRUPT, "spill file %s: truncated record", src->path);
    ssize_t n = pread(src->fd, src->buf + src->len, want, (off_t)src->pos);
    if (n <= 0)
      return hfg_err_set(err, HFG_EIO, "spill file %s: read: %s", src->path,
                         n < 0 ? strerror(errno) : "unexpected end");
    src->pos += (uint64_t)n;
    src->len += (size_t)n;
  }
  return 0;
}

/* Advances a source; 1 = has a current record, 0 = exhausted. */
static int source_next(source *src, hfg_err *err) {
  if (src->fd < 0) {
    if (src->mem_i == src->mem_n) return 0;
    /* sorted order visits the slabs at random: fetch a few records ahead */
    if (src->mem_i + 8 < src->mem_n) {
      /* a record is a few cache lines: ask for the first four */
      const uint8_t *ahead = src->mem[src->mem_i + 8].rec;
      __builtin_prefetch(ahead);
      __builtin_prefetch(ahead + 64);
      __builtin_prefetch(ahead + 128);
      __builtin_prefetch(ahead + 192);
    }
    src->cur_prefix = src->mem[src->mem_i].prefix;
    src->cur = src->mem[src->mem_i++].rec;
    src->cur_len = 4 + hfg_get_be32(src->cur);
    return 1;
  }
  src->start += src->cur_len;
  src->cur_len = 0;
  if (src->len == src->start && src->pos == src->end) return 0;
  int rc = source_fill(src, 4, err);
  if (rc) return rc;
  size_t n = 4 + hfg_get_be32(src->buf + src->start);
  rc = source_fill(src, n, err);
  if (rc) return rc;
  src->cur = src->buf + src->start;
  src->cur_len = n;
  src->cur_prefix = hfg_be_prefix8(hfg_rec_key(src->cur), hfg_rec_klen(src->cur));
  return 1;
}

struct hfg_sort_iter {
  source *src;
  size_t nsrc;
  size_t *heap; /* indexes into src, min-heap by current record */
  size_t nheap;
  int started;
  int fd_count;
};

static int heap_less(hfg_sort_iter *it, size_t a, size_t b) {
  const source *x = &it->src[it->heap[a]], *y = &it->src[it->heap[b]];
  return hfg_rec_cmp_prefixed(x->cur_prefix, x->cur, y->cur_prefix, y->cur) < 0;
}

static void heap_down(hfg_sort_iter *it, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < it->nheap && heap_less(it, l, m)) m = l;
    if (r < it->nheap && heap_less(it, r, m)) m = r;
    if (m == i) return;
    size_t t = it->heap[i];
    it->heap[i] = it->heap[m];
    it->heap[m] = t;
    i = m;
  }
}

void hfg_sort_iter_close(hfg_sort_iter *it) {
  if (!it) return;
  for (size_t i = 0; i < it->nsrc; i++) {
    if (it->src[i].fd >= 0) close(it->src[i].fd);
    hfg_free(it->src[i].buf);
    hfg_free(it->src[i].z);
  }
  hfg_free(it->src);
  hfg_free(it->heap);
  hfg_free(it);
}

/* Read buffer of each of nsrc run sources when `readers` iterators are open at
 * once: together within merge_mem (an LZ4 source also holds a compressed
 * frame), between READ_MIN (a whole LZ4_FRAME for LZ4 runs) and READ_BUF. */
static size_t read_buf_size(const hfg_sorter *s, size_t nsrc, unsigned readers) {
  size_t per = s->merge_mem / ((size_t)readers * (nsrc ? nsrc : 1) * (s->lz4 ? 2 : 1));
  size_t lo = s->lz4 ? LZ4_FRAME : READ_MIN;
  return per < lo ? lo : per > READ_BUF ? READ_BUF : per;
}

static int iter_open(hfg_sorter *s, size_t region, int with_mem, unsigned readers,
                     hfg_sort_iter **out, hfg_err *err) {
  *out = NULL;
  hfg_sort_iter *it = hfg_calloc(1, sizeof *it);
  size_t n = s->nruns + s->nparts;
  if (it) {
    it->src = hfg_calloc(n, sizeof *it->src);
    it->heap = hfg_calloc(n, sizeof *it->heap);
  }
  if (!it || !it->src || !it->heap) {
    hfg_sort_iter_close(it);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory opening a merge");
  }
  size_t nrun_src = 0;
  for (size_t i = 0; i < s->nruns; i++)
    nrun_src += s->runs[i].seg[region] != s->runs[i].seg[region + 1];
  const size_t rbuf = read_buf_size(s, nrun_src, readers);
  for (size_t i = 0; i < s->nruns; i++) {
    const run *r = &s->runs[i];
    if (r->seg[region] == r->seg[region + 1]) continue;
    source *src = &it->src[it->nsrc++];
    src->lz4 = s->lz4;
    src->fd = open(r->path, O_RDONLY | O_CLOEXEC);
    int e = errno;
    src->path = r->path;
    src->pos = r->seg[region];
    src->end = r->seg[region + 1];
    src->cap = src->cap0 = rbuf;
    src->buf = hfg_malloc(src->cap);
    if (src->fd < 0 || !src->buf) {
      int io = src->fd < 0; /* decided before the close frees src */
      hfg_sort_iter_close(it);
      return io ? hfg_err_set(err, HFG_EIO, "spill file %s: %s", r->path, strerror(e))
                : hfg_err_set(err, HFG_ENOMEM, "out of memory opening a merge");
    }
  }
  for (size_t k = 0; with_mem && k < s->nparts; k++) {
    region_mem *rm = &s->parts[k].reg[region];
    if (!rm->n) continue;
    hfg_sort_items(rm->v, rm->n); /* a no-op after hfg_sorter_part_sort */
    source *src = &it->src[it->nsrc++];
    src->fd = -1;
    src->mem = rm->v;
    src->mem_n = rm->n;
  }
  for (size_t i = 0; i < it->nsrc; i++) {
    int rc = source_next(&it->src[i], err);
    if (rc < 0) {
      hfg_sort_iter_close(it);
      return rc;
    }
    if (rc) it->heap[it->nheap++] = i;
  }
  for (size_t i = it->nheap; i-- > 0;) heap_down(it, i);
  *out = it;
  return 0;
}

int hfg_sort_iter_open(hfg_sorter *s, size_t region, hfg_sort_iter **out, hfg_err *err) {
  return iter_open(s, region, 1, s->readers, out, err);
}

int hfg_sort_iter_next(hfg_sort_iter *it, const uint8_t **rec, size_t *len, hfg_err *err) {
  if (it->started && it->nheap) {
    /* advance the source of the record returned last */
    int rc = source_next(&it->src[it->heap[0]], err);
    if (rc < 0) return rc;
    if (rc == 0) it->heap[0] = it->heap[--it->nheap];
    if (it->nheap) heap_down(it, 0);
  }
  it->started = 1;
  if (!it->nheap) return 0;
  source *src = &it->src[it->heap[0]];
  *rec = src->cur;
  *len = src->cur_len;
  return 1;
}

/* ---- spilling ---- */

static int canceled(const hfg_sorter *s, const char *path, hfg_err *err) {
  if (!s->cancel || !*s->cancel) return 0;
  return hfg_err_set(err, HFG_ECANCELED, "canceled while writing spill run %s", path);
}

/* Merges all runs into one (when they exceed the fan-in). */
static int merge_runs(hfg_sorter *s, hfg_err *err) {
  run r;
  wbuf w;
  int rc = run_create(s, &r, &w, err);
  if (rc) return rc;
  for (size_t g = 0; g < s->nregions && !rc; g++) {
    if ((rc = wbuf_mark(&w, &r.seg[g], err)) != 0) break;
    hfg_sort_iter *it;
    rc = iter_open(s, g, 0, 1, &it, err);
    const uint8_t *rec;
    size_t len;
    int more;
    uint64_t k = 0;
    while (!rc && (more = hfg_sort_iter_next(it, &rec, &len, err)) > 0) {
      rc = wbuf_put(&w, rec, len, err);
      if (!rc && (++k & 4095) == 0) rc = canceled(s, r.path, err);
    }
    if (!rc && more < 0) rc = more;
    hfg_sort_iter_close(it);
  }
  if (!rc) rc = wbuf_mark(&w, &r.seg[s->nregions], err);
  /* the merged run replaces the old ones */
  run merged = r;
  if (!rc) rc = wbuf_flush(&w, err);
  close(w.fd);
  hfg_free(w.p);
  hfg_free(w.z);
  if (rc) {
    unlink(merged.path);
    hfg_free(merged.path);
    hfg_free(merged.seg);
    return rc;
  }
  remove_runs(s);
  s->runs = hfg_malloc(sizeof *s->runs);
  if (!s->runs) {
    unlink(merged.path);
    hfg_free(merged.path);
    hfg_free(merged.seg);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  s->runs[0] = merged;
  s->nruns = 1;
  return 0;
}

/* Writes one part's records as a run. The run list is shared: merging it and
 * adding to it happen under s->mu, the writing itself outside. */
static int spill(hfg_sorter *s, part *pt, hfg_err *err) {
  run r;
  wbuf w;
  int rc = 0;
  pthread_mutex_lock(&s->mu);
  if (s->nruns + 1 >= MERGE_FANIN) rc = merge_runs(s, err);
  if (!rc) rc = run_create(s, &r, &w, err);
  pthread_mutex_unlock(&s->mu);
  if (rc) return rc;
  for (size_t g = 0; g < s->nregions && !rc; g++) {
    region_mem *rm = &pt->reg[g];
    if ((rc = wbuf_mark(&w, &r.seg[g], err)) != 0) break;
    if ((rc = canceled(s, r.path, err)) != 0) break;
    hfg_sort_items(rm->v, rm->n);
    for (size_t i = 0; i < rm->n && !rc; i++) {
      rc = wbuf_put(&w, rm->v[i].rec, 4 + hfg_get_be32(rm->v[i].rec), err);
      if (!rc && (i & 4095) == 4095) rc = canceled(s, r.path, err);
    }
    rm->n = 0;
  }
  if (!rc) rc = wbuf_mark(&w, &r.seg[s->nregions], err);
  pthread_mutex_lock(&s->mu);
  if (!rc) s->spilled += r.seg[s->nregions];
  rc = run_close(s, &r, &w, rc == 0, err);
  pthread_mutex_unlock(&s->mu);
  if (rc) return rc;
  for (size_t i = 0; i < pt->nslabs; i++) pt->slabs[i].len = 0;
  pt->cur_slab = 0;
  return 0;
}

static uint8_t *slab_alloc(part *s, size_t n) {
  while (s->cur_slab < s->nslabs) {
    slab *sl = &s->slabs[s->cur_slab];
    if (sl->cap - sl->len >= n) {
      uint8_t *p = sl->p + sl->len;
      sl->len += n;
      return p;
    }
    s->cur_slab++;
  }
  size_t cap = s->budget / 16 > SLAB_MIN ? s->budget / 16 : SLAB_MIN;
  if (cap < n) cap = n;
  slab *slabs = hfg_realloc(s->slabs, (s->nslabs + 1) * sizeof *slabs);
  if (!slabs) return NULL;
  s->slabs = slabs;
  uint8_t *p = hfg_malloc(cap);
  if (!p) return NULL;
  s->slabs[s->nslabs++] = (slab){p, n, cap};
  s->cur_slab = s->nslabs - 1;
  return p;
}

/* Whether the slabs from cur_slab on can take n more bytes without a new slab. */
static int slab_has_room(const part *s, size_t n) {
  for (size_t i = s->cur_slab; i < s->nslabs; i++)
    if (s->slabs[i].cap - s->slabs[i].len >= n) return 1;
  return 0;
}

static size_t mem_rows(const hfg_sorter *s, const part *pt) {
  size_t n = 0;
  for (size_t g = 0; g < s->nregions; g++) n += pt->reg[g].n;
  return n;
}

int hfg_sorter_add(hfg_sorter *s, size_t region, const uint8_t *key, size_t klen, uint64_t seq,
                   const uint8_t *payload, size_t plen, hfg_err *err) {
  return hfg_sorter_add_part(s, 0, region, key, klen, seq, payload, plen, err);
}

int hfg_sorter_add_part(hfg_sorter *sr, size_t partno, size_t region, const uint8_t *key,
                        size_t klen, uint64_t seq, const uint8_t *payload, size_t plen,
                        hfg_err *err) {
  size_t n = HFG_SORT_REC_HEADER(klen) + plen;
  if (klen > 0xffff || n > UINT32_MAX)
    return hfg_err_set(err, HFG_ETOOBIG, "row of %zu bytes is too large", n);
  part *s = &sr->parts[partno];
  region_mem *rm = &s->reg[region];
  uint8_t *p;
  /* The common case: room in the index and in the current slab. What the
   * general path below does then too (no spill: nothing new is needed; the
   * current slab is the first with room), without its checks. */
  slab *cur = s->cur_slab < s->nslabs ? &s->slabs[s->cur_slab] : NULL;
  if (__builtin_expect(cur && rm->n < rm->cap && cur->cap - cur->len >= n, 1)) {
    p = cur->p + cur->len;
    cur->len += n;
    goto write;
  }
  /* s->used counts every slab and index byte allocated (they are reused after
   * a spill, never freed), so it bounds the sorter's memory. */
  size_t slab_size = s->budget / 16 > SLAB_MIN ? s->budget / 16 : SLAB_MIN;
  size_t need = (slab_has_room(s, n) ? 0 : (n > slab_size ? n : slab_size)) +
                (rm->n == rm->cap ? 2 * (rm->cap ? rm->cap : 1024) * sizeof(item) : 0);
  if (need && s->used + need > s->budget && mem_rows(sr, s) > 0) {
    int rc = spill(sr, s, err);
    if (rc) return rc;
  }
  if (rm->n == rm->cap) {
    size_t cap = rm->cap ? rm->cap * 2 : 1024;
    item *v = hfg_realloc(rm->v, cap * sizeof *v);
    if (!v) return hfg_err_set(err, HFG_ENOMEM, "out of memory growing the sort index");
    s->used += 2 * (cap - rm->cap) * sizeof *v; /* the index and its radix-sort scratch */
    rm->v = v;
    rm->cap = cap;
  }
  size_t before = s->nslabs;
  p = slab_alloc(s, n);
  if (!p) return hfg_err_set(err, HFG_ENOMEM, "out of memory for a sort slab");
  if (s->nslabs != before) s->used += s->slabs[s->nslabs - 1].cap;
write:
  hfg_rec_put_header(p, n, key, klen, seq);
  if (plen) memcpy(p + HFG_SORT_REC_HEADER(klen), payload, plen);
  rm->v[rm->n++] = (item){hfg_be_prefix8(key, klen), p};
  rm->rows++;
  rm->bytes += n;
  return 0;
}

/* The index capacity a region needs for `more` entries: as it is, or doubled
 * (from 1024) until they fit, as hfg_sorter_add_part grows it. */
static size_t index_cap(const region_mem *rm, size_t more) {
  size_t need = rm->n + more;
  if (need <= rm->cap) return rm->cap;
  size_t cap = rm->cap ? rm->cap : 1024;
  while (cap < need) cap *= 2;
  return cap;
}

int hfg_sorter_adopt(hfg_sorter *sr, size_t partno, uint8_t *buf, size_t len,
                     const size_t *per_region) {
  part *s = &sr->parts[partno];
  /* room first: the index entries of every record (each grown index counted
   * twice, with its radix scratch, as hfg_sorter_add_part counts it) */
  size_t grow = 0;
  for (size_t g = 0; g < sr->nregions; g++) {
    const region_mem *rm = &s->reg[g];
    grow += 2 * (index_cap(rm, per_region[g]) - rm->cap) * sizeof(item);
  }
  if (s->used + len + grow > s->budget) return 0;
  slab *slabs = hfg_realloc(s->slabs, (s->nslabs + 1) * sizeof *slabs);
  if (!slabs) return HFG_ENOMEM;
  s->slabs = slabs;
  for (size_t g = 0; g < sr->nregions; g++) {
    region_mem *rm = &s->reg[g];
    size_t cap = index_cap(rm, per_region[g]);
    if (cap == rm->cap) continue;
    item *v = hfg_realloc(rm->v, cap * sizeof *v);
    if (!v) return HFG_ENOMEM; /* the indexes grown so far are counted: no harm */
    s->used += 2 * (cap - rm->cap) * sizeof *v;
    rm->v = v;
    rm->cap = cap;
  }
  /* full (len == cap): reused for copies only after a spill, when every record
   * in it has been written out */
  s->slabs[s->nslabs++] = (slab){buf, len, len};
  s->used += len;
  return 1;
}

void hfg_sorter_add_adopted(hfg_sorter *sr, size_t partno, size_t region, uint8_t *rec) {
  region_mem *rm = &sr->parts[partno].reg[region];
  size_t klen = hfg_rec_klen(rec);
  rm->v[rm->n++] = (item){hfg_be_prefix8(rec + 6, klen), rec};
  rm->rows++;
  rm->bytes += 4 + hfg_get_be32(rec);
}

int hfg_sorter_finish(hfg_sorter *s, hfg_err *err) {
  if (s->nruns >= MERGE_FANIN) return merge_runs(s, err);
  return 0;
}

void hfg_sorter_set_lz4(hfg_sorter *s, int on) { s->lz4 = on; }

void hfg_sorter_set_readers(hfg_sorter *s, unsigned n) { s->readers = n ? n : 1; }

size_t hfg_sorter_runs(const hfg_sorter *s) { return s->nruns; }
uint64_t hfg_sorter_spilled_bytes(const hfg_sorter *s) { return s->spilled; }
uint64_t hfg_sorter_region_rows(const hfg_sorter *s, size_t region) {
  uint64_t n = 0;
  for (size_t k = 0; k < s->nparts; k++) n += s->parts[k].reg[region].rows;
  return n;
}
uint64_t hfg_sorter_region_bytes(const hfg_sorter *s, size_t region) {
  uint64_t n = 0;
  for (size_t k = 0; k < s->nparts; k++) n += s->parts[k].reg[region].bytes;
  return n;
}

void hfg_sorter_part_sort(hfg_sorter *s, size_t partno) {
  part *pt = &s->parts[partno];
  for (size_t g = 0; g < s->nregions; g++) hfg_sort_items(pt->reg[g].v, pt->reg[g].n);
}

void hfg_sorter_set_cancel(hfg_sorter *s, volatile sig_atomic_t *flag) { s->cancel = flag; }

uint64_t hfg_sorter_disk_bytes(const hfg_sorter *s) {
  uint64_t n = s ? s->discarded : 0;
  for (size_t i = 0; s && i < s->nruns; i++) n += s->runs[i].seg[s->nregions];
  return n;
}
