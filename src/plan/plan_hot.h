/*
 * Heavy hitters of one field in bounded memory: the Space-Saving summary
 * (Metwally, Agrawal, El Abbadi, "Efficient Computation of Frequent and
 * Top-k Elements in Data Streams", ICDT 2005). With capacity k it keeps k
 * counters; a value not yet counted replaces the smallest counter and
 * inherits its count as an error bound. Guarantees: every value whose true
 * count exceeds N/k is in the summary; a counted value's true count lies in
 * [count - error, count]; while the stream has at most k distinct values
 * every count is exact. Internal to src/plan (used by plan.c).
 */
#ifndef HFG_PIPELINE_PLAN_HOT_H
#define HFG_PIPELINE_PLAN_HOT_H

#include <stddef.h>
#include <stdint.h>

typedef struct plan_hot_entry {
  uint8_t *value;
  size_t len, cap;
  uint64_t count, error;
  size_t region;   /* region of the row that (re)created the entry */
  int spread;      /* a later row fell in another region */
  size_t heap;     /* position in the min-heap */
} plan_hot_entry;

typedef struct plan_hot plan_hot;

plan_hot *plan_hot_new(size_t capacity); /* NULL on ENOMEM; capacity >= 1 */
/* Counts one occurrence of value (in region). 0 or HFG_ENOMEM. */
int plan_hot_add(plan_hot *h, const uint8_t *value, size_t len, size_t region);
/* Entries (unordered), borrowed until the next add or free. */
const plan_hot_entry *plan_hot_entries(const plan_hot *h, size_t *n);
/* 1 while no counter was ever replaced (all counts exact). */
int plan_hot_exact(const plan_hot *h);
void plan_hot_free(plan_hot *h);

#endif
