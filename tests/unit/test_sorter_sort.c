/* The sorter's in-memory sort (sorter_sort.c) against a plain reference sort:
 * keys of every length with shared prefixes of every length (the radix levels
 * that are skipped, taken or finished by comparison), equal keys ordered by
 * sequence number, groups of every size around the insertion-sort cut. */
#include <stdlib.h>
#include <string.h>

#include "sort/sorter.h"
#include "sort/sorter_sort.h"
#include "t.h"

static uint8_t *mkrec(const uint8_t *key, size_t klen, uint64_t seq) {
  uint8_t *r = malloc(HFG_SORT_REC_HEADER(klen) + 1);
  hfg_rec_put_header(r, HFG_SORT_REC_HEADER(klen) + 1, key, klen, seq);
  r[HFG_SORT_REC_HEADER(klen)] = 0;
  return r;
}

static uint64_t prefix_of(const uint8_t *key, size_t klen) {
  uint64_t p = 0;
  for (size_t i = 0; i < 8; i++) p = p << 8 | (i < klen ? key[i] : 0);
  return p;
}

/* the reference order, byte by byte: key (shorter first), then seq */
static int ref_cmp(const void *x, const void *y) {
  const uint8_t *a = ((const item *)x)->rec, *b = ((const item *)y)->rec;
  size_t al = hfg_rec_klen(a), bl = hfg_rec_klen(b);
  for (size_t i = 0; i < al && i < bl; i++)
    if (a[6 + i] != b[6 + i]) return a[6 + i] < b[6 + i] ? -1 : 1;
  if (al != bl) return al < bl ? -1 : 1;
  uint64_t sa = hfg_rec_seq(a), sb = hfg_rec_seq(b);
  return sa < sb ? -1 : sa > sb;
}

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(void) { return t_rand(&rnd_state); }

/* n items: a shared head of `shared` bytes, then 0..maxtail bytes from an
 * alphabet of `alpha` letters; seqs a shuffled 0..n-1 */
static void sort_and_compare(size_t n, size_t shared, size_t maxtail, unsigned alpha) {
  item *v = calloc(n + 1, sizeof *v), *ref = calloc(n + 1, sizeof *ref);
  uint64_t *seq = malloc((n + 1) * sizeof *seq);
  for (size_t i = 0; i < n; i++) seq[i] = i;
  for (size_t i = n; i > 1; i--) {
    size_t k = rnd() % i;
    uint64_t t = seq[i - 1];
    seq[i - 1] = seq[k];
    seq[k] = t;
  }
  uint8_t key[64];
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < shared; k++) key[k] = (uint8_t)(0x30 + k);
    size_t tail = maxtail ? rnd() % (maxtail + 1) : 0;
    for (size_t k = 0; k < tail; k++) key[shared + k] = (uint8_t)(0xfe - rnd() % alpha);
    size_t klen = shared + tail;
    v[i].rec = mkrec(key, klen, seq[i]);
    v[i].prefix = prefix_of(key, klen);
  }
  memcpy(ref, v, n * sizeof *v);
  qsort(ref, n, sizeof *ref, ref_cmp);
  hfg_sort_items(v, n);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += v[i].rec != ref[i].rec || v[i].prefix != ref[i].prefix;
  if (bad) fprintf(stderr, "  n %zu shared %zu tail %zu alpha %u: %zu items misplaced\n", n, shared,
                   maxtail, alpha, bad);
  CHECK(bad == 0);
  for (size_t i = 0; i < n; i++) free(v[i].rec);
  free(v);
  free(ref);
  free(seq);
}

TEST(sort_items_every_shared_prefix) {
  /* a head shared by all of 0..12 bytes: the skipped levels end before, at
   * and past the 8-byte prefix */
  for (size_t shared = 0; shared <= 12; shared++) {
    sort_and_compare(3000, shared, 6, 3);
    sort_and_compare(3000, shared, 12, 200);
  }
}

TEST(sort_items_group_sizes) {
  /* totals around the insertion-sort cut (48) and tiny ones */
  for (size_t n = 0; n < 120; n++) sort_and_compare(n, 2, 3, 4);
  /* few letters: many equal keys, ordered by seq; deep recursion */
  sort_and_compare(20000, 0, 10, 2);
  sort_and_compare(20000, 1, 16, 5);
  /* all keys equal: every item in one group, sequence order only */
  sort_and_compare(500, 9, 0, 1);
}

TEST(sort_items_one_odd_key) {
  /* keys that differ only in their 7th byte, but one, at each place, that
   * differs before: the shared bytes are those of all the items, the odd one
   * included */
  const size_t n = 200;
  static const size_t places[] = {0, 1, 2, 3, 100, 198, 199};
  for (size_t pi = 0; pi < sizeof places / sizeof *places; pi++) {
    const size_t odd = places[pi];
    for (int byte = 0; byte < 10; byte++) {
      item *v = calloc(n, sizeof *v), *ref = calloc(n, sizeof *ref);
      for (size_t i = 0; i < n; i++) {
        uint8_t key[10] = {'3', '|', '1', '2', '3', '4', '5', '6', '7', '8'};
        key[6] = (uint8_t)('0' + i % 10);
        if (i == odd) key[byte] = (uint8_t)(byte % 2 ? 0x01 : 0xf0);
        v[i].rec = mkrec(key, sizeof key, n - i);
        v[i].prefix = prefix_of(key, sizeof key);
      }
      memcpy(ref, v, n * sizeof *v);
      qsort(ref, n, sizeof *ref, ref_cmp);
      hfg_sort_items(v, n);
      size_t bad = 0;
      for (size_t i = 0; i < n; i++) bad += v[i].rec != ref[i].rec;
      if (bad) fprintf(stderr, "  odd item %zu, byte %d: %zu misplaced\n", odd, byte, bad);
      CHECK(bad == 0);
      for (size_t i = 0; i < n; i++) free(v[i].rec);
      free(v);
      free(ref);
    }
  }
}

TEST(sort_items_salted_ids) {
  /* the rowkey {id % 10}|{id} of one region: ids shuffled */
  size_t n = 100000;
  item *v = calloc(n, sizeof *v), *ref = calloc(n, sizeof *ref);
  char key[32];
  for (size_t i = 0; i < n; i++) {
    uint64_t id = (i * 7919) % n * 10 + 3;
    int kl = snprintf(key, sizeof key, "3|%llu", (unsigned long long)id);
    v[i].rec = mkrec((const uint8_t *)key, (size_t)kl, i);
    v[i].prefix = prefix_of((const uint8_t *)key, (size_t)kl);
  }
  memcpy(ref, v, n * sizeof *v);
  qsort(ref, n, sizeof *ref, ref_cmp);
  hfg_sort_items(v, n);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += v[i].rec != ref[i].rec;
  CHECK(bad == 0);
  for (size_t i = 0; i < n; i++) free(v[i].rec);
  free(v);
  free(ref);
}

static void check_sorted_like_ref(item *v, size_t n, const char *what, size_t k) {
  item *ref = calloc(n + 1, sizeof *ref);
  memcpy(ref, v, n * sizeof *v);
  qsort(ref, n, sizeof *ref, ref_cmp);
  hfg_sort_items(v, n);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += v[i].rec != ref[i].rec || v[i].prefix != ref[i].prefix;
  if (bad) fprintf(stderr, "  %s %zu: %zu of %zu items misplaced\n", what, k, bad, n);
  CHECK(bad == 0);
  for (size_t i = 0; i < n; i++) free(v[i].rec);
  free(ref);
}

TEST(sort_items_ascending_ids) {
  /* the rowkey {id % 10}|{id} of one region, ids ascending as exported: one
   * ascending run a digit count (the run-merge path), ids up to 7 digits */
  for (size_t n = 1000; n <= 200000; n *= 10) {
    item *v = calloc(n, sizeof *v);
    char key[32];
    for (size_t i = 0; i < n; i++) {
      int kl = snprintf(key, sizeof key, "3|%llu", (unsigned long long)(i * 5 + 3));
      v[i].rec = mkrec((const uint8_t *)key, (size_t)kl, i);
      v[i].prefix = prefix_of((const uint8_t *)key, (size_t)kl);
    }
    check_sorted_like_ref(v, n, "ascending ids, n", n);
    free(v);
  }
}

TEST(sort_items_ascending_runs) {
  /* k sorted runs one after the other (k past the run-merge limit too), of
   * random lengths (1 included), keys from few letters so that equal keys
   * fall in different runs (their seqs decide) */
  for (size_t k = 1; k <= 20; k++)
    for (int rep = 0; rep < 6; rep++) {
      size_t n = 0, cap = 64 * k + 64;
      item *v = calloc(cap, sizeof *v);
      for (size_t r = 0; r < k; r++) {
        size_t len = rep % 3 == 0 ? 1 + rnd() % 3 : 1 + rnd() % 60;
        item *run = v + n;
        for (size_t i = 0; i < len; i++) {
          uint8_t key[12];
          size_t kl = 1 + rnd() % 11;
          for (size_t b = 0; b < kl; b++) key[b] = (uint8_t)('a' + rnd() % 3);
          run[i].rec = mkrec(key, kl, (rnd() % 1000) << 20 | (n + i)); /* unique seqs */
          run[i].prefix = prefix_of(key, kl);
        }
        qsort(run, len, sizeof *run, ref_cmp);
        n += len;
      }
      check_sorted_like_ref(v, n, "runs", k);
      free(v);
    }
}

T_MAIN
