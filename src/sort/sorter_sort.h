/*
 * The sorter's in-memory sort (sorter.c): index items (a record's first 8 key
 * bytes and the record) in (key, sequence number) order, by an MSD radix sort
 * on the prefix finished by comparisons.
 */
#ifndef HFG_PIPELINE_SORTER_SORT_H
#define HFG_PIPELINE_SORTER_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sort/sorter.h"

typedef struct item {
  uint64_t prefix; /* first 8 key bytes, big-endian, zero padded */
  uint8_t *rec;
} item;

/* Order: key (unsigned bytes, shorter first), then sequence number. */
static inline int hfg_rec_cmp(const uint8_t *a, const uint8_t *b) {
  size_t al = hfg_rec_klen(a), bl = hfg_rec_klen(b);
  size_t n = al < bl ? al : bl;
  int r = memcmp(a + 6, b + 6, n);
  if (r) return r;
  if (al != bl) return al < bl ? -1 : 1;
  uint64_t sa = hfg_rec_seq(a), sb = hfg_rec_seq(b);
  return sa < sb ? -1 : sa > sb;
}

/* The same order for records whose first 8 key bytes (hfg_be_prefix8) are
 * pa and pb: those decide when they differ (zero padding only makes ties),
 * the records when they do not. Sign only. */
static inline int hfg_rec_cmp_prefixed(uint64_t pa, const uint8_t *a, uint64_t pb,
                                       const uint8_t *b) {
  if (pa != pb) return pa < pb ? -1 : 1;
  return hfg_rec_cmp(a, b);
}

/* Sorts v[0, n) by (key, sequence number); a no-op on items already in order. */
void hfg_sort_items(item *v, size_t n);

#endif
