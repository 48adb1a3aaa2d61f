/*
 * Streaming decoders of the record reader's compressed inputs (formats and
 * framing rules in record_input.h): gzip with zlib, zstd with libzstd, bzip2
 * with libbz2, xz with liblzma. Each reads the compressed bytes from
 * in->zbuf (refilled by hfg_rin_fill) and allocates through util/alloc.h, so
 * fault injection reaches the libraries' state too.
 *
 * Every decoder follows one shape: decode into dst until it is full; at the
 * end of a stream, more bytes must start another stream (concatenation);
 * the file ending inside a stream is "truncated".
 */
#include <bzlib.h>
#include <limits.h>
#include <lzma.h>
#include <string.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_createDCtx_advanced / ZSTD_customMem */
#include <zstd.h>
#include <zstd_errors.h>

#include "input/record_input.h"
#include "util/alloc.h"

typedef struct dec {
  union {
    z_stream z;
    bz_stream bz;
    lzma_stream xz;
  } s;
  ZSTD_DCtx *zstd;
  lzma_allocator xz_alloc; /* must outlive the stream */
  int ready;               /* the library's stream is initialised */
  int stream_end;          /* the last stream ended; more bytes start another */
  size_t zstd_hint;        /* ZSTD_decompressStream's last result: 0 at a frame end */
} dec;

/* ---- allocators ---- */

static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  if (size && items > SIZE_MAX / size) return Z_NULL;
  return hfg_malloc((size_t)items * size);
}
static void z_free(voidpf opaque, voidpf p) {
  (void)opaque;
  hfg_free(p);
}
static void *bz_alloc(void *opaque, int items, int size) {
  (void)opaque;
  if (items < 0 || size < 0 || (size && (size_t)items > SIZE_MAX / (size_t)size)) return NULL;
  return hfg_malloc((size_t)items * (size_t)size);
}
static void bz_free(void *opaque, void *p) {
  (void)opaque;
  hfg_free(p);
}
static void *xz_alloc(void *opaque, size_t nmemb, size_t size) {
  (void)opaque;
  if (size && nmemb > SIZE_MAX / size) return NULL;
  return hfg_malloc(nmemb * size);
}
static void *zstd_alloc(void *opaque, size_t size) {
  (void)opaque;
  return hfg_malloc(size);
}
static void zstd_free(void *opaque, void *p) {
  (void)opaque;
  hfg_free(p);
}

static unsigned clamp_uint(size_t n) { return n > UINT_MAX ? UINT_MAX : (unsigned)n; }

static int truncated(hfg_rin *in, const char *what, hfg_err *err) {
  return hfg_err_set(err, HFG_ECORRUPT, "%s: %s stream is truncated", in->name, what);
}

/* ---- gzip ---- */

static int gz_init(hfg_rin *in, dec *d, hfg_err *err) {
  d->s.z.zalloc = z_alloc;
  d->s.z.zfree = z_free;
  int zr = inflateInit2(&d->s.z, 15 + 16);
  if (zr != Z_OK)
    return hfg_err_set(err, zr == Z_MEM_ERROR ? HFG_ENOMEM : HFG_ECORRUPT,
                       "%s: cannot start gzip decoding (zlib %d)", in->name, zr);
  d->ready = 1;
  return 0;
}

static int gz_read(hfg_rin *in, dec *d, char *dst, size_t n, size_t *got, hfg_err *err) {
  z_stream *zs = &d->s.z;
  size_t done = 0;
  while (done < n) {
    int rc = hfg_rin_fill(in, err);
    if (rc) return rc;
    size_t avail = in->zlen - in->zpos;
    if (d->stream_end) {
      if (avail == 0) break; /* clean end after the last member */
      if (inflateReset(zs) != Z_OK)
        return hfg_err_set(err, HFG_ECORRUPT, "%s: gzip reset failed", in->name);
      d->stream_end = 0; /* more bytes: they must form another member */
    }
    if (avail == 0) return truncated(in, "gzip", err);
    zs->next_in = in->zbuf + in->zpos;
    zs->avail_in = clamp_uint(avail);
    zs->next_out = (Bytef *)dst + done;
    zs->avail_out = clamp_uint(n - done);
    uInt in0 = zs->avail_in, out0 = zs->avail_out;
    int zr = inflate(zs, Z_NO_FLUSH);
    in->zpos += in0 - zs->avail_in;
    done += out0 - zs->avail_out;
    if (zr == Z_STREAM_END) d->stream_end = 1;
    else if (zr == Z_MEM_ERROR)
      return hfg_err_set(err, HFG_ENOMEM, "%s: out of memory in gzip decoding", in->name);
    else if (zr != Z_OK && zr != Z_BUF_ERROR)
      return hfg_err_set(err, HFG_ECORRUPT, "%s: bad gzip data: %s", in->name,
                         zs->msg ? zs->msg : "inflate failed");
  }
  *got = done;
  return 0;
}

/* ---- zstd: the context starts the next frame by itself after a frame's end ---- */

static int zstd_init(hfg_rin *in, dec *d, hfg_err *err) {
  const ZSTD_customMem mem = {zstd_alloc, zstd_free, NULL};
  if (!(d->zstd = ZSTD_createDCtx_advanced(mem)))
    return hfg_err_set(err, HFG_ENOMEM, "%s: out of memory (zstd)", in->name);
  d->zstd_hint = 1; /* inside a frame until one ends */
  d->ready = 1;
  return 0;
}

static int zstd_read(hfg_rin *in, dec *d, char *dst, size_t n, size_t *got, hfg_err *err) {
  ZSTD_outBuffer out = {dst, n, 0};
  while (out.pos < out.size) {
    int rc = hfg_rin_fill(in, err);
    if (rc) return rc;
    if (in->zpos == in->zlen) {
      if (d->zstd_hint != 0) return truncated(in, "zstd", err);
      break; /* the file ends at a frame's end */
    }
    ZSTD_inBuffer inb = {in->zbuf, in->zlen, in->zpos};
    size_t r = ZSTD_decompressStream(d->zstd, &out, &inb);
    in->zpos = inb.pos;
    if (ZSTD_isError(r))
      return hfg_err_set(err, ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation ? HFG_ENOMEM
                                                                                   : HFG_ECORRUPT,
                         "%s: bad zstd data: %s", in->name, ZSTD_getErrorName(r));
    d->zstd_hint = r;
  }
  *got = out.pos;
  return 0;
}

/* ---- bzip2 ---- */

static int bz_init(hfg_rin *in, dec *d, hfg_err *err) {
  memset(&d->s.bz, 0, sizeof d->s.bz);
  d->s.bz.bzalloc = bz_alloc;
  d->s.bz.bzfree = bz_free;
  int r = BZ2_bzDecompressInit(&d->s.bz, 0, 0);
  if (r != BZ_OK)
    return hfg_err_set(err, r == BZ_MEM_ERROR ? HFG_ENOMEM : HFG_ECORRUPT,
                       "%s: cannot start bzip2 decoding (libbz2 %d)", in->name, r);
  d->ready = 1;
  return 0;
}

static int bz_read(hfg_rin *in, dec *d, char *dst, size_t n, size_t *got, hfg_err *err) {
  size_t done = 0;
  while (done < n) {
    int rc = hfg_rin_fill(in, err);
    if (rc) return rc;
    size_t avail = in->zlen - in->zpos;
    if (d->stream_end) {
      if (avail == 0) break;
      /* more bytes: another stream (pbzip2, cat a.bz2 b.bz2) */
      BZ2_bzDecompressEnd(&d->s.bz);
      d->ready = 0;
      if ((rc = bz_init(in, d, err))) return rc;
      d->stream_end = 0;
    }
    if (avail == 0) return truncated(in, "bzip2", err);
    bz_stream *s = &d->s.bz;
    s->next_in = (char *)in->zbuf + in->zpos;
    s->avail_in = clamp_uint(avail);
    s->next_out = dst + done;
    s->avail_out = clamp_uint(n - done);
    unsigned in0 = s->avail_in, out0 = s->avail_out;
    int r = BZ2_bzDecompress(s);
    in->zpos += in0 - s->avail_in;
    done += out0 - s->avail_out;
    if (r == BZ_STREAM_END) d->stream_end = 1;
    else if (r == BZ_MEM_ERROR)
      return hfg_err_set(err, HFG_ENOMEM, "%s: out of memory in bzip2 decoding", in->name);
    else if (r != BZ_OK)
      return hfg_err_set(err, HFG_ECORRUPT, "%s: bad bzip2 data (libbz2 %d%s)", in->name, r,
                         r == BZ_DATA_ERROR_MAGIC ? ": bytes after a stream are not another one"
                                                  : "");
  }
  *got = done;
  return 0;
}

/* ---- xz: LZMA_CONCATENATED reads any number of streams (and stream padding) ---- */

static int xz_init(hfg_rin *in, dec *d, hfg_err *err) {
  d->xz_alloc.alloc = xz_alloc;
  d->xz_alloc.free = z_free;
  d->xz_alloc.opaque = NULL;
  lzma_stream init = LZMA_STREAM_INIT;
  d->s.xz = init;
  d->s.xz.allocator = &d->xz_alloc;
  lzma_ret r = lzma_stream_decoder(&d->s.xz, UINT64_MAX, LZMA_CONCATENATED);
  if (r != LZMA_OK)
    return hfg_err_set(err, r == LZMA_MEM_ERROR ? HFG_ENOMEM : HFG_ECORRUPT,
                       "%s: cannot start xz decoding (liblzma %d)", in->name, (int)r);
  d->ready = 1;
  return 0;
}

static int xz_read(hfg_rin *in, dec *d, char *dst, size_t n, size_t *got, hfg_err *err) {
  lzma_stream *s = &d->s.xz;
  size_t done = 0;
  while (done < n && !d->stream_end) {
    int rc = hfg_rin_fill(in, err);
    if (rc) return rc;
    s->next_in = in->zbuf + in->zpos;
    s->avail_in = in->zlen - in->zpos;
    s->next_out = (uint8_t *)dst + done;
    s->avail_out = n - done;
    size_t in0 = s->avail_in, out0 = s->avail_out;
    lzma_ret r = lzma_code(s, in->raw_eof && in0 == 0 ? LZMA_FINISH : LZMA_RUN);
    in->zpos += in0 - s->avail_in;
    done += out0 - s->avail_out;
    if (r == LZMA_STREAM_END) d->stream_end = 1;
    else if (r == LZMA_BUF_ERROR) return truncated(in, "xz", err);
    else if (r == LZMA_MEM_ERROR)
      return hfg_err_set(err, HFG_ENOMEM, "%s: out of memory in xz decoding", in->name);
    else if (r != LZMA_OK)
      return hfg_err_set(err, HFG_ECORRUPT, "%s: bad xz data (liblzma %d)", in->name, (int)r);
  }
  *got = done;
  return 0;
}

/* ---- dispatch ---- */

int hfg_rin_dec_open(hfg_rin *in, hfg_err *err) {
  dec *d = hfg_calloc(1, sizeof *d);
  if (!d) return hfg_err_set(err, HFG_ENOMEM, "%s: out of memory", in->name);
  in->dec = d;
  switch (in->kind) {
    case HFG_RIN_GZIP: return gz_init(in, d, err);
    case HFG_RIN_ZSTD: return zstd_init(in, d, err);
    case HFG_RIN_BZIP2: return bz_init(in, d, err);
    case HFG_RIN_XZ: return xz_init(in, d, err);
    default: return hfg_err_set(err, HFG_EINVAL, "%s: no decoder", in->name);
  }
}

int hfg_rin_dec_read(hfg_rin *in, char *dst, size_t n, size_t *got, hfg_err *err) {
  dec *d = in->dec;
  switch (in->kind) {
    case HFG_RIN_GZIP: return gz_read(in, d, dst, n, got, err);
    case HFG_RIN_ZSTD: return zstd_read(in, d, dst, n, got, err);
    case HFG_RIN_BZIP2: return bz_read(in, d, dst, n, got, err);
    case HFG_RIN_XZ: return xz_read(in, d, dst, n, got, err);
    default: return hfg_err_set(err, HFG_EINVAL, "%s: no decoder", in->name);
  }
}

void hfg_rin_dec_close(hfg_rin *in) {
  dec *d = in->dec;
  if (!d) return;
  if (d->ready) {
    switch (in->kind) {
      case HFG_RIN_GZIP: inflateEnd(&d->s.z); break;
      case HFG_RIN_BZIP2: BZ2_bzDecompressEnd(&d->s.bz); break;
      case HFG_RIN_XZ: lzma_end(&d->s.xz); break;
      default: break;
    }
  }
  ZSTD_freeDCtx(d->zstd);
  hfg_free(d);
  in->dec = NULL;
}
