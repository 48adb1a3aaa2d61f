/*
 * GZ: one RFC 1952 gzip member per block (format-specs/codecs.md, "GZ").
 *
 * By default every block is deflated exactly as HBase deflates it, so GZ
 * blocks are byte-identical to HBase's own (the interop harness's SameBytes
 * step checks it): HBase 2.5/2.6/3.0 on Hadoop 3.3.1+ without native libhadoop
 * compresses a block with Hadoop's BuiltInGzipCompressor behind a
 * CompressorStream, one member per block (resetState, write, flush, finish):
 *   - the fixed header 1f 8b 08 00 00000000 00 00 (FLG, MTIME, XFL, OS all 0),
 *   - java.util.zip.Deflater(level, nowrap): zlib raw deflate, windowBits 15,
 *     memLevel 8, at Hadoop's zlib.compress.level (default -1 = zlib level 6)
 *     and zlib.compress.strategy (default Z_DEFAULT_STRATEGY),
 *   - CRC-32 and ISIZE, little-endian.
 * Deflate's output is a function of the input, those parameters and the zlib
 * build: Java's Deflater uses the JDK's zlib (Debian's OpenJDK links the
 * system libz, the one we link), so the bytes match HBase's when both use the
 * same zlib release (format-specs/codecs.md lists what was compared).
 *
 * HFG_GZ_LEVEL_ISAL selects ISA-L igzip instead (hfg_writer_options.gz_impl):
 * valid GZ, several times faster, but not HBase's bytes. igzip writes the
 * deflate stream and the trailer (stateless, IGZIP_GZIP_NO_HDR); we write the
 * same header. Blocks under GZ_ISAL_MIN bytes still go to zlib: igzip (2.30,
 * AVX-512 build) encoded the same tiny block (80-140 bytes; its stateless path
 * shrinks the hash table for inputs under 4 KiB) two ways in different runs,
 * with the context's state and level buffer zeroed first (issue #11). So in
 * either mode a block's encoding is a function of its bytes and the level.
 *
 * Decoding always uses zlib in gzip-only mode (windowBits 15+16), matching the
 * strictest HBase reader (BuiltInGzipDecompressor rejects zlib/raw streams).
 */
#define ZLIB_CONST
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#ifdef HFG_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "format/codec_internal.h"
#include "util/alloc.h"

/* BuiltInGzipCompressor's header (Hadoop 3.3.1+; older Hadoop's
 * ReusableGzipOutputStream copied GZIPOutputStream's, which has OS = ff on JDK 16+). */
static const uint8_t hbase_gz_header[10] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
#define GZ_HEADER_LEN 10
#define GZ_TRAILER_LEN 8
/* Smallest block igzip encodes (see the header); smaller ones go to zlib. */
#define GZ_ISAL_MIN 4096

struct hfg_gz_enc {
  int level; /* zlib scale 1..9 */
  int use_isal;
  z_stream zs; /* raw deflate: every block without ISA-L, small blocks with it */
  int zs_ready;
#ifdef HFG_HAVE_ISAL
  struct isal_zstream is;
  uint8_t *lvl_buf;
  uint32_t lvl_size;
  uint32_t isal_level;
#endif
};

/* zlib's allocator hooks, so fault injection reaches zlib's state too. */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  if (size && items > SIZE_MAX / size) return Z_NULL;
  return hfg_malloc((size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p) {
  (void)opaque;
  hfg_free(p);
}

/* The gzip trailer is the one little-endian field of an HFile (RFC 1952 §2.3.1). */
static void put_le32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

int hfg_gz_isal_available(void) {
#ifdef HFG_HAVE_ISAL
  return 1;
#else
  return 0;
#endif
}

hfg_gz_enc *hfg_gz_enc_new(int level, int use_isal) {
  hfg_gz_enc *g = hfg_calloc(1, sizeof *g);
  if (!g) return NULL;
  g->level = level;
#ifdef HFG_HAVE_ISAL
  if (use_isal) {
    /* igzip has levels 1..3; spread zlib's 1..9 over them. */
    g->use_isal = 1;
    g->isal_level = level <= 1 ? 1 : level <= 5 ? 2 : 3;
    g->lvl_size = g->isal_level == 1   ? ISAL_DEF_LVL1_DEFAULT
                  : g->isal_level == 2 ? ISAL_DEF_LVL2_DEFAULT
                                       : ISAL_DEF_LVL3_DEFAULT;
    g->lvl_buf = hfg_malloc(g->lvl_size);
    if (!g->lvl_buf) {
      hfg_free(g);
      return NULL;
    }
  }
#else
  if (use_isal) { /* callers check hfg_gz_isal_available first */
    hfg_free(g);
    return NULL;
  }
#endif
  g->zs.zalloc = z_alloc;
  g->zs.zfree = z_free;
  g->zs.opaque = Z_NULL;
  /* Raw deflate (negative windowBits), framed as gzip by us: what Java's
   * Deflater(level, nowrap = true) asks of zlib (MAX_WBITS, DEF_MEM_LEVEL 8). */
  if (deflateInit2(&g->zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    hfg_gz_enc_free(g);
    return NULL;
  }
  g->zs_ready = 1;
  return g;
}

void hfg_gz_enc_free(hfg_gz_enc *g) {
  if (!g) return;
  if (g->zs_ready) deflateEnd(&g->zs);
#ifdef HFG_HAVE_ISAL
  hfg_free(g->lvl_buf);
#endif
  hfg_free(g);
}

const char *hfg_gz_enc_impl(const hfg_gz_enc *g) { return g->use_isal ? "isa-l" : "zlib"; }

#ifdef HFG_HAVE_ISAL
static int isal_compress(hfg_gz_enc *g, const uint8_t *src, size_t n, hfg_buf *out,
                         hfg_err *err) {
  /* Stateless igzip needs room for its worst case up front: when deflate does not
   * pay it falls back to stored blocks (5 bytes per 64 KiB) plus the trailer. */
  size_t bound = n + (n >> 4) + 1024;
  if (hfg_buf_reserve(out, GZ_HEADER_LEN + bound))
    return hfg_codec_fail(err, HFG_ENOMEM, "gz: out of memory");
  uint8_t *base = out->p + out->len;
  memcpy(base, hbase_gz_header, GZ_HEADER_LEN);
  struct isal_zstream *s = &g->is;
  isal_deflate_stateless_init(s);
  s->next_in = (uint8_t *)src; /* igzip does not write its input */
  s->avail_in = (uint32_t)n;
  s->next_out = base + GZ_HEADER_LEN;
  s->avail_out = (uint32_t)bound;
  s->level = g->isal_level;
  s->level_buf = g->lvl_buf;
  s->level_buf_size = g->lvl_size;
  s->gzip_flag = IGZIP_GZIP_NO_HDR;
  s->end_of_stream = 1;
  s->flush = NO_FLUSH;
  int r = isal_deflate_stateless(s);
  if (r != COMP_OK)
    return hfg_codec_fail(err, HFG_ECODEC, "gz: isa-l deflate failed (%d) on %zu bytes", r, n);
  out->len += GZ_HEADER_LEN + s->total_out;
  return 0;
}
#endif

static int zlib_compress(hfg_gz_enc *g, const uint8_t *src, size_t n, hfg_buf *out,
                         hfg_err *err) {
  if (deflateReset(&g->zs) != Z_OK) return hfg_codec_fail(err, HFG_ECODEC, "gz: deflateReset failed");
  /* With deflateBound's room, one Z_FINISH call completes the stream. */
  size_t bound = deflateBound(&g->zs, (uLong)n);
  if (hfg_buf_reserve(out, GZ_HEADER_LEN + bound + GZ_TRAILER_LEN))
    return hfg_codec_fail(err, HFG_ENOMEM, "gz: out of memory");
  uint8_t *base = out->p + out->len;
  memcpy(base, hbase_gz_header, GZ_HEADER_LEN);
  g->zs.next_in = src;
  g->zs.avail_in = (uInt)n;
  g->zs.next_out = base + GZ_HEADER_LEN;
  g->zs.avail_out = (uInt)bound;
  int r = deflate(&g->zs, Z_FINISH);
  if (r != Z_STREAM_END)
    return hfg_codec_fail(err, HFG_ECODEC, "gz: deflate failed (%d) on %zu bytes", r, n);
  size_t dlen = bound - g->zs.avail_out;
  uint8_t *t = base + GZ_HEADER_LEN + dlen;
  put_le32(t, (uint32_t)crc32_z(0, src, n));
  put_le32(t + 4, (uint32_t)n); /* ISIZE: length mod 2^32 */
  out->len += GZ_HEADER_LEN + dlen + GZ_TRAILER_LEN;
  return 0;
}

int hfg_gz_compress(hfg_gz_enc *g, const uint8_t *src, size_t n, hfg_buf *out, hfg_err *err) {
#ifdef HFG_HAVE_ISAL
  if (g->use_isal && n >= GZ_ISAL_MIN) return isal_compress(g, src, n, out, err);
#endif
  return zlib_compress(g, src, n, out, err);
}

int hfg_gz_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len, hfg_err *err) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  zs.zalloc = z_alloc;
  zs.zfree = z_free;
  int r = inflateInit2(&zs, 15 + 16); /* gzip only */
  if (r != Z_OK)
    return hfg_codec_fail(err, r == Z_MEM_ERROR ? HFG_ENOMEM : HFG_ECODEC,
                          "gz: inflateInit2 failed (%d)", r);
  zs.next_in = src;
  zs.avail_in = (uInt)n;
  size_t total = 0;
  unsigned members = 0;
  uint8_t spill[64]; /* catches output beyond raw_len */
  int rc = 0;
  /* Members are decoded back to back (a multi-member stream is their
   * concatenation); all of the payload must be consumed. */
  for (;;) {
    int over = total == raw_len;
    zs.next_out = over ? spill : dst + total;
    zs.avail_out = over ? (uInt)sizeof spill : (uInt)(raw_len - total);
    uInt room = zs.avail_out;
    r = inflate(&zs, Z_NO_FLUSH);
    size_t produced = room - zs.avail_out;
    if (over && produced) {
      rc = hfg_codec_fail(err, HFG_ECODEC, "gz: payload yields more than the %zu bytes the header says",
                          raw_len);
      break;
    }
    if (!over) total += produced;
    if (r == Z_STREAM_END) {
      members++;
      if (zs.avail_in == 0) break;
      if (inflateReset(&zs) != Z_OK) {
        rc = hfg_codec_fail(err, HFG_ECODEC, "gz: inflateReset failed");
        break;
      }
      continue;
    }
    if (r == Z_OK) continue;
    size_t at = n - zs.avail_in;
    if (r == Z_BUF_ERROR) /* no progress with output room left: the input ran out */
      rc = hfg_codec_fail(err, HFG_ECODEC,
                          "gz: payload of %zu bytes ends inside gzip member %u "
                          "(after %zu bytes of output, header says %zu)",
                          n, members + 1, total, raw_len);
    else if (r == Z_MEM_ERROR)
      rc = hfg_codec_fail(err, HFG_ENOMEM, "gz: out of memory");
    else
      rc = hfg_codec_fail(err, HFG_ECODEC, "gz: corrupt gzip member %u near payload offset %zu: %s",
                          members + 1, at, zs.msg ? zs.msg : "bad data");
    break;
  }
  inflateEnd(&zs);
  if (rc) return rc;
  if (total != raw_len)
    return hfg_codec_fail(err, HFG_ECODEC, "gz: payload yields %zu bytes, header says %zu", total,
                          raw_len);
  return 0;
}
