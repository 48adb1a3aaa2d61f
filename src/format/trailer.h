/*
 * The fixed file trailer of HFile v3 (format-specs/trailer.md): exactly 4096
 * bytes at the end of the file: magic "TRABLK\"$", a varint-delimited
 * FileTrailerProto, zero padding, and the version int 0x03000003 (minor 3,
 * major 3) in the last four bytes.
 */
#ifndef HFG_FORMAT_TRAILER_H
#define HFG_FORMAT_TRAILER_H

#include <stdint.h>

#include "util/buf.h"

#define HFG_TRAILER_SIZE 4096
#define HFG_MAJOR_VERSION 3
#define HFG_MINOR_VERSION 3
#define HFG_COMPARATOR_NAME "org.apache.hadoop.hbase.KeyValue$KVComparator"

typedef struct hfg_trailer {
  uint64_t file_info_offset;
  uint64_t load_on_open_offset;
  uint64_t uncompressed_data_index_size;
  uint64_t total_uncompressed_bytes;
  uint32_t data_index_count;
  uint32_t meta_index_count;
  uint64_t entry_count;
  uint32_t num_data_index_levels;
  int64_t first_data_block_offset;  /* -1 when the file has no data block */
  int64_t last_data_block_offset;   /* start of the last data block, or -1 */
  uint32_t compression_codec;       /* Compression.Algorithm ordinal */
} hfg_trailer;

/* Appends the 4096 trailer bytes. HFG_ETOOBIG if the proto does not fit. */
int hfg_trailer_encode(const hfg_trailer *t, hfg_buf *out);

#endif
