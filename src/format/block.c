/* Block header, compression and checksums: format-specs/block.md. */
#include "format/block.h"

#include "util/alloc.h"
#include "util/coding.h"
#include "util/crc.h"

const char HFG_BLOCK_MAGIC[HFG_BT_COUNT_][8] = {
    {'D', 'A', 'T', 'A', 'B', 'L', 'K', '*'}, {'I', 'D', 'X', 'L', 'E', 'A', 'F', '2'},
    {'B', 'L', 'M', 'F', 'B', 'L', 'K', '2'}, {'M', 'E', 'T', 'A', 'B', 'L', 'K', 'c'},
    {'I', 'D', 'X', 'I', 'N', 'T', 'E', '2'}, {'I', 'D', 'X', 'R', 'O', 'O', 'T', '2'},
    {'F', 'I', 'L', 'E', 'I', 'N', 'F', '2'}, {'B', 'L', 'M', 'F', 'M', 'E', 'T', '2'},
    {'D', 'F', 'B', 'L', 'M', 'E', 'T', '2'}, {'D', 'A', 'T', 'A', 'B', 'L', 'K', 'E'},
};
const char HFG_TRAILER_MAGIC[8] = {'T', 'R', 'A', 'B', 'L', 'K', '"', '$'};

struct hfg_block_encoder {
  hfg_codec codec;
  hfg_compressor *z;
  hfg_checksum_type checksum;
  uint32_t bpc;
};

hfg_block_encoder *hfg_block_encoder_new(hfg_codec codec, int level, hfg_checksum_type checksum,
                                         uint32_t bytes_per_checksum) {
  if (bytes_per_checksum == 0) return NULL;
  if (checksum != HFG_CHECKSUM_CRC32 && checksum != HFG_CHECKSUM_CRC32C) return NULL;
  hfg_block_encoder *e = hfg_calloc(1, sizeof *e);
  if (!e) return NULL;
  e->codec = codec;
  e->checksum = checksum;
  e->bpc = bytes_per_checksum;
  if (codec != HFG_CODEC_NONE) {
    e->z = hfg_compressor_new(codec, level);
    if (!e->z) {
      hfg_free(e);
      return NULL;
    }
  }
  return e;
}

void hfg_block_encoder_free(hfg_block_encoder *e) {
  if (!e) return;
  hfg_compressor_free(e->z);
  hfg_free(e);
}

int hfg_block_encode(hfg_block_encoder *e, hfg_block_type type, const uint8_t *payload, size_t n,
                     int64_t prev_offset, hfg_buf *out, hfg_block_info *info, hfg_err *err) {
  if (n > INT32_MAX)
    return hfg_err_set(err, HFG_ETOOBIG, "block payload of %zu bytes exceeds 2 GiB", n);
  size_t start = out->len;
  if (hfg_buf_reserve(out, HFG_BLOCK_HEADER_SIZE))
    return hfg_err_set(err, HFG_ENOMEM, "block buffer");
  out->len += HFG_BLOCK_HEADER_SIZE;
  if (e->codec == HFG_CODEC_NONE) {
    if (hfg_buf_append(out, payload, n)) {
      out->len = start;
      return hfg_err_set(err, HFG_ENOMEM, "block buffer");
    }
  } else {
    int rc = hfg_compressor_compress(e->z, payload, n, out, err);
    if (rc) {
      out->len = start;
      return rc;
    }
  }
  size_t data_len = out->len - start; /* header + on-disk payload */
  size_t ck_len = hfg_checksum_bytes(data_len, e->bpc);
  if (data_len + ck_len > INT32_MAX) {
    out->len = start;
    return hfg_err_set(err, HFG_ETOOBIG, "compressed block exceeds 2 GiB");
  }
  if (hfg_buf_reserve(out, ck_len)) {
    out->len = start;
    return hfg_err_set(err, HFG_ENOMEM, "block buffer");
  }
  uint8_t *h = out->p + start;
  memcpy(h, HFG_BLOCK_MAGIC[type], 8);
  hfg_put_be32(h + 8, (uint32_t)(data_len - HFG_BLOCK_HEADER_SIZE + ck_len));
  hfg_put_be32(h + 12, (uint32_t)n);
  hfg_put_be64(h + 16, (uint64_t)prev_offset);
  h[24] = (uint8_t)e->checksum;
  hfg_put_be32(h + 25, e->bpc);
  hfg_put_be32(h + 29, (uint32_t)data_len);
  /* ChecksumUtil.generateChecksums: one checksum per bpc-sized chunk of the
   * header and on-disk payload, stored big-endian right after them. */
  uint8_t *ck = out->p + out->len;
  for (size_t off = 0; off < data_len; off += e->bpc) {
    size_t k = data_len - off < e->bpc ? data_len - off : e->bpc;
    uint32_t v = e->checksum == HFG_CHECKSUM_CRC32C ? hfg_crc32c(0, h + off, k)
                                                    : hfg_crc32(0, h + off, k);
    hfg_put_be32(ck, v);
    ck += 4;
  }
  out->len += ck_len;
  info->on_disk_size_with_header = (uint32_t)(data_len + ck_len);
  info->uncompressed_size = (uint32_t)n;
  return 0;
}

void hfg_block_set_prev_offset(uint8_t *block, size_t len, int64_t prev_offset) {
  uint8_t *h = block;
  size_t data_len = hfg_get_be32(h + 29);
  uint32_t bpc = hfg_get_be32(h + 25);
  if (len < data_len + HFG_CHECKSUM_SIZE || data_len < HFG_BLOCK_HEADER_SIZE || bpc == 0) return;
  uint8_t d[8];
  hfg_put_be64(d, (uint64_t)prev_offset);
  for (int i = 0; i < 8; i++) d[i] ^= h[16 + i];
  hfg_put_be64(h + 16, (uint64_t)prev_offset);
  /* fix each checksum whose chunk holds part of bytes 16..23 (chunk 0 unless bpc < 24) */
  for (size_t c = 16 / bpc; c * bpc < 24 && c * bpc < data_len; c++) {
    size_t cs = c * bpc, ce = cs + bpc < data_len ? cs + bpc : data_len;
    size_t from = cs > 16 ? cs : 16, to = ce < 24 ? ce : 24;
    uint8_t *ck = block + data_len + HFG_CHECKSUM_SIZE * c;
    uint32_t old = hfg_get_be32(ck);
    const uint8_t *dp = d + (from - 16);
    uint32_t v = h[24] == HFG_CHECKSUM_CRC32C ? hfg_crc32c_patch(old, dp, to - from, ce - to)
                                              : hfg_crc32_patch(old, dp, to - from, ce - to);
    hfg_put_be32(ck, v);
  }
}

/* The codecs' worst cases stay under n + n/4 + 4 KiB: LZ4 n + n/255 + 16,
 * snappy 32 + n + n/6, zstd and deflate (stored blocks) a small fraction
 * over n, plus their framing (format-specs/codecs.md). */
uint64_t hfg_block_size_bound(uint64_t n, uint32_t bpc) {
  uint64_t data = HFG_BLOCK_HEADER_SIZE + n + n / 4 + 4096;
  return data + HFG_CHECKSUM_SIZE * (data / (bpc ? bpc : 1) + 1);
}
