/*
 * Sample-balanced split keys (hfg_plan_sample_splits, include/hfilegen/plan.h):
 * the byte-weighted quantiles of the transformed keys of a sample of the real
 * input. Where aligned splits (src/scheme/splits.c) assume the scheme's
 * buckets are evenly filled, these follow the data: a raw sequential key, a
 * hot bucket or uneven row sizes all get regions of about equal HFile bytes.
 * Method in format-specs/plan.md.
 */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hfilegen/plan.h"
#include "plan/plan_source.h"
#include "scheme/lists.h"
#include "util/alloc.h"

typedef struct srow {
  uint8_t *key;
  size_t len;
  uint64_t weight; /* the row's KeyValue bytes */
} srow;

static int srow_cmp(const void *a, const void *b) {
  const srow *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = n ? memcmp(x->key, y->key, n) : 0;
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int set_row(srow *r, const plan_row *row) {
  uint8_t *k = hfg_realloc(r->key, row->key_len);
  if (!k) return HFG_ENOMEM;
  memcpy(k, row->key, row->key_len);
  r->key = k;
  r->len = row->key_len;
  r->weight = plan_kv_bytes(row, row->key_len);
  return 0;
}

/* Shortest prefix of b that sorts above a (a < b): every row <= a stays
 * below it, every row >= b above or equal. */
static size_t separator_len(const srow *a, const srow *b) {
  size_t i = 0;
  while (i < a->len && i < b->len && a->key[i] == b->key[i]) i++;
  return i + 1 <= b->len ? i + 1 : b->len;
}

static int warn(hfg_findings **w, const char *code, const char *why, const char *fix,
                const char *msg) {
  if (!w) return 0;
  if (!*w && !(*w = findings_new())) return HFG_ENOMEM;
  return findings_add(*w, HFG_SEV_WARNING, code, why, fix, "%s", msg);
}

/* Picks the split rows: for target i*W/R the row boundary whose cumulative
 * weight is closest to it, after the previous pick. Boundaries lie between
 * rows with different keys only. Returns the number of picks. */
static size_t pick(const srow *rows, size_t n, uint64_t regions, size_t *at) {
  long double total = 0;
  for (size_t j = 0; j < n; j++) total += rows[j].weight;
  size_t got = 0, j = 1, prev = 0;
  long double cum = n ? rows[0].weight : 0; /* weight of rows[0..j) */
  for (uint64_t i = 1; i < regions && j < n; i++) {
    long double target = total * (long double)i / (long double)regions;
    size_t best = 0;
    long double best_d = 0;
    for (; j < n; cum += rows[j].weight, j++) {
      if (srow_cmp(&rows[j - 1], &rows[j]) == 0) continue;
      long double d = fabsl(cum - target);
      if (!best || d <= best_d) {
        best = j, best_d = d;
        if (cum >= target) break;
      } else {
        break; /* past the target and farther than the candidate before */
      }
    }
    if (!best || best <= prev) continue;
    at[got++] = best;
    prev = best;
    if (j == best) cum += rows[j].weight, j++;
  }
  return got;
}

int hfg_plan_sample_splits(const hfg_plan_options *o, uint64_t regions, size_t max_rows,
                           hfg_keylist **out, hfg_findings **warnings, char *errmsg,
                           size_t errlen) {
  *out = NULL;
  hfg_err err = {0};
  plan_src *src = NULL;
  srow *rows = NULL;
  size_t n = 0, *at = NULL;
  uint64_t seen = 0;
  hfg_keylist *l = NULL;
  int rc;
  if (!o || o->version != HFG_PLAN_OPTIONS_VERSION || !o->build || regions < 1) {
    rc = hfg_err_set(&err, HFG_EINVAL, "sample splits need plan options and regions >= 1");
    goto done;
  }
  if (!max_rows) max_rows = 1000000;
  if ((rc = plan_src_open_plan(o, o->sample > 0 ? o->sample : 1, o->seed, NULL, &src, &err)))
    goto done;
  size_t cap = 0;
  plan_row row;
  while ((rc = plan_src_next(src, &row, &err)) > 0) {
    /* reservoir (Algorithm R): the kept rows stay a uniform sample of the sample */
    size_t slot = n;
    if (n == max_rows) {
      uint64_t r = plan_mix64(o->seed ^ 0x7265736572766f69ull ^ (seen * 0x9e3779b97f4a7c15ull)) %
                   (seen + 1);
      slot = r < max_rows ? (size_t)r : SIZE_MAX;
    }
    seen++;
    if (slot == SIZE_MAX) continue;
    if (slot == cap) {
      size_t nc = cap ? (cap * 2 < max_rows ? cap * 2 : max_rows) : 1024;
      srow *g = hfg_realloc(rows, nc * sizeof *g);
      if (!g) {
        rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
        break;
      }
      memset(g + cap, 0, (nc - cap) * sizeof *g);
      rows = g;
      cap = nc;
    }
    if (set_row(&rows[slot], &row)) {
      rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
      break;
    }
    if (slot == n) n++;
  }
  if (rc) goto done;
  plan_src_stats st;
  plan_src_stats_get(src, &st);
  if (n) qsort(rows, n, sizeof *rows, srow_cmp);
  at = hfg_malloc((size_t)(regions < n + 1 ? regions : n + 1) * sizeof *at);
  if (!(l = keylist_new()) || !at) {
    rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
    goto done;
  }
  size_t got = pick(rows, n, regions, at);
  for (size_t i = 0; i < got; i++)
    if (keylist_add(l, rows[at[i]].key, separator_len(&rows[at[i] - 1], &rows[at[i]]))) {
      rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
      goto done;
    }
  char msg[512];
  if (n == 0) {
    rc = hfg_err_set(&err, HFG_EINVAL,
                     "no sampled record could be keyed (%llu read, %llu sampled, %llu rejected%s%s)",
                     (unsigned long long)st.records_read, (unsigned long long)st.records_sampled,
                     (unsigned long long)st.rejected, st.rejected ? "; first: " : "",
                     st.first_reject);
    goto done;
  }
  if (got + 1 < regions) {
    snprintf(msg, sizeof msg,
             "the sample has too few distinct keys for %llu regions: %zu split keys instead of %llu",
             (unsigned long long)regions, got, (unsigned long long)(regions - 1));
    if ((rc = warn(warnings, "few-distinct-keys", "some regions could not be separated",
                   "sample more records or ask for fewer regions", msg)))
      goto done;
  }
  if (seen < 30 * regions) {
    snprintf(msg, sizeof msg,
             "split keys from %llu sampled rows for %llu regions: region sizes will vary by "
             "about +-%.0f%%",
             (unsigned long long)seen, (unsigned long long)regions,
             100.0 / sqrt((double)seen / (double)regions));
    if ((rc = warn(warnings, "small-sample", "quantiles of a small sample are rough",
                   "raise --sample", msg)))
      goto done;
  }
  if (st.rejected) {
    snprintf(msg, sizeof msg, "%llu sampled records cannot be keyed (first: %.300s)",
             (unsigned long long)st.rejected, st.first_reject);
    if ((rc = warn(warnings, "rejected", "they are not in the split points' sample",
                   "fix the input or the template", msg)))
      goto done;
  }
  *out = l;
  l = NULL;
done:
  if (rc == HFG_ENOMEM && !err.code) hfg_err_set(&err, rc, "out of memory");
  if (rc && errmsg && errlen) snprintf(errmsg, errlen, "%s", err.msg);
  hfg_keylist_free(l);
  hfg_free(at);
  for (size_t i = 0; i < n; i++) hfg_free(rows[i].key);
  hfg_free(rows);
  plan_src_free(src);
  return rc;
}
