/* The sorter's in-memory sort: see sorter_sort.h. */
#include "pipeline/sorter_sort.h"

#include <stdlib.h>

#include "util/alloc.h"

static int item_cmp(const void *x, const void *y) {
  const item *a = x, *b = y;
  if (a->prefix != b->prefix) return a->prefix < b->prefix ? -1 : 1;
  return hfg_rec_cmp(a->rec, b->rec);
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
 * and small groups, are finished with the full comparison. tmp holds n items. */
static void radix_sort(item *v, item *tmp, size_t n, int byte) {
  if (n < 48) {
    insertion_sort(v, n);
    return;
  }
  if (byte == 8) {
    qsort(v, n, sizeof *v, item_cmp);
    return;
  }
  const int shift = 56 - 8 * byte;
  size_t count[256] = {0};
  for (size_t i = 0; i < n; i++) count[(v[i].prefix >> shift) & 0xff]++;
  size_t pos[256], off = 0;
  for (int b = 0; b < 256; b++) {
    pos[b] = off;
    off += count[b];
  }
  if (count[(v[0].prefix >> shift) & 0xff] == n) { /* one bucket: next byte */
    radix_sort(v, tmp, n, byte + 1);
    return;
  }
  for (size_t i = 0; i < n; i++) tmp[pos[(v[i].prefix >> shift) & 0xff]++] = v[i];
  memcpy(v, tmp, n * sizeof *v);
  off = 0;
  for (int b = 0; b < 256; b++) {
    if (count[b] > 1) radix_sort(v + off, tmp + off, count[b], byte + 1);
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
  radix_sort(v, tmp, n, 0);
  hfg_free(tmp);
}

