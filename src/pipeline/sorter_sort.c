/* The sorter's in-memory sort: see sorter_sort.h. */
#include "pipeline/sorter_sort.h"

#include <stdlib.h>

#include "util/alloc.h"

static int item_cmp(const void *x, const void *y) {
  const item *a = x, *b = y;
  return hfg_rec_cmp_prefixed(a->prefix, a->rec, b->prefix, b->rec);
}

static void insertion_sort(item *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    item x = v[i];
    size_t k = i;
    while (k > 0 && item_cmp(&v[k - 1], &x) > 0) {
      v[k] = v[k - 1];
      k--;
    }
    v[k] = x;
  }
}

/* MSD radix sort on the 8-byte key prefix, one byte per level (about 4x
 * qsort on rowkeys, research/limits.md); groups that share the whole prefix,
 * and small groups, are finished with the full comparison. The items are in
 * v; each level scatters them into the other buffer, tmp, and recurses with
 * the two swapped, so no level copies back: where the sorted items end up is
 * said by out (0: v, 1: tmp), and a group finished in tmp is copied to v
 * once, at its leaf. Both buffers hold n items. */
static void radix_sort(item *v, item *tmp, size_t n, int byte, int in_tmp) {
  if (n < 48 || byte == 8) {
    if (n < 48) insertion_sort(v, n);
    else qsort(v, n, sizeof *v, item_cmp);
    if (in_tmp) memcpy(tmp, v, n * sizeof *v); /* tmp is the caller's v here */
    return;
  }
  const int shift = 56 - 8 * byte;
  size_t count[256] = {0};
  for (size_t i = 0; i < n; i++) count[(v[i].prefix >> shift) & 0xff]++;
  if (count[(v[0].prefix >> shift) & 0xff] == n) { /* one bucket: next byte */
    radix_sort(v, tmp, n, byte + 1, in_tmp);
    return;
  }
  size_t pos[256], off = 0;
  for (int b = 0; b < 256; b++) {
    pos[b] = off;
    off += count[b];
  }
  for (size_t i = 0; i < n; i++) tmp[pos[(v[i].prefix >> shift) & 0xff]++] = v[i];
  /* the groups are in tmp now; each ends up in the original v (v if !in_tmp) */
  off = 0;
  for (int b = 0; b < 256; b++) {
    if (count[b] > 1) {
      radix_sort(tmp + off, v + off, count[b], byte + 1, !in_tmp);
    } else if (count[b] == 1 && !in_tmp) {
      v[off] = tmp[off];
    }
    off += count[b];
  }
}

/* Input that arrives sorted (auto-increment ids under a salt) needs no sort.
 * The radix scratch is budgeted with the index (hfg_sorter_add counts each
 * index byte twice); qsort is the fallback when it cannot be had. */
void hfg_sort_items(item *v, size_t n) {
  size_t i = 1;
  while (i < n && item_cmp(&v[i - 1], &v[i]) <= 0) i++;
  if (i >= n) return;
  item *tmp = hfg_malloc(n * sizeof *tmp);
  if (!tmp) {
    qsort(v, n, sizeof *v, item_cmp);
    return;
  }
  /* the bytes every prefix shares (a salt, its separator) need no level */
  uint64_t diff = 0;
  for (size_t k = 1; k < n; k++) diff |= v[k].prefix ^ v[0].prefix;
  radix_sort(v, tmp, n, diff ? __builtin_clzll(diff) / 8 : 8, 0);
  hfg_free(tmp);
}

