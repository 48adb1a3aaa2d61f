/*
 * Block compression in the exact on-disk framings HBase's codecs read
 * (format-specs/codecs.md):
 *   NONE         payload as is
 *   GZ           one RFC 1952 gzip member per block, header 1f 8b 08 00 00000000
 *                00 00 as HBase's own writer emits it; by default zlib raw deflate
 *                with HBase's parameters (HBase's exact bytes), or ISA-L igzip on
 *                request (HFG_GZ_LEVEL_ISAL: standard deflate, other bytes)
 *   SNAPPY, LZ4  Hadoop BlockCompressorStream framing: BE int32 raw length, then
 *                (BE int32 compressed length, raw snappy / LZ4 block) chunks of at
 *                most the codec's MAX_INPUT_SIZE raw bytes; a block larger than
 *                MAX_INPUT_SIZE ends with an empty segment 00 00 00 00, as HBase's
 *                finish() leaves it
 *   ZSTD_HADOOP  one plain zstd frame (Hadoop ZStandardCodec)
 *   ZSTD_HBASE   Hadoop block framing around zstd frames (hbase-compression-zstd)
 *
 * A compressor is per-thread state (reused deflate/zstd contexts); compress
 * appends one block's on-disk payload to `out`. Decompression needs the exact
 * raw length from the block header and fails unless exactly that many bytes
 * come out.
 */
#ifndef HFG_FORMAT_CODEC_H
#define HFG_FORMAT_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/types.h"
#include "util/buf.h"
#include "util/err.h"

/* Compression.Algorithm ordinal written in trailer field 12 (GZ=1, NONE=2,
 * SNAPPY=3, LZ4=4, ZSTD=6 for both framings); HFG_EINVAL if c is not a codec. */
int hfg_codec_hbase_ordinal(hfg_codec c);

typedef struct hfg_compressor hfg_compressor;

/* GZ back end flag, or'ed into a GZ level: ISA-L igzip instead of zlib for
 * blocks of 4 KiB and more (valid GZ, not HBase's bytes). With no level bits
 * (HFG_GZ_LEVEL_ISAL alone) the level is HFG_GZ_ISAL_DEFAULT_LEVEL. The writer
 * folds hfg_writer_options.gz_impl in here; GZ levels proper stay below 0x100. */
#define HFG_GZ_LEVEL_ISAL 0x100
#define HFG_GZ_ISAL_DEFAULT_LEVEL 1
/* 1 when the library was built with ISA-L (HFG_GZ_LEVEL_ISAL works). */
int hfg_gz_isal_available(void);

/* level < 0 picks the codec's default level (hfg_codec_default_level). Levels
 * outside a codec's range are clamped: GZ 1..9 (zlib's scale; without
 * HFG_GZ_LEVEL_ISAL zlib deflates exactly as HBase does, byte for byte; with it
 * igzip maps 1 -> igzip 1, 2..5 -> 2, 6..9 -> 3), ZSTD 1..ZSTD_maxCLevel(). NONE,
 * SNAPPY and LZ4 have no levels (Hadoop's Lz4Codec uses the fast LZ4 compressor,
 * not LZ4HC, by default). Returns NULL on ENOMEM, when c is not a codec, or for
 * HFG_GZ_LEVEL_ISAL in a build without ISA-L.
 * All contexts are allocated here (zstd's workspace on the first block), so
 * steady-state compression allocates nothing but growth of `out`. */
hfg_compressor *hfg_compressor_new(hfg_codec c, int level);
/* Appends the compressed on-disk form of src[0..n) to out. On failure out is
 * left as it was. HFG_ETOOBIG when n exceeds INT32_MAX (HBase block sizes are
 * Java ints), HFG_ENOMEM, or HFG_ECODEC from the codec library. err may be NULL. */
int hfg_compressor_compress(hfg_compressor *z, const uint8_t *src, size_t n, hfg_buf *out,
                            hfg_err *err);
void hfg_compressor_free(hfg_compressor *z);

/* The compressor's effective level (0 for codecs without levels). */
int hfg_compressor_level(const hfg_compressor *z);
/* Name of the library doing the work, for inspect/bench output: "none",
 * "isa-l", "zlib", "snappy", "lz4", "zstd". */
const char *hfg_compressor_impl(const hfg_compressor *z);

/* Default level of a codec: GZ 6 (zlib's default, which HBase uses: Hadoop's
 * zlib.compress.level defaults to DEFAULT_COMPRESSION), ZSTD 3 (Hadoop's io.compression.codec.zstd.level default,
 * which HBase's hbase.io.compress.zstd.level falls back to), 0 otherwise. */
int hfg_codec_default_level(hfg_codec c);

/* MAX_INPUT_SIZE of a Hadoop block-framed codec with the default 256 KiB buffer:
 * the most raw bytes one compressed chunk covers. SNAPPY 218422, LZ4 261100,
 * ZSTD_HBASE 261120; 0 for the codecs that are not block framed. */
size_t hfg_codec_chunk_limit(hfg_codec c);

/* Decompresses an on-disk payload into dst, which has room for exactly raw_len
 * bytes. HFG_ECODEC with a message when the payload is malformed or does not
 * yield exactly raw_len bytes; every length inside the payload is checked
 * against the payload and against raw_len, so hostile input cannot write past
 * dst or read past src. Trailing empty gzip members / empty Hadoop segments
 * (which HBase itself appends to blocks over MAX_INPUT_SIZE) are accepted;
 * any other trailing bytes are an error. HFG_ENOMEM if a decoder context cannot
 * be allocated, HFG_ETOOBIG if n or raw_len exceeds INT32_MAX, HFG_EINVAL for
 * an unknown codec. dst/src may be NULL when raw_len/n is 0. err may be NULL. */
int hfg_codec_decompress(hfg_codec c, const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len,
                         hfg_err *err);

/* For readers: the codec of an HBase Compression.Algorithm ordinal. For ZSTD (6)
 * the framing is told apart by the payload (a zstd frame starts with the magic
 * 28 b5 2f fd; block framing starts with the BE raw length), so
 * hfg_codec_decompress_ordinal takes the payload. Ordinals of codecs hfilegen
 * does not implement (0 LZO, 5 BZIP2, 7 LZMA, 8 BROTLI) give HFG_EUNSUPPORTED
 * naming the codec; other values give HFG_ECORRUPT. */
int hfg_codec_decompress_ordinal(int ordinal, const uint8_t *src, size_t n, uint8_t *dst,
                                 size_t raw_len, hfg_err *err);

#endif
