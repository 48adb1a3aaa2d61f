/* GZ block framing (format-specs/codecs.md, "GZ"): HBase's header and
 * trailer, members, decoding across engines (zlib, ISA-L igzip) and blocks
 * written by HBase. */
#include <stdio.h>
#include <zlib.h>

#ifdef HFG_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "codec_data.h"
#include "format/codec.h"
#include "format/codec_internal.h"
#include "t.h"
#include "util/alloc.h"
#include "util/coding.h"

T_MAIN

/* ---------- gzip ---------- */

static const uint8_t hbase_gz_hdr[10] = {0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0};

static uint32_t get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Inflates a gzip payload with plain zlib, independent of the code under test. */
static int zlib_gunzip(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *got) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, 31) != Z_OK) return -1;
  zs.next_in = (Bytef *)src;
  zs.avail_in = (uInt)n;
  zs.next_out = dst;
  zs.avail_out = (uInt)cap;
  int r = inflate(&zs, Z_FINISH);
  *got = zs.total_out;
  int rest = (int)zs.avail_in;
  inflateEnd(&zs);
  return r == Z_STREAM_END && rest == 0 ? 0 : -1;
}

/* A gzip member written by zlib itself (its own header), with optional header fields. */
static size_t zlib_gzip(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, int level,
                        int with_fields) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (deflateInit2(&zs, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
  gz_header h;
  memset(&h, 0, sizeof h);
  if (with_fields) {
    static Bytef extra[] = "xy", name[] = "block.bin", comment[] = "hi";
    h.extra = extra;
    h.extra_len = 2;
    h.name = name;
    h.comment = comment;
    h.hcrc = 1;
    h.os = 255;
    deflateSetHeader(&zs, &h);
  }
  zs.next_in = (Bytef *)src;
  zs.avail_in = (uInt)n;
  zs.next_out = dst;
  zs.avail_out = (uInt)cap;
  int r = deflate(&zs, Z_FINISH);
  size_t len = zs.total_out;
  deflateEnd(&zs);
  return r == Z_STREAM_END ? len : 0;
}

TEST(gzip_header_and_trailer) {
  uint8_t *kv = kv_bytes(50000);
  size_t sizes[] = {0, 1, 50000};
  int subjects[] = {HFG_CODEC_GZ, HFG_CODEC_COUNT_};
  for (int s = 0; s < 2; s++) {
    for (int k = 0; k < 3; k++) {
      hfg_buf out = HFG_BUF_INIT;
      REQUIRE(compress_with(subjects[s], kv, sizes[k], &out) == 0);
      REQUIRE(out.len >= 18 + 2);
      CHECK_MEM(out.p, hbase_gz_hdr, 10); /* 1f 8b 08, FLG 0, MTIME 0, XFL 0, OS 0 */
      const uint8_t *t = out.p + out.len - 8;
      CHECK_EQ_INT(get_le32(t), (uint32_t)crc32(0, kv, (uInt)sizes[k]));
      CHECK_EQ_INT(get_le32(t + 4), sizes[k]);
      /* plain zlib reads it, and it is one member with nothing after it */
      uint8_t *back = malloc(sizes[k] + 16);
      size_t got = 0;
      CHECK_EQ_INT(zlib_gunzip(out.p, out.len, back, sizes[k] + 16, &got), 0);
      CHECK_EQ_INT(got, sizes[k]);
      if (sizes[k]) CHECK_MEM(back, kv, sizes[k]);
      free(back);
      hfg_buf_free(&out);
    }
  }
  free(kv);
}

TEST(gzip_cross_decoding) {
  const size_t n = 80000;
  uint8_t *kv = kv_bytes(n);
  uint8_t *buf = malloc(2 * n + 1024);
  uint8_t *back = malloc(n);
  /* zlib-written members (zlib's own header, or one with FEXTRA/FNAME/FCOMMENT/
   * FHCRC and OS 255 as newer JDKs write) decode through hfg_codec_decompress. */
  for (int fields = 0; fields < 2; fields++) {
    size_t len = zlib_gzip(kv, n, buf, 2 * n + 1024, 6, fields);
    REQUIRE(len > 0);
    hfg_err err = {0, ""};
    memset(back, 0, n);
    CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_GZ, buf, len, back, n, &err), 0);
    CHECK_MEM(back, kv, n);
  }
#ifdef HFG_HAVE_ISAL
  /* ISA-L output decodes with zlib (gzip_header_and_trailer) and with ISA-L's
   * own inflater; the zlib back end's output decodes with ISA-L too. */
  int subjects[] = {HFG_CODEC_GZ, HFG_CODEC_COUNT_};
  for (int s = 0; s < 2; s++) {
    hfg_buf out = HFG_BUF_INIT;
    REQUIRE(compress_with(subjects[s], kv, n, &out) == 0);
    struct inflate_state *st = malloc(sizeof *st);
    isal_inflate_init(st);
    st->crc_flag = ISAL_GZIP;
    st->next_in = out.p;
    st->avail_in = (uint32_t)out.len;
    st->next_out = back;
    st->avail_out = (uint32_t)n;
    memset(back, 0, n);
    int r = isal_inflate(st);
    CHECK_EQ_INT(r, ISAL_DECOMP_OK);
    CHECK_EQ_INT(st->block_state, ISAL_BLOCK_FINISH);
    CHECK_EQ_INT(st->total_out, n);
    CHECK_MEM(back, kv, n);
    free(st);
    hfg_buf_free(&out);
  }
#endif
  free(kv);
  free(buf);
  free(back);
}

TEST(gzip_members) {
  uint8_t *kv = kv_bytes(3000);
  hfg_buf a = HFG_BUF_INIT, e = HFG_BUF_INIT;
  REQUIRE(compress_with(HFG_CODEC_GZ, kv, 1000, &a) == 0);
  REQUIRE(compress_with(HFG_CODEC_COUNT_, kv + 1000, 2000, &a) == 0);
  uint8_t back[3000];
  hfg_err err = {0, ""};
  /* two members decode as their concatenation */
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_GZ, a.p, a.len, back, 3000, &err), 0);
  CHECK_MEM(back, kv, 3000);
  /* a trailing empty member is harmless */
  REQUIRE(compress_with(HFG_CODEC_GZ, NULL, 0, &e) == 0);
  hfg_buf_append(&a, e.p, e.len);
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_GZ, a.p, a.len, back, 3000, &err), 0);
  /* trailing garbage is not */
  hfg_buf_append(&a, "\0\0\0", 3);
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_GZ, a.p, a.len, back, 3000, &err), HFG_ECODEC);
  /* nor is a zlib (RFC 1950) stream: Hadoop's pure-Java gzip reader refuses it */
  uLongf zl = sizeof back;
  uint8_t zbuf[3000];
  zl = sizeof zbuf;
  REQUIRE(compress2(zbuf, &zl, kv, 1000, 6) == Z_OK);
  hfg_err_clear(&err);
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_GZ, zbuf, zl, back, 1000, &err), HFG_ECODEC);
  hfg_buf_free(&a);
  hfg_buf_free(&e);
  free(kv);
}

/* Every block of a GZ HFile HBase 2.4 wrote (apache/hudi-rs fixture) decodes,
 * and its DATA blocks hold exactly the file's 20000 cells. */
TEST(gzip_blocks_written_by_hbase) {
  const char *path = HFG_FIXTURES_DIR "/hbase-2.4-hudi/hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile";
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "  fixture %s missing\n", path);
    CHECK(f != NULL);
    return;
  }
  fseek(f, 0, SEEK_END);
  size_t size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *file = malloc(size);
  REQUIRE(fread(file, 1, size, f) == size);
  fclose(f);
  size_t off = 0, blocks = 0, cells = 0;
  int first = 1;
  while (off + 33 <= size - 4096) {
    const uint8_t *h = file + off;
    uint32_t on_disk = hfg_get_be32(h + 8), raw = hfg_get_be32(h + 12);
    uint32_t data_with_header = hfg_get_be32(h + 29);
    REQUIRE(data_with_header >= 33 && off + data_with_header <= size);
    uint8_t *out = malloc(raw ? raw : 1);
    hfg_err err = {0, ""};
    int rc = hfg_codec_decompress_ordinal(1, h + 33, data_with_header - 33, out, raw, &err);
    if (rc) fprintf(stderr, "  block at %zu: %s\n", off, err.msg);
    CHECK_EQ_INT(rc, 0);
    if (!rc && memcmp(h, "DATABLK*", 8) == 0) {
      size_t p = 0;
      while (p + 8 <= raw) {
        uint32_t kl = hfg_get_be32(out + p), vl = hfg_get_be32(out + p + 4);
        if (first) {
          CHECK(kl > 20 && memcmp(out + p + 10, "hudi-key-000000000", 18) == 0);
          first = 0;
        }
        p += 8 + kl + vl;
        int64_t mvcc;
        size_t m = hfg_get_vlong(out + p, out + raw, &mvcc);
        REQUIRE(m > 0);
        p += m;
        cells++;
      }
      CHECK_EQ_INT(p, raw);
    }
    free(out);
    blocks++;
    off += 33 + on_disk;
  }
  CHECK_EQ_INT(off, size - 4096);
  CHECK(blocks > 10);
  CHECK_EQ_INT(cells, 20000);
  free(file);
}
