/*
 * Block compression in the exact on-disk framings HBase's codecs read
 * (format-specs/codecs.md):
 *   NONE         payload as is
 *   GZ           one RFC 1952 gzip member per block (ISA-L igzip when built with
 *                ISA-L, zlib otherwise; both are standard gzip)
 *   SNAPPY, LZ4  Hadoop BlockCompressorStream framing: BE int32 raw length, then
 *                (BE int32 compressed length, raw snappy / LZ4 block) chunks of at
 *                most the codec's MAX_INPUT_SIZE raw bytes
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
 * SNAPPY=3, LZ4=4, ZSTD=6 for both framings). */
int hfg_codec_hbase_ordinal(hfg_codec c);

typedef struct hfg_compressor hfg_compressor;

/* level < 0 picks the codec's default (fast) level. Returns NULL on ENOMEM. */
hfg_compressor *hfg_compressor_new(hfg_codec c, int level);
/* Appends the compressed on-disk form of src[0..n) to out. */
int hfg_compressor_compress(hfg_compressor *z, const uint8_t *src, size_t n, hfg_buf *out,
                            hfg_err *err);
void hfg_compressor_free(hfg_compressor *z);

/* Decompresses an on-disk payload into dst, which has room for exactly raw_len
 * bytes. HFG_ECODEC with a message when the payload is malformed or does not
 * yield exactly raw_len bytes. */
int hfg_codec_decompress(hfg_codec c, const uint8_t *src, size_t n, uint8_t *dst, size_t raw_len,
                         hfg_err *err);

/* For readers: the codec of an HBase Compression.Algorithm ordinal. For ZSTD (6)
 * the framing is told apart by the payload (a zstd frame starts with the magic
 * 28 b5 2f fd; block framing starts with the BE raw length), so
 * hfg_codec_decompress_ordinal takes the payload. */
int hfg_codec_decompress_ordinal(int ordinal, const uint8_t *src, size_t n, uint8_t *dst,
                                 size_t raw_len, hfg_err *err);

#endif
