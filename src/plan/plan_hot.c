/*
 * Space-Saving heavy hitters (plan_hot.h): k entries, a min-heap on count to
 * find the counter to replace in O(log k), and an open-addressing hash table
 * (linear probing, backward-shift deletion) from value to entry.
 */
#include "plan/plan_hot.h"

#include <string.h>

#include "hfilegen/status.h"
#include "util/alloc.h"
#include "util/hashes.h"

struct plan_hot {
  plan_hot_entry *e;
  size_t n, cap;
  size_t *heap;      /* entry indexes, heap[0] has the smallest count */
  uint32_t *slot;    /* hash table: entry index + 1, 0 = empty */
  size_t mask;
  int evicted;
};

plan_hot *plan_hot_new(size_t capacity) {
  if (capacity == 0) capacity = 1;
  plan_hot *h = hfg_calloc(1, sizeof *h);
  if (!h) return NULL;
  size_t slots = 4;
  while (slots < capacity * 2) slots <<= 1;
  h->cap = capacity;
  h->mask = slots - 1;
  h->e = hfg_calloc(capacity, sizeof *h->e);
  h->heap = hfg_calloc(capacity, sizeof *h->heap);
  h->slot = hfg_calloc(slots, sizeof *h->slot);
  if (!h->e || !h->heap || !h->slot || capacity > UINT32_MAX - 1) {
    plan_hot_free(h);
    return NULL;
  }
  return h;
}

static size_t home(const plan_hot *h, const uint8_t *v, size_t len) {
  return (size_t)hfg_hash_xxh64(v, len) & h->mask;
}

static int same(const plan_hot_entry *e, const uint8_t *v, size_t len) {
  return e->len == len && (len == 0 || !memcmp(e->value, v, len));
}

static void heap_swap(plan_hot *h, size_t a, size_t b) {
  size_t t = h->heap[a];
  h->heap[a] = h->heap[b];
  h->heap[b] = t;
  h->e[h->heap[a]].heap = a;
  h->e[h->heap[b]].heap = b;
}

static void sift_up(plan_hot *h, size_t i) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (h->e[h->heap[p]].count <= h->e[h->heap[i]].count) break;
    heap_swap(h, i, p);
    i = p;
  }
}

static void sift_down(plan_hot *h, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->n && h->e[h->heap[l]].count < h->e[h->heap[m]].count) m = l;
    if (r < h->n && h->e[h->heap[r]].count < h->e[h->heap[m]].count) m = r;
    if (m == i) return;
    heap_swap(h, i, m);
    i = m;
  }
}

/* Removes the table slot of entry idx, shifting later probes back. */
static void unlink_entry(plan_hot *h, size_t idx) {
  const plan_hot_entry *e = &h->e[idx];
  size_t i = home(h, e->value, e->len);
  while (h->slot[i] != idx + 1) i = (i + 1) & h->mask;
  size_t j = i;
  for (;;) {
    h->slot[i] = 0;
    for (;;) {
      j = (j + 1) & h->mask;
      if (!h->slot[j]) return;
      const plan_hot_entry *x = &h->e[h->slot[j] - 1];
      size_t k = home(h, x->value, x->len);
      /* x may move to i when its home is not cyclically in (i, j] */
      if (i <= j ? (i < k && k <= j) : (i < k || k <= j)) continue;
      break;
    }
    h->slot[i] = h->slot[j];
    i = j;
  }
}

static int set_value(plan_hot_entry *e, const uint8_t *v, size_t len) {
  if (len > e->cap) {
    size_t cap = len < 16 ? 16 : len;
    uint8_t *p = hfg_realloc(e->value, cap);
    if (!p) return HFG_ENOMEM;
    e->value = p;
    e->cap = cap;
  }
  if (len) memcpy(e->value, v, len);
  e->len = len;
  return 0;
}

int plan_hot_add(plan_hot *h, const uint8_t *value, size_t len, size_t region) {
  size_t i = home(h, value, len);
  while (h->slot[i]) {
    plan_hot_entry *e = &h->e[h->slot[i] - 1];
    if (same(e, value, len)) {
      e->count++;
      if (e->region != region) e->spread = 1;
      sift_down(h, e->heap);
      return 0;
    }
    i = (i + 1) & h->mask;
  }
  size_t idx;
  uint64_t base = 0;
  if (h->n < h->cap) {
    idx = h->n;
    if (set_value(&h->e[idx], value, len)) return HFG_ENOMEM;
    h->heap[h->n] = idx;
    h->e[idx].heap = h->n++;
  } else {
    /* replace the smallest counter: the newcomer may have occurred up to
     * that many times before without being counted */
    idx = h->heap[0];
    plan_hot_entry *e = &h->e[idx];
    uint8_t *keep = NULL;
    if (len > e->cap && !(keep = hfg_malloc(len < 16 ? 16 : len))) return HFG_ENOMEM;
    unlink_entry(h, idx);
    if (keep) {
      hfg_free(e->value);
      e->value = keep;
      e->cap = len < 16 ? 16 : len;
    }
    set_value(e, value, len); /* fits: cannot fail */
    base = e->count;
    h->evicted = 1;
    /* the table changed: find the insertion slot again */
    i = home(h, value, len);
    while (h->slot[i]) i = (i + 1) & h->mask;
  }
  plan_hot_entry *e = &h->e[idx];
  e->count = base + 1;
  e->error = base;
  e->region = region;
  e->spread = 0;
  h->slot[i] = (uint32_t)(idx + 1);
  sift_up(h, e->heap);
  sift_down(h, e->heap);
  return 0;
}

const plan_hot_entry *plan_hot_entries(const plan_hot *h, size_t *n) {
  *n = h->n;
  return h->e;
}

int plan_hot_exact(const plan_hot *h) { return !h->evicted; }

void plan_hot_free(plan_hot *h) {
  if (!h) return;
  if (h->e)
    for (size_t i = 0; i < h->cap; i++) hfg_free(h->e[i].value);
  hfg_free(h->e);
  hfg_free(h->heap);
  hfg_free(h->slot);
  hfg_free(h);
}
