/* The sorter's in-memory sort: see sorter_sort.h. */
#include "sort/sorter_sort.h"

#include <stdint.h>
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

/* Merges the sorted runs v[0, a) and v[a, n) in place, the left one moved to
 * tmp first (writes into v then stay behind the right run's reads). */
static void merge_left(item *v, size_t a, size_t n, item *tmp) {
  memcpy(tmp, v, a * sizeof *v);
  size_t i = 0, j = a, o = 0;
  while (i < a && j < n) {
    if (item_cmp(&v[j], &tmp[i]) < 0) v[o++] = v[j++];
    else v[o++] = tmp[i++];
  }
  memcpy(v + o, tmp + i, (a - i) * sizeof *v); /* what is left of the right run is in place */
}

/* The same with the right run moved to tmp, merged from the end. */
static void merge_right(item *v, size_t a, size_t n, item *tmp) {
  size_t b = n - a;
  memcpy(tmp, v + a, b * sizeof *v);
  size_t i = a, j = b, o = n; /* v[0, i) and tmp[0, j) are left, written down from o */
  while (i > 0 && j > 0) {
    if (item_cmp(&tmp[j - 1], &v[i - 1]) < 0) v[--o] = v[--i];
    else v[--o] = tmp[--j];
  }
  memcpy(v + o - j, tmp, j * sizeof *v);
}

/* Input made of a few ascending runs: auto-increment ids under a template
 * arrive in id order, which is key order within each id length ("3|9" sorts
 * after "3|10"), so a region's part holds one run per digit count. Merging
 * neighbours, the shorter one through tmp, moves each item a few times where
 * the radix sort scatters it once a key byte. runs[0..nr] are the run starts
 * (runs[nr] = n); tmp holds half of them at least. */
#define MAX_RUNS 16
static void merge_runs(item *v, size_t *runs, size_t nr, item *tmp) {
  while (nr > 1) {
    /* merge the adjacent pair with the smallest total: small runs first */
    size_t best = 0, best_len = SIZE_MAX;
    for (size_t k = 0; k + 1 < nr; k++) {
      size_t len = runs[k + 2] - runs[k];
      if (len < best_len) best = k, best_len = len;
    }
    size_t lo = runs[best], mid = runs[best + 1], hi = runs[best + 2];
    if (mid - lo <= hi - mid) merge_left(v + lo, mid - lo, hi - lo, tmp);
    else merge_right(v + lo, mid - lo, hi - lo, tmp);
    memmove(runs + best + 1, runs + best + 2, (nr - best - 1) * sizeof *runs);
    nr--;
  }
}

/* Input that arrives sorted (auto-increment ids under a salt) needs no sort.
 * The radix scratch is budgeted with the index (hfg_sorter_add counts each
 * index byte twice); qsort is the fallback when it cannot be had. */
void hfg_sort_items(item *v, size_t n) {
  size_t i = 1;
  while (i < n && item_cmp(&v[i - 1], &v[i]) <= 0) i++;
  if (i >= n) return;
  /* a few ascending runs? (the scan stops at the MAX_RUNS + 1st) */
  size_t runs[MAX_RUNS + 1], nr = 1;
  runs[0] = 0;
  for (; i < n && nr < MAX_RUNS; i++)
    if (item_cmp(&v[i - 1], &v[i]) > 0) runs[nr++] = i;
  while (i < n && item_cmp(&v[i - 1], &v[i]) <= 0) i++;
  /* (a merge moves the shorter of two runs: half of n at the most) */
  item *tmp = hfg_malloc((i == n ? n / 2 + 1 : n) * sizeof *tmp);
  if (!tmp) {
    qsort(v, n, sizeof *v, item_cmp);
    return;
  }
  if (i == n) {
    runs[nr] = n;
    merge_runs(v, runs, nr, tmp);
    hfg_free(tmp);
    return;
  }
  /* the bytes every prefix shares (a salt, its separator) need no level */
  uint64_t diff = 0;
  for (size_t k = 1; k < n; k++) diff |= v[k].prefix ^ v[0].prefix;
  radix_sort(v, tmp, n, diff ? __builtin_clzll(diff) / 8 : 8, 0);
  hfg_free(tmp);
}

