/*
 * Region split points and the partitioner. Region i holds the rows r with
 * split[i-1] <= r < split[i] (region 0 starts at the empty key, the last region
 * ends at the empty key): a row equal to a split key belongs to the region
 * that starts with it, as in HBase.
 */
#ifndef HFG_PIPELINE_SPLITS_H
#define HFG_PIPELINE_SPLITS_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/err.h"

typedef struct hfg_splits {
  uint8_t **key;
  size_t *len;
  uint64_t *prefix; /* each key's first 8 bytes, big-endian, zero padded */
  size_t n; /* number of split keys; regions = n + 1 */
  /* by a row's first byte b (kept by hfg_splits_add, NULL while n == 0):
   * by_first[b].le keys are <= every row starting with b (those whose first
   * byte is below b, and the one-byte key b itself), and the answer lies
   * among the next by_first[b].rest keys (the longer ones starting with b) */
  struct hfg_splits_first {
    uint32_t le, rest;
  } *by_first;
} hfg_splits;

/* Reads a splits file: one key per line in the escaped form of
 * src/util/escape.h; blank lines and lines starting with '#' (comments) are
 * ignored, so a key starting with '#' is written \x23. A line ending in a space
 * or TAB is refused (write \x20 / \x09 when the key really ends so). Keys must
 * be strictly ascending (unsigned bytes); errors name the file and line. A file
 * without keys loads as n == 0 (one region): callers may warn. */
int hfg_splits_load(const char *path, hfg_splits *out, hfg_err *err);

/* Adds one key (copied); used for generated splits. Must keep ascending order. */
int hfg_splits_add(hfg_splits *s, const uint8_t *key, size_t len);

/* Appends the splits-file line (without the newline) that reads back as
 * key: the escaped form, with a leading '#' and a trailing space or TAB
 * escaped too. 0 or HFG_ENOMEM. */
int hfg_splits_line(hfg_buf *out, const uint8_t *key, size_t len);

/* Region index of a row: the number of split keys <= row. */
size_t hfg_splits_region(const hfg_splits *s, const uint8_t *row, size_t len);

void hfg_splits_free(hfg_splits *s);

#endif
