/* Fixed file trailer: format-specs/trailer.md. */
#include "format/trailer.h"

#include "format/block.h"
#include "hfile.pb-c.h"
#include "util/coding.h"

int hfg_trailer_encode(const hfg_trailer *t, hfg_buf *out) {
  /* FixedFileTrailer.toProtobuf sets fields 1..12 unconditionally. */
  Hbase__Pb__FileTrailerProto pb = HBASE__PB__FILE_TRAILER_PROTO__INIT;
  pb.has_file_info_offset = pb.has_load_on_open_data_offset = 1;
  pb.has_uncompressed_data_index_size = pb.has_total_uncompressed_bytes = 1;
  pb.has_data_index_count = pb.has_meta_index_count = pb.has_entry_count = 1;
  pb.has_num_data_index_levels = pb.has_first_data_block_offset = 1;
  pb.has_last_data_block_offset = pb.has_compression_codec = 1;
  pb.file_info_offset = t->file_info_offset;
  pb.load_on_open_data_offset = t->load_on_open_offset;
  pb.uncompressed_data_index_size = t->uncompressed_data_index_size;
  pb.total_uncompressed_bytes = t->total_uncompressed_bytes;
  pb.data_index_count = t->data_index_count;
  pb.meta_index_count = t->meta_index_count;
  pb.entry_count = t->entry_count;
  pb.num_data_index_levels = t->num_data_index_levels;
  pb.first_data_block_offset = (uint64_t)t->first_data_block_offset;
  pb.last_data_block_offset = (uint64_t)t->last_data_block_offset;
  pb.comparator_class_name = (char *)HFG_COMPARATOR_NAME;
  pb.compression_codec = t->compression_codec;

  size_t len = hbase__pb__file_trailer_proto__get_packed_size(&pb);
  if (8 + hfg_varint_size(len) + len > HFG_TRAILER_SIZE - 4) return HFG_ETOOBIG;
  if (hfg_buf_reserve(out, HFG_TRAILER_SIZE)) return HFG_ENOMEM;
  uint8_t *p = out->p + out->len;
  memset(p, 0, HFG_TRAILER_SIZE);
  memcpy(p, HFG_TRAILER_MAGIC, 8);
  size_t n = 8 + hfg_put_varint(p + 8, len);
  hbase__pb__file_trailer_proto__pack(&pb, p + n);
  hfg_put_be32(p + HFG_TRAILER_SIZE - 4,
               (uint32_t)HFG_MINOR_VERSION << 24 | (HFG_MAJOR_VERSION & 0x00ffffff));
  out->len += HFG_TRAILER_SIZE;
  return 0;
}
