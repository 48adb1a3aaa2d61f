/*
 * Hadoop BlockCompressorStream framing for SNAPPY, LZ4 and ZSTD_HBASE
 * (format-specs/codecs.md, "Hadoop block framing"):
 *
 *   be32 raw length of the segment
 *   { be32 compressed length, compressed chunk }   until the raw length is covered
 *
 * HBase hands each block to the stream in one write() and then calls finish().
 * A block of at most MAX_INPUT_SIZE bytes becomes one segment with one chunk;
 * a larger one becomes one segment holding chunks of MAX_INPUT_SIZE raw bytes,
 * followed by an empty segment (00 00 00 00) that finish() writes because the
 * compressor was reset after the last chunk. We reproduce both shapes.
 */
#include <limits.h>
#include <lz4.h>
#include <snappy-c.h>
#include <stdio.h>
#include <zstd.h>

#include "format/codec_internal.h"
#include "util/coding.h"

static size_t chunk_bound(hfg_codec c, size_t n) {
  switch (c) {
    case HFG_CODEC_SNAPPY: return snappy_max_compressed_length(n);
    case HFG_CODEC_LZ4: return (size_t)LZ4_compressBound((int)n);
    default: return hfg_zstd_bound(n);
  }
}

static int chunk_compress(hfg_compressor *z, const uint8_t *src, size_t n, uint8_t *dst,
                          size_t cap, size_t *out_len, hfg_err *err) {
  switch (z->codec) {
    case HFG_CODEC_SNAPPY: {
      size_t len = cap;
      if (snappy_compress((const char *)src, n, (char *)dst, &len) != SNAPPY_OK)
        return hfg_codec_fail(err, HFG_ECODEC, "snappy: compress failed on a %zu-byte chunk", n);
      *out_len = len;
      return 0;
    }
    case HFG_CODEC_LZ4: {
      int r = LZ4_compress_fast_extState(z->lz4_state, (const char *)src, (char *)dst, (int)n,
                                         cap > INT_MAX ? INT_MAX : (int)cap, 1);
      if (r <= 0)
        return hfg_codec_fail(err, HFG_ECODEC, "lz4: compress failed on a %zu-byte chunk", n);
      *out_len = (size_t)r;
      return 0;
    }
    default:
      return hfg_zstd_frame_compress(z->zc, src, n, dst, cap, out_len, err);
  }
}

int hfg_block_compress(hfg_compressor *z, const uint8_t *src, size_t n, hfg_buf *out,
                       hfg_err *err) {
  const size_t limit = hfg_codec_chunk_limit(z->codec);
  const char *name = hfg_codec_name(z->codec);
  size_t full = n / limit, rest = n % limit;
  size_t cap = 4 + full * (4 + chunk_bound(z->codec, limit)) +
               (rest ? 4 + chunk_bound(z->codec, rest) : 0) + (n > limit ? 4 : 0);
  if (hfg_buf_reserve(out, cap)) return hfg_codec_fail(err, HFG_ENOMEM, "%s: out of memory", name);

  /* Compress straight into out; out->len moves only once the block is whole. */
  uint8_t *base = out->p + out->len;
  size_t pos = 4;
  hfg_put_be32(base, (uint32_t)n);
  for (size_t off = 0; off < n;) {
    size_t len = n - off < limit ? n - off : limit;
    size_t clen;
    int rc = chunk_compress(z, src + off, len, base + pos + 4, cap - pos - 4, &clen, err);
    if (rc) return rc;
    hfg_put_be32(base + pos, (uint32_t)clen);
    pos += 4 + clen;
    off += len;
  }
  if (n > limit) {
    hfg_put_be32(base + pos, 0);
    pos += 4;
  }
  out->len += pos;
  return 0;
}

/* Decodes one chunk into dst[0..cap); *got is what it yielded. */
static int chunk_decompress(hfg_codec c, ZSTD_DCtx *d, const uint8_t *src, size_t n,
                            uint8_t *dst, size_t cap, size_t *got, const char *name,
                            size_t at, hfg_err *err) {
  switch (c) {
    case HFG_CODEC_SNAPPY: {
      size_t ulen;
      if (snappy_uncompressed_length((const char *)src, n, &ulen) != SNAPPY_OK)
        return hfg_codec_fail(err, HFG_ECODEC, "snappy: corrupt chunk at payload offset %zu", at);
      if (ulen > cap)
        return hfg_codec_fail(err, HFG_ECODEC,
                              "snappy: chunk at payload offset %zu yields %zu bytes, "
                              "its segment has %zu left",
                              at, ulen, cap);
      size_t len = ulen;
      if (snappy_uncompress((const char *)src, n, (char *)dst, &len) != SNAPPY_OK || len != ulen)
        return hfg_codec_fail(err, HFG_ECODEC, "snappy: corrupt chunk at payload offset %zu", at);
      *got = len;
      return 0;
    }
    case HFG_CODEC_LZ4: {
      int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)n,
                                  cap > INT_MAX ? INT_MAX : (int)cap);
      if (r < 0)
        return hfg_codec_fail(err, HFG_ECODEC,
                              "lz4: corrupt chunk at payload offset %zu (or it yields more than "
                              "the %zu bytes left in its segment)",
                              at, cap);
      *got = (size_t)r;
      return 0;
    }
    default: {
      char what[64];
      snprintf(what, sizeof what, "%s: chunk at payload offset %zu", name, at);
      return hfg_zstd_frames_decompress(d, src, n, dst, cap, got, what, err);
    }
  }
}

int hfg_block_decompress(hfg_codec c, const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len,
                         hfg_err *err) {
  const char *name = hfg_codec_name(c);
  ZSTD_DCtx *d = NULL;
  if (c == HFG_CODEC_ZSTD_HBASE) {
    d = hfg_zstd_dctx_new();
    if (!d) return hfg_codec_fail(err, HFG_ENOMEM, "%s: out of memory", name);
  }
  int rc = 0;
  size_t pos = 0, total = 0;
  if (n < 4) {
    rc = hfg_codec_fail(err, HFG_ECODEC, "%s: payload of %zu bytes is shorter than its raw length",
                        name, n);
    goto done;
  }
  /* Segments until the payload is used up; every length is checked against
   * what is left of the payload and of raw_len before it is trusted. */
  while (pos < n) {
    if (n - pos < 4) {
      rc = hfg_codec_fail(err, HFG_ECODEC, "%s: truncated segment header at payload offset %zu",
                          name, pos);
      goto done;
    }
    size_t seg_at = pos;
    uint32_t seg = hfg_get_be32(src + pos);
    pos += 4;
    if (seg > INT32_MAX || seg > raw_len - total) {
      rc = hfg_codec_fail(err, HFG_ECODEC,
                          "%s: segment at payload offset %zu declares %u raw bytes, "
                          "only %zu of the header's %zu remain",
                          name, seg_at, seg, raw_len - total, raw_len);
      goto done;
    }
    size_t left = seg;
    while (left > 0) {
      if (n - pos < 4) {
        rc = hfg_codec_fail(err, HFG_ECODEC,
                            "%s: payload ends at offset %zu with %zu raw bytes of its segment "
                            "missing",
                            name, pos, left);
        goto done;
      }
      size_t at = pos;
      uint32_t clen = hfg_get_be32(src + pos);
      pos += 4;
      if (clen > n - pos) {
        rc = hfg_codec_fail(err, HFG_ECODEC,
                            "%s: chunk at payload offset %zu declares %u compressed bytes, "
                            "only %zu remain",
                            name, at, clen, n - pos);
        goto done;
      }
      size_t got = 0;
      rc = chunk_decompress(c, d, src + pos, clen, dst + total, left, &got, name, at, err);
      if (rc) goto done;
      if (got == 0) {
        /* HBase's BlockDecompressorHelper rejects such a chunk too. */
        rc = hfg_codec_fail(err, HFG_ECODEC, "%s: chunk at payload offset %zu yields no bytes",
                            name, at);
        goto done;
      }
      pos += clen;
      total += got;
      left -= got;
    }
  }
  if (total != raw_len)
    rc = hfg_codec_fail(err, HFG_ECODEC, "%s: payload yields %zu bytes, header says %zu", name,
                        total, raw_len);
done:
  hfg_zstd_dctx_free(d);
  return rc;
}
