/*
 * Reading one HFile block (format-specs/reader-checks.md, "Blocks"): the
 * 33-byte header of HFileBlock.java (Header.*_INDEX constants), the sanity
 * rules of HFileBlock.readBlockDataInternal / sanityCheckUncompressed, the
 * chunked checksums of ChecksumUtil.validateChecksum, and decompression of the
 * payload with the file's codec (never the header, never the checksums).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "format/codec.h"
#include "read/rd.h"
#include "read/rd_enc.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/crc.h"

static const char *const MAGIC[HFG_BLOCK_TYPE_COUNT_] = {
    "DATABLK*", "DATABLKE", "IDXLEAF2", "BLMFBLK2", "METABLKc",
    "IDXINTE2", "IDXROOT2", "FILEINF2", "BLMFMET2", "DFBLMET2",
};
static const char *const NAME[HFG_BLOCK_TYPE_COUNT_] = {
    "DATA",      "ENCODED_DATA",       "LEAF_INDEX",
    "BLOOM_CHUNK", "META",             "INTERMEDIATE_INDEX",
    "ROOT_INDEX", "FILE_INFO",         "GENERAL_BLOOM_META",
    "DELETE_FAMILY_BLOOM_META",
};

const char *hfg_block_type_name(hfg_block_type t) {
  return (unsigned)t < HFG_BLOCK_TYPE_COUNT_ ? NAME[t] : "UNKNOWN";
}

const char *hfg_block_type_magic(hfg_block_type t) {
  return (unsigned)t < HFG_BLOCK_TYPE_COUNT_ ? MAGIC[t] : "????????";
}

const char *rd_block_magic_str(const uint8_t *m, char out[40]) {
  size_t at = 0;
  for (int i = 0; i < 8; i++) {
    if (m[i] >= 0x20 && m[i] <= 0x7e && m[i] != '\\') {
      out[at++] = (char)m[i];
    } else {
      snprintf(out + at, 5, "\\x%02x", m[i]);
      at += 4;
    }
  }
  out[at] = '\0';
  return out;
}

/* Largest raw size a payload of n on-disk bytes can honestly decompress to,
 * so a hostile header cannot make us allocate gigabytes: deflate tops out
 * near 1032:1, raw LZ4 at 255:1, Snappy near 22:1 (both inside Hadoop block
 * framing), zstd at 32768:1 (RLE blocks); other codecs get a generous bound. */
uint64_t rd_max_uncompressed(int ordinal, uint64_t n) {
  uint64_t lim;
  switch (ordinal) {
    case RD_ORD_NONE: lim = n; break;
    case RD_ORD_GZ: lim = n * 1040 + 64; break;
    case 3: lim = n * 24 + 64; break;   /* SNAPPY */
    case 4: lim = n * 256 + 64; break;  /* LZ4 */
    case 6: lim = n * 32768 + (1u << 20); break; /* ZSTD */
    default: lim = n * 65536 + (1u << 20); break;
  }
  return lim > INT32_MAX ? INT32_MAX : lim;
}

int rd_block_header(hfg_reader *r, uint64_t offset, uint64_t limit, hfg_block_info *info) {
  hfg_err *e = &r->err;
  if (limit > r->size) limit = r->size;
  if (offset > limit || limit - offset < RD_HDR)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 ": header (33 bytes) runs past offset %" PRIu64,
                       offset, limit);
  const uint8_t *h = r->map + offset;
  int type = -1;
  for (int t = 0; t < HFG_BLOCK_TYPE_COUNT_; t++)
    if (memcmp(h, MAGIC[t], 8) == 0) type = t;
  if (type < 0) {
    char m[40];
    return hfg_err_set(e, HFG_ECORRUPT, "block at offset %" PRIu64 ": unknown block magic \"%s\"",
                       offset, rd_block_magic_str(h, m));
  }
  const char *mg = MAGIC[type];
  int32_t odsw = (int32_t)hfg_get_be32(h + 8);
  int32_t usz = (int32_t)hfg_get_be32(h + 12);
  int64_t prev = (int64_t)hfg_get_be64(h + 16);
  uint8_t ctype = h[24];
  int32_t bpc = (int32_t)hfg_get_be32(h + 25);
  int32_t oddwh = (int32_t)hfg_get_be32(h + 29);
  if (odsw < 0)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): negative onDiskSizeWithoutHeader %" PRId32,
                       offset, mg, odsw);
  if (usz < 0)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): negative uncompressedSizeWithoutHeader %" PRId32,
                       offset, mg, usz);
  if (oddwh < (int32_t)RD_HDR || oddwh - (int32_t)RD_HDR > odsw)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): onDiskDataSizeWithHeader %" PRId32
                       " outside [33, 33 + onDiskSizeWithoutHeader %" PRId32 "]",
                       offset, mg, oddwh, odsw);
  if (ctype > HFG_CHECKSUM_CRC32C)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): unknown checksum type %u", offset, mg,
                       ctype);
  if (bpc < 0 || (bpc == 0 && ctype != HFG_CHECKSUM_NULL))
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): bytesPerChecksum %" PRId32
                       " invalid for checksum type %u",
                       offset, mg, bpc, ctype);
  /* ChecksumUtil.numBytes: 4 bytes per bytesPerChecksum chunk of header +
   * on-disk payload; HFileBlock.totalChecksumBytes is 0 when bpc is 0. */
  uint64_t chunks = bpc ? ((uint64_t)oddwh + (uint64_t)bpc - 1) / (uint64_t)bpc : 0;
  uint64_t cbytes = chunks * 4;
  if ((uint64_t)oddwh + cbytes != (uint64_t)odsw + RD_HDR)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): onDiskSizeWithoutHeader %" PRId32
                       " != on-disk payload %" PRId32 " + %" PRIu64 " checksum bytes",
                       offset, mg, odsw, oddwh - (int32_t)RD_HDR, cbytes);
  uint64_t total = RD_HDR + (uint64_t)odsw;
  if (total > limit - offset)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): on-disk size %" PRIu64
                       " runs past offset %" PRIu64,
                       offset, mg, total, limit);
  uint64_t payload = (uint64_t)oddwh - RD_HDR;
  int ord = r->trailer.compression;
  if (ord == RD_ORD_NONE && (uint64_t)usz != payload)
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): uncompressed size %" PRId32
                       " != on-disk payload %" PRIu64 " in an uncompressed file",
                       offset, mg, usz, payload);
  if ((uint64_t)usz > rd_max_uncompressed(ord, payload))
    return hfg_err_set(e, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): uncompressed size %" PRId32
                       " impossible for %" PRIu64 " compressed bytes",
                       offset, mg, usz, payload);
  info->offset = offset;
  info->type = (hfg_block_type)type;
  info->on_disk_size_without_header = (uint32_t)odsw;
  info->uncompressed_size = (uint32_t)usz;
  info->prev_block_offset = prev;
  info->checksum_type = ctype;
  info->bytes_per_checksum = (uint32_t)bpc;
  info->on_disk_data_size_with_header = (uint32_t)oddwh;
  info->on_disk_size_with_header = total;
  info->checksum_bytes = (uint32_t)cbytes;
  return 0;
}

static int check_sums(hfg_reader *r, const hfg_block_info *in) {
  if (in->checksum_type == HFG_CHECKSUM_NULL) return 0;
  const uint8_t *b = r->map + in->offset;
  uint32_t d = in->on_disk_data_size_with_header, bpc = in->bytes_per_checksum;
  uint32_t nchunks = in->checksum_bytes / 4;
  for (uint32_t i = 0; i < nchunks; i++) {
    uint32_t start = i * bpc;
    uint32_t n = d - start < bpc ? d - start : bpc;
    uint32_t got = in->checksum_type == HFG_CHECKSUM_CRC32C ? hfg_crc32c(0, b + start, n)
                                                            : hfg_crc32(0, b + start, n);
    uint32_t want = hfg_get_be32(b + d + 4 * i);
    if (got != want)
      return hfg_err_set(&r->err, HFG_ECHECKSUM,
                         "block at offset %" PRIu64 " (%s): %s checksum mismatch in chunk %" PRIu32
                         " of %" PRIu32 " (bytes %" PRIu32 "..%" PRIu32
                         " of the block; stored 0x%08" PRIx32 ", computed 0x%08" PRIx32 ")",
                         in->offset, MAGIC[in->type],
                         in->checksum_type == HFG_CHECKSUM_CRC32C ? "CRC32C" : "CRC32", i,
                         nchunks, start, start + n, want, got);
  }
  return 0;
}

void rd_block_release(rd_block *b) {
  if (!b) return;
  hfg_free(b->owned);
  hfg_buf_free(&b->decoded);
  memset(b, 0, sizeof *b);
}

static int read_block(hfg_reader *r, uint64_t offset, uint64_t limit, uint32_t expect_size,
                      int expect_type, rd_block *b);

/* An ENCODED_DATA block is handed out decoded: its 2-byte encoding id, then the
 * encoding's payload turned back into plain cells (rd_enc.h). */
int rd_block_read(hfg_reader *r, uint64_t offset, uint64_t limit, uint32_t expect_size,
                  int expect_type, rd_block *b) {
  int rc = read_block(r, offset, limit, expect_size, expect_type, b);
  if (rc || b->info.type != HFG_BLOCK_ENCODED_DATA) return rc;
  if (b->len < 2)
    return hfg_err_set(&r->err, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (DATABLKE): no data block encoding id", offset);
  rd_cell_flags f = {r->meta.includes_tags, r->meta.includes_mvcc, r->meta.decode_mvcc,
                     r->meta.tags_compressed};
  b->enc_id = hfg_get_be16(b->data);
  rc = rd_enc_decode(b->enc_id, b->data + 2, b->len - 2, &f, offset, &b->decoded,
                     &r->err);
  if (rc) return rc;
  b->data = b->decoded.p ? b->decoded.p : (const uint8_t *)"";
  b->len = b->decoded.len;
  return 0;
}

static int read_block(hfg_reader *r, uint64_t offset, uint64_t limit, uint32_t expect_size,
                      int expect_type, rd_block *b) {
  hfg_block_info in;
  int rc = rd_block_header(r, offset, limit, &in);
  if (rc) return rc;
  if (expect_type >= 0 && in.type != (hfg_block_type)expect_type)
    return hfg_err_set(&r->err, HFG_ECORRUPT,
                       "block at offset %" PRIu64 ": expected a %s block (%s), found %s", offset,
                       NAME[expect_type], MAGIC[expect_type], MAGIC[in.type]);
  if (expect_size && in.on_disk_size_with_header != expect_size)
    return hfg_err_set(&r->err, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (%s): on-disk size %" PRIu64
                       " != %" PRIu32 " recorded by its index entry",
                       offset, MAGIC[in.type], in.on_disk_size_with_header, expect_size);
  if (r->verify_checksums && (rc = check_sums(r, &in))) return rc;
  const uint8_t *src = r->map + offset + RD_HDR;
  size_t n = in.on_disk_data_size_with_header - RD_HDR;
  b->info = in;
  if (r->trailer.compression == RD_ORD_NONE) {
    b->data = src;
    b->len = n;
    return 0;
  }
  b->data = NULL;
  b->len = 0;
  size_t u = in.uncompressed_size;
  if (u == 0) {
    /* HBase reads nothing when the raw size is 0, whatever the payload. */
    b->data = (const uint8_t *)"";
    return 0;
  }
  if (b->owned_cap < u) {
    uint8_t *p = hfg_realloc(b->owned, u);
    if (!p) return hfg_err_set(&r->err, HFG_ENOMEM, "out of memory for a %zu-byte block", u);
    b->owned = p;
    b->owned_cap = u;
  }
  hfg_err ce;
  hfg_err_clear(&ce);
  rc = hfg_codec_decompress_ordinal(r->trailer.compression, src, n, b->owned, u, &ce);
  if (rc)
    return hfg_err_set(&r->err, (rc == HFG_ENOMEM || rc == HFG_EUNSUPPORTED) ? rc : HFG_ECODEC,
                       "block at offset %" PRIu64 " (%s): %s payload does not decompress to %zu "
                       "bytes: %s",
                       offset, MAGIC[in.type],
                       hfg_compression_name(r->trailer.compression)
                           ? hfg_compression_name(r->trailer.compression)
                           : "?",
                       u, ce.msg[0] ? ce.msg : hfg_strerror(rc));
  b->data = b->owned;
  b->len = u;
  return 0;
}

/* ---- public block calls ---- */

int hfg_reader_block_header(hfg_reader *r, uint64_t offset, hfg_block_info *out) {
  RD_ENTER(r);
  return rd_block_header(r, offset, r->trailer_off, out);
}

int hfg_reader_read_block(hfg_reader *r, uint64_t offset, hfg_block_info *info,
                          const uint8_t **payload, size_t *len) {
  RD_ENTER(r);
  int rc = rd_block_read(r, offset, r->trailer_off, 0, -1, &r->scratch);
  if (rc) return rc;
  if (info) *info = r->scratch.info;
  *payload = r->scratch.data;
  *len = r->scratch.len;
  return 0;
}
