/*
 * Private glue between the codec_*.c files (format-specs/codecs.md). Nothing
 * here is part of the library's API; tests include it to reach the zlib GZ
 * back end directly.
 */
#ifndef HFG_FORMAT_CODEC_INTERNAL_H
#define HFG_FORMAT_CODEC_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "format/codec.h"

/* Hadoop's default codec buffer size (io.compression.codec.{snappy,lz4}.buffersize,
 * hbase.io.compress.zstd.buffersize), from which each MAX_INPUT_SIZE derives. */
#define HFG_HADOOP_BUFFER_SIZE (256 * 1024)

/* Reports an error into err when the caller passed one; returns code. */
int hfg_codec_fail(hfg_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;
typedef struct hfg_gz_enc hfg_gz_enc;

struct hfg_compressor {
  hfg_codec codec;
  int level;                /* effective level (after defaults and clamping) */
  hfg_gz_enc *gz;           /* GZ */
  struct ZSTD_CCtx_s *zc;   /* ZSTD_HADOOP, ZSTD_HBASE */
  void *lz4_state;          /* LZ4: LZ4_sizeofState() bytes */
};

/* ---- codec_gz.c: one gzip member per block ---- */
/* level on zlib's 1..9 scale; use_isal: ISA-L igzip for blocks of 4 KiB and
 * more (NULL when built without ISA-L). */
hfg_gz_enc *hfg_gz_enc_new(int level, int use_isal);
void hfg_gz_enc_free(hfg_gz_enc *g);
const char *hfg_gz_enc_impl(const hfg_gz_enc *g);
int hfg_gz_compress(hfg_gz_enc *g, const uint8_t *src, size_t n, hfg_buf *out, hfg_err *err);
int hfg_gz_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len, hfg_err *err);

/* Test hook: a GZ compressor on the zlib back end (HBase's bytes), as
 * hfg_compressor_new(HFG_CODEC_GZ, level) without HFG_GZ_LEVEL_ISAL. */
hfg_compressor *hfg_compressor_new_gz_zlib(int level);

/* ---- codec_zstd.c: contexts (allocating through util/alloc.h) and frames ---- */
struct ZSTD_CCtx_s *hfg_zstd_cctx_new(int level);
void hfg_zstd_cctx_free(struct ZSTD_CCtx_s *c);
struct ZSTD_DCtx_s *hfg_zstd_dctx_new(void);
void hfg_zstd_dctx_free(struct ZSTD_DCtx_s *d);
size_t hfg_zstd_bound(size_t n);
/* One frame of src[0..n) into dst (cap >= hfg_zstd_bound(n)); *out_len gets its size. */
int hfg_zstd_frame_compress(struct ZSTD_CCtx_s *c, const uint8_t *src, size_t n, uint8_t *dst,
                            size_t cap, size_t *out_len, hfg_err *err);
/* Decodes every frame in src into dst[0..cap); fails if they yield more than cap.
 * `what` names the codec in messages. */
int hfg_zstd_frames_decompress(struct ZSTD_DCtx_s *d, const uint8_t *src, size_t n,
                               uint8_t *dst, size_t cap, size_t *out_len, const char *what,
                               hfg_err *err);
int hfg_zstd_plain_compress(struct ZSTD_CCtx_s *c, const uint8_t *src, size_t n, hfg_buf *out,
                            hfg_err *err);
int hfg_zstd_plain_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len,
                              hfg_err *err);

/* ---- codec_block.c: Hadoop BlockCompressorStream framing ---- */
int hfg_block_compress(hfg_compressor *z, const uint8_t *src, size_t n, hfg_buf *out,
                       hfg_err *err);
int hfg_block_decompress(hfg_codec c, const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len,
                         hfg_err *err);

#endif
