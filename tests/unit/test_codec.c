/* Block compression framings: format-specs/codecs.md (GZ: test_codec_gzip.c). */
#include <lz4.h>
#include <snappy-c.h>
#include <stdio.h>
#include <zlib.h>
#include <zstd.h>

#ifdef HFG_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "format/codec.h"
#include "format/codec_internal.h"
#include "codec_data.h"
#include "t.h"
#include "util/alloc.h"
#include "util/coding.h"

T_MAIN


static void roundtrip(int i, const uint8_t *src, size_t n, const char *what) {
  hfg_codec c;
  hfg_compressor *z = subject_new(i, &c);
  REQUIRE(z != NULL);
  hfg_buf out = HFG_BUF_INIT;
  hfg_err err = {0, ""};
  int rc = hfg_compressor_compress(z, src, n, &out, &err);
  if (rc) fprintf(stderr, "  %s %s: %s\n", subject_name(i), what, err.msg);
  CHECK_EQ_INT(rc, 0);
  uint8_t *back = malloc(n ? n : 1);
  rc = hfg_codec_decompress(c, out.p, out.len, back, n, &err);
  if (rc) fprintf(stderr, "  %s %s: %s\n", subject_name(i), what, err.msg);
  CHECK_EQ_INT(rc, 0);
  if (rc == 0 && n) CHECK_MEM(back, src, n);
  /* The ordinal path (what a reader of the trailer uses) agrees. */
  memset(back, 0xaa, n);
  rc = hfg_codec_decompress_ordinal(hfg_codec_hbase_ordinal(c), out.p, out.len, back, n, &err);
  CHECK_EQ_INT(rc, 0);
  if (rc == 0 && n) CHECK_MEM(back, src, n);
  free(back);
  hfg_buf_free(&out);
  hfg_compressor_free(z);
}

/* ---------- names, ordinals, constants ---------- */

TEST(names) {
  const char *names[] = {"none", "gz", "snappy", "lz4", "zstd-hadoop", "zstd-hbase"};
  for (int i = 0; i < HFG_CODEC_COUNT_; i++) {
    CHECK(strcmp(hfg_codec_name((hfg_codec)i), names[i]) == 0);
    hfg_codec c = HFG_CODEC_COUNT_;
    CHECK_EQ_INT(hfg_codec_parse(names[i], &c), 0);
    CHECK_EQ_INT(c, i);
  }
  hfg_codec c = HFG_CODEC_NONE;
  CHECK_EQ_INT(hfg_codec_parse("GZIP", &c), 0);
  CHECK_EQ_INT(c, HFG_CODEC_GZ);
  CHECK_EQ_INT(hfg_codec_parse("Zstd-HBase", &c), 0);
  CHECK_EQ_INT(c, HFG_CODEC_ZSTD_HBASE);
  CHECK_EQ_INT(hfg_codec_parse("SNAPPY", &c), 0);
  CHECK_EQ_INT(c, HFG_CODEC_SNAPPY);
  c = HFG_CODEC_LZ4;
  CHECK_EQ_INT(hfg_codec_parse("zstd", &c), -1); /* ambiguous framing: refused */
  CHECK_EQ_INT(hfg_codec_parse("ZSTD", &c), -1);
  CHECK_EQ_INT(hfg_codec_parse("lzo", &c), -1);
  CHECK_EQ_INT(hfg_codec_parse("", &c), -1);
  CHECK_EQ_INT(hfg_codec_parse("gz ", &c), -1);
  CHECK_EQ_INT(hfg_codec_parse(NULL, &c), -1);
  CHECK_EQ_INT(c, HFG_CODEC_LZ4); /* untouched on failure */
  CHECK(hfg_codec_name(HFG_CODEC_COUNT_) == NULL);
}

TEST(hbase_ordinals) {
  /* Compression.Algorithm: LZO, GZ, NONE, SNAPPY, LZ4, BZIP2, ZSTD, LZMA, BROTLI. */
  CHECK_EQ_INT(hfg_codec_hbase_ordinal(HFG_CODEC_GZ), 1);
  CHECK_EQ_INT(hfg_codec_hbase_ordinal(HFG_CODEC_NONE), 2);
  CHECK_EQ_INT(hfg_codec_hbase_ordinal(HFG_CODEC_SNAPPY), 3);
  CHECK_EQ_INT(hfg_codec_hbase_ordinal(HFG_CODEC_LZ4), 4);
  CHECK_EQ_INT(hfg_codec_hbase_ordinal(HFG_CODEC_ZSTD_HADOOP), 6);
  CHECK_EQ_INT(hfg_codec_hbase_ordinal(HFG_CODEC_ZSTD_HBASE), 6);
  CHECK_EQ_INT(hfg_codec_hbase_ordinal(HFG_CODEC_COUNT_), HFG_EINVAL);
}

TEST(limits_and_levels) {
  CHECK_EQ_INT(hfg_codec_chunk_limit(HFG_CODEC_SNAPPY), 218422);
  CHECK_EQ_INT(hfg_codec_chunk_limit(HFG_CODEC_LZ4), 261100);
  CHECK_EQ_INT(hfg_codec_chunk_limit(HFG_CODEC_ZSTD_HBASE), 261120);
  CHECK_EQ_INT(hfg_codec_chunk_limit(HFG_CODEC_GZ), 0);
  CHECK_EQ_INT(hfg_codec_chunk_limit(HFG_CODEC_ZSTD_HADOOP), 0);
  CHECK_EQ_INT(hfg_codec_default_level(HFG_CODEC_GZ), 6);
  CHECK_EQ_INT(hfg_codec_default_level(HFG_CODEC_ZSTD_HADOOP), 3);
  CHECK_EQ_INT(hfg_codec_default_level(HFG_CODEC_ZSTD_HBASE), 3);
  CHECK_EQ_INT(hfg_codec_default_level(HFG_CODEC_LZ4), 0);

  struct {
    hfg_codec c;
    int asked, got;
  } cases[] = {{HFG_CODEC_GZ, -1, 6},          {HFG_CODEC_GZ, 0, 1},
               {HFG_CODEC_GZ, 6, 6},           {HFG_CODEC_GZ, 42, 9},
               {HFG_CODEC_ZSTD_HADOOP, -1, 3}, {HFG_CODEC_ZSTD_HBASE, 19, 19},
               {HFG_CODEC_ZSTD_HBASE, 0, 1},   {HFG_CODEC_ZSTD_HADOOP, 1000, ZSTD_maxCLevel()},
               {HFG_CODEC_LZ4, 9, 0},          {HFG_CODEC_SNAPPY, -1, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    hfg_compressor *z = hfg_compressor_new(cases[i].c, cases[i].asked);
    REQUIRE(z != NULL);
    CHECK_EQ_INT(hfg_compressor_level(z), cases[i].got);
    hfg_compressor_free(z);
  }
  CHECK(hfg_compressor_new(HFG_CODEC_COUNT_, -1) == NULL);
  hfg_compressor_free(NULL);

  hfg_compressor *z = hfg_compressor_new(HFG_CODEC_GZ, -1);
  CHECK(strcmp(hfg_compressor_impl(z), "zlib") == 0); /* HBase's bytes unless asked */
  hfg_compressor_free(z);
  z = hfg_compressor_new(HFG_CODEC_GZ, HFG_GZ_LEVEL_ISAL);
#ifdef HFG_HAVE_ISAL
  CHECK(z && strcmp(hfg_compressor_impl(z), "isa-l") == 0 && hfg_compressor_level(z) == 1);
#else
  CHECK(z == NULL);
#endif
  hfg_compressor_free(z);
  z = hfg_compressor_new_gz_zlib(-1);
  CHECK(strcmp(hfg_compressor_impl(z), "zlib") == 0);
  hfg_compressor_free(z);
}

/* ---------- round trips ---------- */

TEST(roundtrip_all_codecs) {
  uint8_t one = 'x';
  uint8_t *kv = kv_bytes(64 * 1024);
  uint8_t *rnd64 = random_bytes(64 * 1024);
  uint8_t *big = kv_bytes(1 << 20);
  for (int i = 0; i < N_SUBJECTS; i++) {
    roundtrip(i, NULL, 0, "empty");
    roundtrip(i, &one, 1, "1 byte");
    roundtrip(i, kv, 64 * 1024, "64 KiB kv");
    roundtrip(i, rnd64, 64 * 1024, "64 KiB random");
    roundtrip(i, big, 1 << 20, "1 MiB kv");
  }
  free(kv);
  free(rnd64);
  free(big);
}

TEST(kv_data_compresses) {
  uint8_t *kv = kv_bytes(64 * 1024);
  for (int i = 1; i < N_SUBJECTS; i++) {
    hfg_buf out = HFG_BUF_INIT;
    CHECK_EQ_INT(compress_with(i, kv, 64 * 1024, &out), 0);
    if (out.len * 2 > 64 * 1024) fprintf(stderr, "  %s: %zu bytes\n", subject_name(i), out.len);
    CHECK(out.len * 2 < 64 * 1024);
    hfg_buf_free(&out);
  }
  free(kv);
}

/* One compressor, many blocks of varying size appended to one buffer: contexts
 * are reset between blocks and out is appended to, not overwritten. */
TEST(compressor_reuse_appends) {
  uint8_t *kv = kv_bytes(300 * 1024 + 1000);
  size_t sizes[] = {100, 70000, 0, 1, 300 * 1024, 4096, 65536};
  const size_t ns = sizeof sizes / sizeof sizes[0];
  for (int i = 0; i < N_SUBJECTS; i++) {
    hfg_codec c;
    hfg_compressor *z = subject_new(i, &c);
    REQUIRE(z != NULL);
    hfg_buf out = HFG_BUF_INIT;
    hfg_buf_append(&out, "HDR", 3);
    size_t starts[8];
    size_t off = 0;
    for (size_t k = 0; k < ns; k++) {
      starts[k] = out.len;
      CHECK_EQ_INT(hfg_compressor_compress(z, kv + off % 1000, sizes[k], &out, NULL), 0);
      off += 333;
    }
    starts[ns] = out.len;
    CHECK_MEM(out.p, "HDR", 3);
    off = 0;
    for (size_t k = 0; k < ns; k++) {
      uint8_t *back = malloc(sizes[k] + 1);
      hfg_err err = {0, ""};
      int rc = hfg_codec_decompress(c, out.p + starts[k], starts[k + 1] - starts[k], back,
                                    sizes[k], &err);
      if (rc) fprintf(stderr, "  %s block %zu: %s\n", subject_name(i), k, err.msg);
      CHECK_EQ_INT(rc, 0);
      if (!rc && sizes[k]) CHECK_MEM(back, kv + off % 1000, sizes[k]);
      free(back);
      off += 333;
    }
    hfg_buf_free(&out);
    hfg_compressor_free(z);
  }
  free(kv);
}

/* ---------- exact framing bytes ---------- */

TEST(block_framing_small) {
  uint8_t a[100];
  memset(a, 'a', sizeof a);
  hfg_codec cs[] = {HFG_CODEC_SNAPPY, HFG_CODEC_LZ4, HFG_CODEC_ZSTD_HBASE};
  for (int k = 0; k < 3; k++) {
    hfg_buf out = HFG_BUF_INIT;
    REQUIRE(compress_with(cs[k], a, sizeof a, &out) == 0);
    REQUIRE(out.len > 8);
    CHECK(out.p[0] == 0 && out.p[1] == 0 && out.p[2] == 0 && out.p[3] == 100);
    CHECK_EQ_INT(hfg_get_be32(out.p + 4), out.len - 8); /* one chunk, nothing after it */
    uint8_t back[100];
    memset(back, 0, sizeof back);
    const char *chunk = (const char *)out.p + 8;
    size_t clen = out.len - 8;
    if (cs[k] == HFG_CODEC_SNAPPY) {
      size_t ul = sizeof back;
      CHECK(snappy_uncompress(chunk, clen, (char *)back, &ul) == SNAPPY_OK && ul == 100);
    } else if (cs[k] == HFG_CODEC_LZ4) {
      CHECK_EQ_INT(LZ4_decompress_safe(chunk, (char *)back, (int)clen, 100), 100);
    } else {
      CHECK(out.p[8] == 0x28 && out.p[9] == 0xb5 && out.p[10] == 0x2f && out.p[11] == 0xfd);
      CHECK_EQ_INT(ZSTD_getFrameContentSize(chunk, clen), 100);
      CHECK_EQ_INT(ZSTD_decompress(back, sizeof back, chunk, clen), 100);
    }
    CHECK_MEM(back, a, sizeof a);
    hfg_buf_free(&out);
  }
}

TEST(empty_block_forms) {
  hfg_codec cs[] = {HFG_CODEC_SNAPPY, HFG_CODEC_LZ4, HFG_CODEC_ZSTD_HBASE};
  for (int k = 0; k < 3; k++) {
    hfg_buf out = HFG_BUF_INIT;
    REQUIRE(compress_with(cs[k], NULL, 0, &out) == 0);
    CHECK_EQ_INT(out.len, 4);
    CHECK(out.len == 4 && hfg_get_be32(out.p) == 0);
    hfg_buf_free(&out);
  }
  hfg_buf out = HFG_BUF_INIT;
  REQUIRE(compress_with(HFG_CODEC_ZSTD_HADOOP, NULL, 0, &out) == 0);
  CHECK(out.len >= 4 && out.p[0] == 0x28 && out.p[3] == 0xfd);
  CHECK_EQ_INT(ZSTD_getFrameContentSize(out.p, out.len), 0);
  hfg_buf_free(&out);
  out = (hfg_buf)HFG_BUF_INIT;
  REQUIRE(compress_with(HFG_CODEC_NONE, NULL, 0, &out) == 0);
  CHECK_EQ_INT(out.len, 0);
  hfg_buf_free(&out);
}

/* Walks the Hadoop framing of a payload the way BlockDecompressorStream does and
 * checks each chunk's raw size by decoding it with the raw library. */
static void check_chunks(hfg_codec c, const uint8_t *p, size_t len, size_t raw, const uint8_t *src) {
  size_t limit = hfg_codec_chunk_limit(c);
  REQUIRE(len >= 4);
  CHECK_EQ_INT(hfg_get_be32(p), raw);
  size_t pos = 4, done = 0, chunks = 0;
  uint8_t *tmp = malloc(limit);
  while (done < raw) {
    REQUIRE(pos + 4 <= len);
    size_t clen = hfg_get_be32(p + pos);
    pos += 4;
    REQUIRE(pos + clen <= len);
    size_t want = raw - done < limit ? raw - done : limit;
    size_t got = 0;
    if (c == HFG_CODEC_SNAPPY) {
      got = limit;
      CHECK(snappy_uncompress((const char *)p + pos, clen, (char *)tmp, &got) == SNAPPY_OK);
    } else if (c == HFG_CODEC_LZ4) {
      int r = LZ4_decompress_safe((const char *)p + pos, (char *)tmp, (int)clen, (int)limit);
      got = r < 0 ? 0 : (size_t)r;
    } else {
      size_t r = ZSTD_decompress(tmp, limit, p + pos, clen);
      got = ZSTD_isError(r) ? 0 : r;
    }
    CHECK_EQ_INT(got, want);
    if (got == want) CHECK_MEM(tmp, src + done, want);
    REQUIRE(got == want);
    done += got;
    pos += clen;
    chunks++;
  }
  free(tmp);
  CHECK_EQ_INT(chunks, raw ? (raw + limit - 1) / limit : 0);
  if (raw > limit) { /* HBase's finish() leaves an empty segment behind */
    REQUIRE(pos + 4 == len);
    CHECK_EQ_INT(hfg_get_be32(p + pos), 0);
  } else {
    CHECK_EQ_INT(pos, len);
  }
}

TEST(block_framing_chunks) {
  const size_t mb = 1 << 20;
  uint8_t *big = kv_bytes(mb);
  hfg_codec cs[] = {HFG_CODEC_SNAPPY, HFG_CODEC_LZ4, HFG_CODEC_ZSTD_HBASE};
  for (int k = 0; k < 3; k++) {
    size_t limit = hfg_codec_chunk_limit(cs[k]);
    size_t sizes[] = {mb, limit, limit + 1, 2 * limit, limit - 1};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      hfg_buf out = HFG_BUF_INIT;
      REQUIRE(compress_with(cs[k], big, sizes[s], &out) == 0);
      check_chunks(cs[k], out.p, out.len, sizes[s], big);
      hfg_buf_free(&out);
    }
  }
  free(big);
}

/* ---------- zstd ---------- */

TEST(zstd_hadoop_is_one_plain_frame_at_level_3) {
  uint8_t *kv = kv_bytes(64 * 1024);
  hfg_buf out = HFG_BUF_INIT;
  REQUIRE(compress_with(HFG_CODEC_ZSTD_HADOOP, kv, 64 * 1024, &out) == 0);
  /* byte-identical to libzstd's one-shot API at Hadoop/HBase's default level 3 */
  size_t cap = ZSTD_compressBound(64 * 1024);
  uint8_t *ref = malloc(cap);
  size_t rl = ZSTD_compress(ref, cap, kv, 64 * 1024, 3);
  REQUIRE(!ZSTD_isError(rl));
  CHECK_EQ_INT(out.len, rl);
  if (out.len == rl) CHECK_MEM(out.p, ref, rl);
  CHECK_EQ_INT(ZSTD_findFrameCompressedSize(out.p, out.len), out.len);
  CHECK_EQ_INT(ZSTD_getFrameContentSize(out.p, out.len), 64 * 1024);
  free(ref);
  hfg_buf_free(&out);
  free(kv);
}

TEST(ordinal_six_detects_framing) {
  uint8_t *kv = kv_bytes(5000);
  uint8_t back[5000];
  hfg_codec cs[] = {HFG_CODEC_ZSTD_HADOOP, HFG_CODEC_ZSTD_HBASE};
  for (int k = 0; k < 2; k++) {
    hfg_buf out = HFG_BUF_INIT;
    REQUIRE(compress_with(cs[k], kv, 5000, &out) == 0);
    hfg_err err = {0, ""};
    memset(back, 0, sizeof back);
    CHECK_EQ_INT(hfg_codec_decompress_ordinal(6, out.p, out.len, back, 5000, &err), 0);
    CHECK_MEM(back, kv, 5000);
    /* the other framing cannot read it */
    hfg_err_clear(&err);
    CHECK_EQ_INT(hfg_codec_decompress(cs[1 - k], out.p, out.len, back, 5000, &err), HFG_ECODEC);
    hfg_buf_free(&out);
  }
  free(kv);
}

TEST(ordinal_unsupported_and_unknown) {
  uint8_t d[4] = {0, 0, 0, 0}, o[4];
  struct {
    int ord;
    const char *name;
  } un[] = {{0, "LZO"}, {5, "BZIP2"}, {7, "LZMA"}, {8, "BROTLI"}};
  for (int i = 0; i < 4; i++) {
    hfg_err err = {0, ""};
    CHECK_EQ_INT(hfg_codec_decompress_ordinal(un[i].ord, d, 4, o, 4, &err), HFG_EUNSUPPORTED);
    CHECK(strstr(err.msg, un[i].name) != NULL);
  }
  hfg_err err = {0, ""};
  CHECK_EQ_INT(hfg_codec_decompress_ordinal(9, d, 4, o, 4, &err), HFG_ECORRUPT);
  CHECK_EQ_INT(hfg_codec_decompress_ordinal(-1, d, 4, o, 4, NULL), HFG_ECORRUPT);
  /* NONE copies exactly raw_len bytes */
  memset(o, 9, 4);
  CHECK_EQ_INT(hfg_codec_decompress_ordinal(2, (const uint8_t *)"abcd", 4, o, 4, NULL), 0);
  CHECK_MEM(o, "abcd", 4);
  CHECK_EQ_INT(hfg_codec_decompress_ordinal(2, (const uint8_t *)"abcd", 4, o, 3, NULL), HFG_ECODEC);
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_COUNT_, d, 4, o, 4, NULL), HFG_EINVAL);
}

/* ---------- hostile input ---------- */

TEST(wrong_raw_len_reported) {
  uint8_t *kv = kv_bytes(1000);
  uint8_t back[1100];
  for (int i = 0; i < N_SUBJECTS; i++) {
    hfg_codec c;
    hfg_compressor *z = subject_new(i, &c);
    hfg_buf out = HFG_BUF_INIT;
    REQUIRE(hfg_compressor_compress(z, kv, 1000, &out, NULL) == 0);
    hfg_err err = {0, ""};
    CHECK_EQ_INT(hfg_codec_decompress(c, out.p, out.len, back, 1001, &err), HFG_ECODEC);
    CHECK(strstr(err.msg, "header says 1001") != NULL);
    CHECK(strncmp(err.msg, hfg_codec_name(c), strlen(hfg_codec_name(c))) == 0);
    hfg_err_clear(&err);
    CHECK_EQ_INT(hfg_codec_decompress(c, out.p, out.len, back, 999, &err), HFG_ECODEC);
    CHECK(err.msg[0] != '\0');
    hfg_buf_free(&out);
    hfg_compressor_free(z);
  }
  /* the message names both sizes */
  hfg_buf out = HFG_BUF_INIT;
  REQUIRE(compress_with(HFG_CODEC_GZ, kv, 100, &out) == 0);
  hfg_err err = {0, ""};
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_GZ, out.p, out.len, back, 120, &err), HFG_ECODEC);
  CHECK(strcmp(err.msg, "gz: payload yields 100 bytes, header says 120") == 0);
  hfg_buf_free(&out);
  free(kv);
}

/* Every truncation of a small payload fails; every single-byte corruption either
 * fails or (for codecs without checksums) yields exactly raw_len bytes; nothing
 * reads or writes out of bounds (ASan build). The output buffer is exactly
 * raw_len bytes on the heap so any overrun is caught. */
TEST(truncated_and_corrupt_payloads) {
  uint8_t *kv = kv_bytes(600);
  const size_t raw = 600;
  for (int i = 0; i < N_SUBJECTS; i++) {
    hfg_codec c;
    hfg_compressor *z = subject_new(i, &c);
    hfg_buf out = HFG_BUF_INIT;
    REQUIRE(hfg_compressor_compress(z, kv, raw, &out, NULL) == 0);
    hfg_compressor_free(z);
    uint8_t *dst = malloc(raw);
    for (size_t t = 0; t < out.len; t++) {
      uint8_t *cut = malloc(t ? t : 1);
      memcpy(cut, out.p, t);
      int rc = hfg_codec_decompress(c, t ? cut : NULL, t, dst, raw, NULL);
      if (rc != HFG_ECODEC) fprintf(stderr, "  %s truncated to %zu: rc %d\n", subject_name(i), t, rc);
      CHECK_EQ_INT(rc, HFG_ECODEC);
      free(cut);
    }
    uint8_t *bad = malloc(out.len);
    for (size_t b = 0; b < out.len; b++) {
      for (int flip = 0; flip < 2; flip++) {
        memcpy(bad, out.p, out.len);
        bad[b] ^= flip ? 0xff : 0x01;
        hfg_err err = {0, ""};
        int rc = hfg_codec_decompress(c, bad, out.len, dst, raw, &err);
        CHECK(rc == 0 || rc == HFG_ECODEC);
        CHECK(rc == 0 || err.msg[0] != '\0');
        /* gzip's CRC-32 lets through only flips that leave the data intact
         * (MTIME/XFL/OS, FTEXT, padding bits after the last deflate block). */
        if (c == HFG_CODEC_GZ && rc == 0) CHECK(memcmp(dst, kv, raw) == 0);
        if (c == HFG_CODEC_NONE) CHECK_EQ_INT(rc, 0);
        if (hfg_codec_chunk_limit(c) && b < 4) CHECK_EQ_INT(rc, HFG_ECODEC); /* raw length */
      }
    }
    free(bad);
    free(dst);
    hfg_buf_free(&out);
  }
  free(kv);
}

TEST(hostile_framing_lengths) {
  uint8_t dst[64];
  hfg_err err = {0, ""};
  /* chunk length far past the payload */
  const uint8_t big_chunk[] = {0, 0, 0, 10, 0x7f, 0xff, 0xff, 0xff, 1, 2, 3};
  /* segment raw length above raw_len */
  const uint8_t big_seg[] = {0, 0, 1, 0, 0, 0, 0, 1, 0};
  /* negative (as a Java int) segment length */
  const uint8_t neg_seg[] = {0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 1, 0};
  /* a chunk that yields nothing: an LZ4 block holding zero literals */
  const uint8_t empty_chunk[] = {0, 0, 0, 10, 0, 0, 0, 1, 0x00};
  hfg_codec cs[] = {HFG_CODEC_SNAPPY, HFG_CODEC_LZ4, HFG_CODEC_ZSTD_HBASE};
  for (int k = 0; k < 3; k++) {
    hfg_err_clear(&err);
    CHECK_EQ_INT(hfg_codec_decompress(cs[k], big_chunk, sizeof big_chunk, dst, 10, &err), HFG_ECODEC);
    CHECK(strstr(err.msg, "declares 2147483647 compressed bytes") != NULL);
    hfg_err_clear(&err);
    CHECK_EQ_INT(hfg_codec_decompress(cs[k], big_seg, sizeof big_seg, dst, 10, &err), HFG_ECODEC);
    CHECK(strstr(err.msg, "declares 256 raw bytes") != NULL);
    CHECK_EQ_INT(hfg_codec_decompress(cs[k], neg_seg, sizeof neg_seg, dst, 64, NULL), HFG_ECODEC);
    CHECK_EQ_INT(hfg_codec_decompress(cs[k], empty_chunk, sizeof empty_chunk, dst, 10, NULL),
                 HFG_ECODEC);
  }
  hfg_err_clear(&err);
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_LZ4, empty_chunk, sizeof empty_chunk, dst, 10, &err),
               HFG_ECODEC);
  CHECK(strstr(err.msg, "yields no bytes") != NULL);
  /* a frame whose header claims a huge content size is refused, not trusted */
  uint8_t frame[64];
  size_t fl = ZSTD_compress(frame, sizeof frame, "abc", 3, 1);
  REQUIRE(!ZSTD_isError(fl));
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_ZSTD_HADOOP, frame, fl, dst, 2, NULL), HFG_ECODEC);
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_ZSTD_HADOOP, frame, fl, dst, 3, NULL), 0);
  /* trailing empty segments (as HBase writes after big blocks) are accepted */
  const uint8_t lz[] = {0, 0, 0, 0, 0, 0, 0, 0};
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_LZ4, lz, sizeof lz, NULL, 0, NULL), 0);
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_LZ4, lz, 6, NULL, 0, NULL), HFG_ECODEC);
  CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_LZ4, NULL, 0, NULL, 0, NULL), HFG_ECODEC);
}

/* ---------- allocation ---------- */

/* Fails the 1st, 2nd, ... allocation of hfg_compressor_new + compress until one
 * run sees no failure: every failure is HFG_ENOMEM or NULL, out is untouched,
 * and ASan sees no leak. */
TEST(alloc_failure_compress) {
  uint8_t *kv = kv_bytes(300 * 1024);
  for (int i = 0; i < N_SUBJECTS; i++) {
    int done = 0;
    for (long n = 1; n < 10000 && !done; n++) {
      hfg_buf out = HFG_BUF_INIT;
      hfg_buf_append(&out, "xyz", 3);
      hfg_fault_alloc_arm(n);
      hfg_codec c;
      hfg_compressor *z = subject_new(i, &c);
      int rc = z ? hfg_compressor_compress(z, kv, 300 * 1024, &out, NULL) : HFG_ENOMEM;
      int fired = hfg_fault_alloc_fired();
      hfg_fault_alloc_arm(0);
      if (!fired) {
        CHECK_EQ_INT(rc, 0);
        uint8_t *back = malloc(300 * 1024);
        CHECK_EQ_INT(hfg_codec_decompress(c, out.p + 3, out.len - 3, back, 300 * 1024, NULL), 0);
        free(back);
        done = 1;
      } else {
        CHECK(rc == HFG_ENOMEM);
        if (z) CHECK_EQ_INT(out.len, 3);
      }
      hfg_compressor_free(z);
      hfg_buf_free(&out);
    }
    CHECK(done);
  }
  free(kv);
}

TEST(alloc_failure_decompress) {
  uint8_t *kv = kv_bytes(20000);
  uint8_t *back = malloc(20000);
  for (int i = 0; i < N_SUBJECTS; i++) {
    hfg_codec c;
    hfg_compressor *z = subject_new(i, &c);
    hfg_buf out = HFG_BUF_INIT;
    REQUIRE(hfg_compressor_compress(z, kv, 20000, &out, NULL) == 0);
    hfg_compressor_free(z);
    int done = 0;
    for (long n = 1; n < 1000 && !done; n++) {
      hfg_fault_alloc_arm(n);
      int rc = hfg_codec_decompress(c, out.p, out.len, back, 20000, NULL);
      int fired = hfg_fault_alloc_fired();
      hfg_fault_alloc_arm(0);
      if (fired) {
        CHECK_EQ_INT(rc, HFG_ENOMEM);
      } else {
        CHECK_EQ_INT(rc, 0);
        CHECK_MEM(back, kv, 20000);
        done = 1;
      }
    }
    CHECK(done);
    hfg_buf_free(&out);
  }
  free(back);
  free(kv);
}

/* After the first block, compressing a same-sized block into a buffer with room
 * allocates nothing through util/alloc.h (contexts are reused). */
TEST(steady_state_allocates_nothing) {
  uint8_t *kv = kv_bytes(2 * 65536);
  for (int i = 0; i < N_SUBJECTS; i++) {
    hfg_codec c;
    hfg_compressor *z = subject_new(i, &c);
    hfg_buf out = HFG_BUF_INIT;
    REQUIRE(hfg_compressor_compress(z, kv, 65536, &out, NULL) == 0);
    REQUIRE(hfg_buf_reserve(&out, 4 * 65536) == 0);
    out.len = 0;
    hfg_fault_alloc_arm(1);
    int rc = hfg_compressor_compress(z, kv + 65536, 65536, &out, NULL);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (fired) fprintf(stderr, "  %s allocated in steady state\n", subject_name(i));
    CHECK(!fired);
    CHECK_EQ_INT(rc, 0);
    hfg_buf_free(&out);
    hfg_compressor_free(z);
  }
  free(kv);
}
