/*
 * HFile v2/v3 blocks with HBase checksums (format-specs/block.md):
 *
 *   header(33) = magic[8] onDiskSizeWithoutHeader:be32 uncompressedSizeWithoutHeader:be32
 *                prevBlockOffset:be64 checksumType:u8 bytesPerChecksum:be32
 *                onDiskDataSizeWithHeader:be32
 *   then the payload through the file's codec, then one be32 checksum per
 *   bytesPerChecksum chunk of (header + on-disk payload).
 *
 * Every block type, not only DATA, goes through the codec; only the trailer
 * does not. The encoder is per-writer (per-thread) state.
 */
#ifndef HFG_FORMAT_BLOCK_H
#define HFG_FORMAT_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "format/codec.h"
#include "hfilegen/types.h"
#include "util/buf.h"
#include "util/err.h"

#define HFG_BLOCK_HEADER_SIZE 33
#define HFG_CHECKSUM_SIZE 4

typedef enum hfg_block_type {
  HFG_BT_DATA = 0,
  HFG_BT_LEAF_INDEX,
  HFG_BT_BLOOM_CHUNK,
  HFG_BT_META,
  HFG_BT_INTERMEDIATE_INDEX,
  HFG_BT_ROOT_INDEX,
  HFG_BT_FILE_INFO,
  HFG_BT_GENERAL_BLOOM_META,
  HFG_BT_DELETE_FAMILY_BLOOM_META,
  HFG_BT_ENCODED_DATA, /* DATABLKE: a data block in the file's data block encoding */
  HFG_BT_COUNT_
} hfg_block_type;

/* 8-byte magics, indexed by hfg_block_type (BlockType.java). */
extern const char HFG_BLOCK_MAGIC[HFG_BT_COUNT_][8];
extern const char HFG_TRAILER_MAGIC[8];

typedef struct hfg_block_info {
  uint32_t on_disk_size_with_header;   /* what index entries record */
  uint32_t uncompressed_size;          /* payload bytes before the codec */
} hfg_block_info;

typedef struct hfg_block_encoder hfg_block_encoder;

/* checksum must be CRC32 or CRC32C; bytes_per_checksum > 0. NULL on ENOMEM. */
hfg_block_encoder *hfg_block_encoder_new(hfg_codec codec, int level, hfg_checksum_type checksum,
                                         uint32_t bytes_per_checksum);

/* Appends the complete on-disk block (header, codec output, checksums) for
 * payload[0..n) to out, and fills info. prev_offset is the file offset of the
 * previous block of the same type, or -1. */
int hfg_block_encode(hfg_block_encoder *e, hfg_block_type type, const uint8_t *payload, size_t n,
                     int64_t prev_offset, hfg_buf *out, hfg_block_info *info, hfg_err *err);

void hfg_block_encoder_free(hfg_block_encoder *e);

/* Sets the prevBlockOffset of an encoded block (hfg_block_encode's output,
 * block[0..len)) and corrects the checksum that covers it: the bytes then
 * equal those of encoding the payload with this prev_offset. Lets a block be
 * compressed and checksummed before its place in the file is known. */
void hfg_block_set_prev_offset(uint8_t *block, size_t len, int64_t prev_offset);

/* An upper bound of the on-disk size of an n-byte payload's block under any
 * codec, with bpc bytes per checksum. */
uint64_t hfg_block_size_bound(uint64_t n, uint32_t bpc);

/* Number of checksum bytes for `data_len` bytes of header + on-disk payload. */
static inline size_t hfg_checksum_bytes(size_t data_len, uint32_t bpc) {
  return HFG_CHECKSUM_SIZE * ((data_len + bpc - 1) / bpc);
}

#endif
