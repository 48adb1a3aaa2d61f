/*
 * File info (FILEINF2 block payload): a map of byte keys to byte values,
 * serialized as "PBUF", a varint length, then FileInfoProto with the entries
 * in unsigned byte order of their keys (format-specs/fileinfo.md).
 *
 * Lifecycle: init → put* → encode → free. Putting an existing key replaces
 * its value.
 */
#ifndef HFG_FORMAT_FILEINFO_H
#define HFG_FORMAT_FILEINFO_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

typedef struct hfg_fileinfo_entry {
  uint8_t *key;
  size_t key_len;
  uint8_t *value;
  size_t value_len;
} hfg_fileinfo_entry;

typedef struct hfg_fileinfo {
  hfg_fileinfo_entry *e;
  size_t n, cap;
} hfg_fileinfo;

#define HFG_FILEINFO_INIT {NULL, 0, 0}

int hfg_fileinfo_put(hfg_fileinfo *fi, const char *key, const void *value, size_t len);
int hfg_fileinfo_put_i32(hfg_fileinfo *fi, const char *key, int32_t v);   /* Bytes.toBytes(int) */
int hfg_fileinfo_put_i64(hfg_fileinfo *fi, const char *key, int64_t v);   /* Bytes.toBytes(long) */
int hfg_fileinfo_put_bool(hfg_fileinfo *fi, const char *key, int v);      /* 0xff / 0x00 */
int hfg_fileinfo_encode(hfg_fileinfo *fi, hfg_buf *out);
void hfg_fileinfo_free(hfg_fileinfo *fi);

#endif
