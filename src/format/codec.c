/*
 * Block compression: codec dispatch, compressor lifecycle and HBase ordinals
 * (format-specs/codecs.md). The framings live in codec_gz.c (GZ),
 * codec_block.c (Hadoop block framing) and codec_zstd.c (plain zstd frames).
 */
#include "format/codec.h"

#include <limits.h>
#include <lz4.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "format/codec_internal.h"
#include "util/alloc.h"

int hfg_codec_fail(hfg_err *err, int code, const char *fmt, ...) {
  if (err && err->code == 0) {
    char msg[HFG_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    hfg_err_set(err, code, "%s", msg);
  }
  return code;
}

/* Compression.Algorithm declaration order in hbase-common
 * .../io/compress/Compression.java; the trailer stores the ordinal. */
enum {
  ORD_LZO = 0,
  ORD_GZ = 1,
  ORD_NONE = 2,
  ORD_SNAPPY = 3,
  ORD_LZ4 = 4,
  ORD_BZIP2 = 5,
  ORD_ZSTD = 6,
  ORD_LZMA = 7,
  ORD_BROTLI = 8
};

int hfg_codec_hbase_ordinal(hfg_codec c) {
  switch (c) {
    case HFG_CODEC_NONE: return ORD_NONE;
    case HFG_CODEC_GZ: return ORD_GZ;
    case HFG_CODEC_SNAPPY: return ORD_SNAPPY;
    case HFG_CODEC_LZ4: return ORD_LZ4;
    case HFG_CODEC_ZSTD_HADOOP:
    case HFG_CODEC_ZSTD_HBASE: return ORD_ZSTD;
    default: return HFG_EINVAL;
  }
}

int hfg_codec_default_level(hfg_codec c) {
  switch (c) {
    case HFG_CODEC_GZ: return 6; /* zlib's Z_DEFAULT_COMPRESSION, as HBase */
    case HFG_CODEC_ZSTD_HADOOP:
    case HFG_CODEC_ZSTD_HBASE: return 3;
    default: return 0;
  }
}

/* MAX_INPUT_SIZE = bufferSize - compressionOverhead, with the overheads of
 * Hadoop SnappyCodec (bufferSize/6 + 32), Hadoop Lz4Codec (bufferSize/255 + 16)
 * and HBase ZstdCodec (Zstd.compressBound(bufferSize) - bufferSize). */
size_t hfg_codec_chunk_limit(hfg_codec c) {
  const size_t b = HFG_HADOOP_BUFFER_SIZE;
  switch (c) {
    case HFG_CODEC_SNAPPY: return b - (b / 6 + 32);
    case HFG_CODEC_LZ4: return b - (b / 255 + 16);
    case HFG_CODEC_ZSTD_HBASE: return b - (ZSTD_COMPRESSBOUND(b) - b);
    default: return 0;
  }
}

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

hfg_compressor *hfg_compressor_new(hfg_codec c, int level) {
  if ((unsigned)c >= HFG_CODEC_COUNT_) return NULL;
  hfg_compressor *z = hfg_calloc(1, sizeof *z);
  if (!z) return NULL;
  z->codec = c;
  int gz_isal = c == HFG_CODEC_GZ && level >= 0 && (level & HFG_GZ_LEVEL_ISAL);
  if (gz_isal) {
    if (!hfg_gz_isal_available()) goto fail;
    level &= ~HFG_GZ_LEVEL_ISAL;
    if (level == 0) level = HFG_GZ_ISAL_DEFAULT_LEVEL;
  }
  if (level < 0) level = hfg_codec_default_level(c);
  switch (c) {
    case HFG_CODEC_GZ:
      z->level = clamp(level, 1, 9);
      z->gz = hfg_gz_enc_new(z->level, gz_isal);
      if (!z->gz) goto fail;
      break;
    case HFG_CODEC_LZ4:
      /* LZ4_compress_fast_extState keeps its hash table here instead of on the stack. */
      z->lz4_state = hfg_malloc((size_t)LZ4_sizeofState());
      if (!z->lz4_state) goto fail;
      break;
    case HFG_CODEC_ZSTD_HADOOP:
    case HFG_CODEC_ZSTD_HBASE:
      z->level = clamp(level, 1, ZSTD_maxCLevel());
      z->zc = hfg_zstd_cctx_new(z->level);
      if (!z->zc) goto fail;
      break;
    default:
      break;
  }
  return z;
fail:
  hfg_compressor_free(z);
  return NULL;
}

hfg_compressor *hfg_compressor_new_gz_zlib(int level) {
  hfg_compressor *z = hfg_calloc(1, sizeof *z);
  if (!z) return NULL;
  z->codec = HFG_CODEC_GZ;
  z->level = clamp(level < 0 ? hfg_codec_default_level(HFG_CODEC_GZ) : level, 1, 9);
  z->gz = hfg_gz_enc_new(z->level, 0);
  if (!z->gz) {
    hfg_free(z);
    return NULL;
  }
  return z;
}

void hfg_compressor_free(hfg_compressor *z) {
  if (!z) return;
  hfg_gz_enc_free(z->gz);
  hfg_zstd_cctx_free(z->zc);
  hfg_free(z->lz4_state);
  hfg_free(z);
}

int hfg_compressor_level(const hfg_compressor *z) { return z->level; }

const char *hfg_compressor_impl(const hfg_compressor *z) {
  switch (z->codec) {
    case HFG_CODEC_GZ: return hfg_gz_enc_impl(z->gz);
    case HFG_CODEC_SNAPPY: return "snappy";
    case HFG_CODEC_LZ4: return "lz4";
    case HFG_CODEC_ZSTD_HADOOP:
    case HFG_CODEC_ZSTD_HBASE: return "zstd";
    default: return "none";
  }
}

int hfg_compressor_compress(hfg_compressor *z, const uint8_t *src, size_t n, hfg_buf *out,
                            hfg_err *err) {
  if (n > INT32_MAX)
    return hfg_codec_fail(err, HFG_ETOOBIG, "%s: block of %zu bytes exceeds INT32_MAX",
                          hfg_codec_name(z->codec), n);
  static const uint8_t empty[1] = {0};
  if (!src) src = empty; /* n == 0: keep pointer arithmetic defined */
  switch (z->codec) {
    case HFG_CODEC_NONE:
      if (hfg_buf_append(out, src, n)) return hfg_codec_fail(err, HFG_ENOMEM, "none: out of memory");
      return 0;
    case HFG_CODEC_GZ: return hfg_gz_compress(z->gz, src, n, out, err);
    case HFG_CODEC_ZSTD_HADOOP: return hfg_zstd_plain_compress(z->zc, src, n, out, err);
    case HFG_CODEC_SNAPPY:
    case HFG_CODEC_LZ4:
    case HFG_CODEC_ZSTD_HBASE: return hfg_block_compress(z, src, n, out, err);
    default: return hfg_codec_fail(err, HFG_EINVAL, "codec %d is not a codec", (int)z->codec);
  }
}

int hfg_codec_decompress(hfg_codec c, const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len,
                         hfg_err *err) {
  const char *name = hfg_codec_name(c);
  if (!name) return hfg_codec_fail(err, HFG_EINVAL, "codec %d is not a codec", (int)c);
  if (n > INT32_MAX || raw_len > INT32_MAX)
    return hfg_codec_fail(err, HFG_ETOOBIG,
                          "%s: payload of %zu bytes / raw length %zu exceeds INT32_MAX", name, n,
                          raw_len);
  /* Empty buffers may come as NULL; give the decoders real addresses. */
  static const uint8_t empty_src[1] = {0};
  uint8_t empty_dst[1];
  if (!src) src = empty_src;
  if (!dst) dst = empty_dst;
  switch (c) {
    case HFG_CODEC_NONE:
      if (n != raw_len)
        return hfg_codec_fail(err, HFG_ECODEC, "none: payload has %zu bytes, header says %zu", n,
                              raw_len);
      if (n) memmove(dst, src, n);
      return 0;
    case HFG_CODEC_GZ: return hfg_gz_decompress(src, n, dst, raw_len, err);
    case HFG_CODEC_ZSTD_HADOOP: return hfg_zstd_plain_decompress(src, n, dst, raw_len, err);
    default: return hfg_block_decompress(c, src, n, dst, raw_len, err);
  }
}

static int is_zstd_frame(const uint8_t *src, size_t n) {
  return n >= 4 && src[0] == 0x28 && src[1] == 0xb5 && src[2] == 0x2f && src[3] == 0xfd;
}

int hfg_codec_decompress_ordinal(int ordinal, const uint8_t *src, size_t n, uint8_t *dst,
                                 size_t raw_len, hfg_err *err) {
  switch (ordinal) {
    case ORD_GZ: return hfg_codec_decompress(HFG_CODEC_GZ, src, n, dst, raw_len, err);
    case ORD_NONE: return hfg_codec_decompress(HFG_CODEC_NONE, src, n, dst, raw_len, err);
    case ORD_SNAPPY: return hfg_codec_decompress(HFG_CODEC_SNAPPY, src, n, dst, raw_len, err);
    case ORD_LZ4: return hfg_codec_decompress(HFG_CODEC_LZ4, src, n, dst, raw_len, err);
    case ORD_ZSTD:
      if (!is_zstd_frame(src, n))
        return hfg_codec_decompress(HFG_CODEC_ZSTD_HBASE, src, n, dst, raw_len, err);
      /* A block-framed payload could start with the magic only if its raw length
       * were 0x28b52ffd; then try both readings. */
      if (raw_len == 0x28b52ffdu) {
        hfg_err tmp = {0, ""};
        if (hfg_codec_decompress(HFG_CODEC_ZSTD_HADOOP, src, n, dst, raw_len, &tmp) == 0) return 0;
        return hfg_codec_decompress(HFG_CODEC_ZSTD_HBASE, src, n, dst, raw_len, err);
      }
      return hfg_codec_decompress(HFG_CODEC_ZSTD_HADOOP, src, n, dst, raw_len, err);
    case ORD_LZO:
      return hfg_codec_fail(err, HFG_EUNSUPPORTED, "compression LZO (ordinal 0) is not supported");
    case ORD_BZIP2:
      return hfg_codec_fail(err, HFG_EUNSUPPORTED,
                            "compression BZIP2 (ordinal 5) is not supported");
    case ORD_LZMA:
      return hfg_codec_fail(err, HFG_EUNSUPPORTED, "compression LZMA (ordinal 7) is not supported");
    case ORD_BROTLI:
      return hfg_codec_fail(err, HFG_EUNSUPPORTED,
                            "compression BROTLI (ordinal 8) is not supported");
    default:
      return hfg_codec_fail(err, HFG_ECORRUPT,
                            "unknown compression ordinal %d (HBase knows 0..8)", ordinal);
  }
}
