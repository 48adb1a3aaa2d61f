/*
 * zstd contexts and frames (format-specs/codecs.md, "ZSTD"). Used whole for
 * ZSTD_HADOOP (one plain frame per block, Hadoop ZStandardCodec) and as the
 * chunk coder inside the Hadoop block framing of ZSTD_HBASE (codec_block.c).
 *
 * Contexts allocate through util/alloc.h (ZSTD_customMem), so fault-injection
 * tests reach zstd's own allocations too; a failed one surfaces as HFG_ENOMEM.
 */
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_createCCtx_advanced / ZSTD_customMem */
#include <zstd.h>
#include <zstd_errors.h>

#include "format/codec_internal.h"
#include "util/alloc.h"

static void *zmem_alloc(void *opaque, size_t size) {
  (void)opaque;
  return hfg_malloc(size);
}

static void zmem_free(void *opaque, void *p) {
  (void)opaque;
  hfg_free(p);
}

static const ZSTD_customMem zmem = {zmem_alloc, zmem_free, NULL};

ZSTD_CCtx *hfg_zstd_cctx_new(int level) {
  ZSTD_CCtx *c = ZSTD_createCCtx_advanced(zmem);
  if (!c) return NULL;
  /* Parameters stick across ZSTD_compress2 calls (it resets the session only).
   * Content size in the frame header (zstd's default, as zstd-jni writes it);
   * no frame checksum: HBase's block checksums cover the payload. */
  if (ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)) ||
      ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1)) ||
      ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0))) {
    ZSTD_freeCCtx(c);
    return NULL;
  }
  return c;
}

void hfg_zstd_cctx_free(ZSTD_CCtx *c) { ZSTD_freeCCtx(c); /* NULL is a no-op */ }

ZSTD_DCtx *hfg_zstd_dctx_new(void) { return ZSTD_createDCtx_advanced(zmem); }

void hfg_zstd_dctx_free(ZSTD_DCtx *d) { ZSTD_freeDCtx(d); }

size_t hfg_zstd_bound(size_t n) { return ZSTD_compressBound(n); }

int hfg_zstd_frame_compress(ZSTD_CCtx *c, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                            size_t *out_len, hfg_err *err) {
  size_t r = ZSTD_compress2(c, dst, cap, src, n);
  if (ZSTD_isError(r)) {
    if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation)
      return hfg_codec_fail(err, HFG_ENOMEM, "zstd: out of memory");
    return hfg_codec_fail(err, HFG_ECODEC, "zstd: compress failed: %s", ZSTD_getErrorName(r));
  }
  *out_len = r;
  return 0;
}

int hfg_zstd_frames_decompress(ZSTD_DCtx *d, const uint8_t *src, size_t n, uint8_t *dst,
                               size_t cap, size_t *out_len, const char *what, hfg_err *err) {
  /* Single-pass decoding writes straight into dst and never allocates a window,
   * whatever window size a hostile frame header claims. */
  size_t r = ZSTD_decompressDCtx(d, dst, cap, src, n);
  if (!ZSTD_isError(r)) {
    *out_len = r;
    return 0;
  }
  if (ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall)
    return hfg_codec_fail(err, HFG_ECODEC, "%s: payload yields more than the %zu bytes expected",
                          what, cap);
  if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation)
    return hfg_codec_fail(err, HFG_ENOMEM, "%s: out of memory", what);
  return hfg_codec_fail(err, HFG_ECODEC, "%s: corrupt zstd data: %s", what, ZSTD_getErrorName(r));
}

int hfg_zstd_plain_compress(ZSTD_CCtx *c, const uint8_t *src, size_t n, hfg_buf *out,
                            hfg_err *err) {
  size_t cap = ZSTD_compressBound(n);
  if (hfg_buf_reserve(out, cap)) return hfg_codec_fail(err, HFG_ENOMEM, "zstd-hadoop: out of memory");
  size_t len = 0;
  int rc = hfg_zstd_frame_compress(c, src, n, out->p + out->len, cap, &len, err);
  if (rc) return rc;
  out->len += len;
  return 0;
}

int hfg_zstd_plain_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len,
                              hfg_err *err) {
  ZSTD_DCtx *d = hfg_zstd_dctx_new();
  if (!d) return hfg_codec_fail(err, HFG_ENOMEM, "zstd-hadoop: out of memory");
  size_t got = 0;
  int rc = hfg_zstd_frames_decompress(d, src, n, dst, raw_len, &got, "zstd-hadoop", err);
  ZSTD_freeDCtx(d);
  if (rc) return rc;
  if (got != raw_len)
    return hfg_codec_fail(err, HFG_ECODEC, "zstd-hadoop: payload yields %zu bytes, header says %zu",
                          got, raw_len);
  return 0;
}
