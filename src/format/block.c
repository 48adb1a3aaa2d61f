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
