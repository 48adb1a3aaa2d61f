/*
 * hfg_plan_run: a build's dry run (include/hfilegen/plan.h). Reads sampled
 * rows through plan_source.c, places each under the split keys twice (the
 * scheme's key and the raw key), counts the hot field's heaviest values
 * (plan_hot.c) and optionally compresses a sorted sample of cells to measure
 * the codec, then derives skew figures and findings. The figures and how
 * they are computed are described in format-specs/plan.md.
 */
#define _GNU_SOURCE /* qsort_r */
#include "hfilegen/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/codec.h"
#include "format/kv.h"
#include "plan/plan_hot.h"
#include "plan/plan_source.h"
#include "build/splits.h"
#include "scheme/lists.h"
#include "util/alloc.h"
#include "util/escape.h"

#define MEASURE_BUDGET ((size_t)8 << 20) /* serialized sample cells kept for the codec */

typedef struct plan_impl {
  hfg_plan pub;            /* first: hfg_plan_free casts back */
  hfg_splits splits;
  char *rowkey, *splits_source, *before_key, *hot_field;
} plan_impl;

void hfg_plan_options_init(hfg_plan_options *o) {
  memset(o, 0, sizeof *o);
  o->version = HFG_PLAN_OPTIONS_VERSION;
  o->sample = 1;
}

void hfg_plan_skew_of(const double *v, size_t n, hfg_plan_skew *out) {
  memset(out, 0, sizeof *out);
  if (n == 0) return;
  out->min = v[0];
  for (size_t i = 0; i < n; i++) {
    out->total += v[i];
    if (v[i] > out->max) out->max = v[i], out->max_region = i;
    if (v[i] < out->min) out->min = v[i];
    if (v[i] == 0) out->empty++;
  }
  out->mean = out->total / (double)n;
  if (out->mean <= 0) return;
  double ss = 0;
  for (size_t i = 0; i < n; i++) {
    ss += (v[i] - out->mean) * (v[i] - out->mean);
    if (v[i] > 2 * out->mean) out->over_2x++;
  }
  out->cv = sqrt(ss / (double)n) / out->mean;
  out->max_over_mean = out->max / out->mean;
}

/* ---- split keys ---- */

static int splits_from_list(hfg_splits *s, const hfg_keylist *l, hfg_err *err) {
  for (size_t i = 0; i < hfg_keylist_count(l); i++) {
    size_t len;
    const uint8_t *k = hfg_keylist_get(l, i, &len);
    int rc = hfg_splits_add(s, k, len);
    if (rc == HFG_ENOMEM) return hfg_err_set(err, rc, "out of memory");
    if (rc)
      return hfg_err_set(err, HFG_EINVAL,
                         "split key %zu: keys must be non-empty and strictly ascending", i + 1);
  }
  return 0;
}

static int copy_findings(hfg_findings *dst, const hfg_findings *src) {
  for (size_t i = 0; i < hfg_findings_count(src); i++) {
    const hfg_finding *f = hfg_findings_get(src, i);
    if (findings_add(dst, f->severity, f->code, f->why, f->fix, "%s", f->message)) return HFG_ENOMEM;
  }
  return 0;
}

static int load_splits(plan_impl *pi, const hfg_plan_options *o, const hfg_scheme *scheme,
                       hfg_err *err) {
  char desc[1200];
  int rc = 0;
  if (o->splits) {
    rc = splits_from_list(&pi->splits, o->splits, err);
    snprintf(desc, sizeof desc, "%s", o->splits_desc ? o->splits_desc : "given split keys");
  } else if (o->build->splits_file) {
    rc = hfg_splits_load(o->build->splits_file, &pi->splits, err);
    snprintf(desc, sizeof desc, "file %s", o->build->splits_file);
  } else if (o->regions > 1) {
    hfg_keylist *l = NULL;
    hfg_findings *w = NULL;
    char msg[512];
    rc = hfg_splits_compute(scheme, HFG_SPLIT_SCHEME, o->regions, &l, &w, msg, sizeof msg);
    if (rc) hfg_err_set(err, rc, "split keys for %llu regions: %s", (unsigned long long)o->regions, msg);
    else rc = splits_from_list(&pi->splits, l, err);
    if (!rc && copy_findings(pi->pub.findings, w)) rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
    hfg_keylist_free(l);
    hfg_findings_free(w);
    snprintf(desc, sizeof desc, "aligned to the scheme's buckets (hfilegen splits --regions %llu)",
             (unsigned long long)o->regions);
  } else {
    snprintf(desc, sizeof desc, "one region (no split keys)");
  }
  if (rc) return rc;
  pi->splits_source = hfg_strdup(desc);
  return pi->splits_source ? 0 : hfg_err_set(err, HFG_ENOMEM, "out of memory");
}

static int side_init(plan_impl *pi, hfg_plan_side *s, const char *key) {
  size_t n = pi->splits.n + 1;
  s->key = key;
  s->regions = hfg_calloc(n, sizeof *s->regions);
  if (!s->regions) return HFG_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    hfg_plan_region *r = &s->regions[i];
    r->start = i ? pi->splits.key[i - 1] : (const uint8_t *)"";
    r->start_len = i ? pi->splits.len[i - 1] : 0;
    r->end = i < pi->splits.n ? pi->splits.key[i] : (const uint8_t *)"";
    r->end_len = i < pi->splits.n ? pi->splits.len[i] : 0;
  }
  return 0;
}

static size_t side_add(plan_impl *pi, hfg_plan_side *s, const plan_row *row, const uint8_t *key,
                       size_t klen) {
  size_t r = hfg_splits_region(&pi->splits, key, klen);
  hfg_plan_region *g = &s->regions[r];
  uint64_t kv = plan_kv_bytes(row, klen);
  g->rows++;
  g->cells += row->cells;
  g->input_bytes += row->input_bytes;
  g->kv_bytes += kv;
  s->rows++;
  s->cells += row->cells;
  s->input_bytes += row->input_bytes;
  s->kv_bytes += kv;
  s->key_bytes += klen;
  return r;
}

static int hot_rank_cmp(const void *a, const void *b, void *ctx) {
  const hfg_plan_region *r = ctx;
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  if (r[x].rows != r[y].rows) return r[x].rows > r[y].rows ? -1 : 1;
  return x < y ? -1 : x > y;
}

static int side_finish(hfg_plan_side *s, size_t n, size_t top) {
  double *v = hfg_malloc(n * sizeof *v);
  s->hottest = hfg_malloc(n * sizeof *s->hottest);
  if (!v || !s->hottest) {
    hfg_free(v);
    return HFG_ENOMEM;
  }
  for (size_t i = 0; i < n; i++) v[i] = (double)s->regions[i].rows, s->hottest[i] = i;
  hfg_plan_skew_of(v, n, &s->rows_skew);
  for (size_t i = 0; i < n; i++) v[i] = (double)s->regions[i].kv_bytes;
  hfg_plan_skew_of(v, n, &s->bytes_skew);
  hfg_free(v);
  qsort_r(s->hottest, n, sizeof *s->hottest, hot_rank_cmp, s->regions);
  s->nhottest = top < n ? top : n;
  return 0;
}

/* ---- heavy values ---- */

static int value_cmp(const void *a, const void *b) {
  const plan_hot_entry *x = *(const plan_hot_entry *const *)a, *y = *(const plan_hot_entry *const *)b;
  uint64_t lx = x->count - x->error, ly = y->count - y->error;
  if (lx != ly) return lx > ly ? -1 : 1;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = n ? memcmp(x->value, y->value, n) : 0;
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int hot_finish(hfg_plan *p, const plan_hot *h, size_t top) {
  size_t n;
  const plan_hot_entry *e = plan_hot_entries(h, &n);
  p->hot_exact = plan_hot_exact(h);
  p->hot_distinct = n;
  if (n == 0) return 0;
  const plan_hot_entry **ord = hfg_malloc(n * sizeof *ord);
  if (!ord) return HFG_ENOMEM;
  for (size_t i = 0; i < n; i++) ord[i] = &e[i];
  qsort(ord, n, sizeof *ord, value_cmp);
  size_t k = top < n ? top : n;
  p->hot = hfg_calloc(k, sizeof *p->hot);
  if (!p->hot) {
    hfg_free(ord);
    return HFG_ENOMEM;
  }
  for (size_t i = 0; i < k; i++) {
    hfg_plan_value *v = &p->hot[i];
    v->value = hfg_malloc(ord[i]->len ? ord[i]->len : 1);
    if (!v->value) {
      hfg_free(ord);
      return HFG_ENOMEM;
    }
    if (ord[i]->len) memcpy(v->value, ord[i]->value, ord[i]->len);
    v->len = ord[i]->len;
    v->rows = ord[i]->count;
    v->error = ord[i]->error;
    v->region = ord[i]->region;
    v->spread = ord[i]->spread;
    p->nhot++;
  }
  hfg_free(ord);
  return 0;
}

/* ---- codec measurement: sorted sample cells in blocks of block_size ---- */

typedef struct measure {
  hfg_buf rows;   /* per row: the key, then its serialized cells */
  hfg_buf index;  /* mrow entries */
} measure;

typedef struct mrow {
  size_t off, klen, len;
} mrow;

static int measure_add(measure *m, const plan_src *src, const plan_row *row) {
  if (m->rows.len >= MEASURE_BUDGET) return 0;
  size_t n;
  const plan_cell *c = plan_src_cells(src, &n);
  mrow r = {m->rows.len, row->key_len, row->key_len + plan_kv_bytes(row, row->key_len)};
  if (hfg_buf_reserve(&m->rows, r.len) || hfg_buf_reserve(&m->index, sizeof r)) return HFG_ENOMEM;
  memcpy(m->rows.p + m->rows.len, row->key, row->key_len);
  uint8_t *p = m->rows.p + m->rows.len + row->key_len;
  for (size_t i = 0; i < n; i++) {
    hfg_cell cell = {row->key, row->key_len, (const uint8_t *)c[i].family, strlen(c[i].family),
                     (const uint8_t *)c[i].qualifier, strlen(c[i].qualifier), 1700000000000,
                     HFG_TYPE_PUT, c[i].value, c[i].value_len, NULL, 0};
    p = hfg_kv_put_cell(p, &cell);
  }
  m->rows.len += r.len;
  hfg_buf_append(&m->index, &r, sizeof r); /* reserved */
  return 0;
}

static int mrow_cmp(const void *a, const void *b, void *ctx) {
  const mrow *x = a, *y = b;
  const uint8_t *base = ctx;
  size_t n = x->klen < y->klen ? x->klen : y->klen;
  int c = n ? memcmp(base + x->off, base + y->off, n) : 0;
  return c ? c : (x->klen > y->klen) - (x->klen < y->klen);
}

static int measure_finish(hfg_plan *p, measure *m, hfg_codec codec, uint32_t block_size,
                          hfg_err *err) {
  size_t n = m->index.len / sizeof(mrow);
  mrow *rows = (mrow *)m->index.p;
  if (n == 0) return 0;
  qsort_r(rows, n, sizeof *rows, mrow_cmp, m->rows.p);
  hfg_compressor *z = hfg_compressor_new(codec, -1);
  if (!z) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  hfg_buf block = HFG_BUF_INIT, out = HFG_BUF_INIT;
  int rc = 0;
  for (size_t i = 0; i <= n && !rc; i++) {
    /* HBase closes a data block once it holds block_size bytes or more */
    if (block.len && (i == n || block.len >= block_size)) {
      hfg_buf_reset(&out);
      rc = hfg_compressor_compress(z, block.p, block.len, &out, err);
      p->measured_raw += block.len;
      p->measured_compressed += out.len;
      hfg_buf_reset(&block);
    }
    if (i < n && !rc)
      rc = hfg_buf_append(&block, m->rows.p + rows[i].off + rows[i].klen, rows[i].len - rows[i].klen);
  }
  if (rc == HFG_ENOMEM) hfg_err_set(err, rc, "out of memory");
  if (!rc) {
    p->measured = 1;
    p->codec = codec;
    p->measured_rows = n;
  }
  hfg_buf_free(&block);
  hfg_buf_free(&out);
  hfg_compressor_free(z);
  return rc;
}

/* ---- findings ---- */

static const char *ktext(const uint8_t *k, size_t n, char *buf, size_t cap) {
  hfg_buf b = HFG_BUF_INIT;
  if (hfg_escape(&b, k, n > 48 ? 48 : n)) snprintf(buf, cap, "?");
  else snprintf(buf, cap, "%.*s%s", (int)b.len, b.p ? (const char *)b.p : "", n > 48 ? "..." : "");
  hfg_buf_free(&b);
  return buf;
}

/* One finding for the heavy values confined to one region, one for those the
 * scheme spreads: values holding more than half a region's mean rows. */
static int hot_findings(hfg_plan *p, double mean) {
  hfg_buf one = HFG_BUF_INIT, spread = HFG_BUF_INIT;
  size_t none = 0, nspread = 0;
  int rc = 0;
  for (size_t i = 0; i < p->nhot && p->nregions > 1 && !rc; i++) {
    const hfg_plan_value *v = &p->hot[i];
    double lower = (double)(v->rows - v->error);
    if (lower <= 0.5 * mean || lower < 2) break;
    char vb[256], item[400];
    int n = snprintf(item, sizeof item, "%s'%s' %.1f%% of rows (%.2fx a region's mean)",
                     (v->spread ? nspread : none) ? ", " : "", ktext(v->value, v->len, vb, sizeof vb),
                     100.0 * lower / (double)p->after.rows, lower / mean);
    if (!v->spread) n += snprintf(item + n, sizeof item - (size_t)n, " -> region %zu", v->region);
    rc = hfg_buf_append(v->spread ? &spread : &one, item, (size_t)n);
    ++*(v->spread ? &nspread : &none);
  }
  if (!rc && none)
    rc = findings_add(
        p->findings, HFG_SEV_WARNING, "hot-value",
        p->hot_is_bucket_field
            ? "the value decides the bucket, so all its rows land in one region: salting on this "
              "field cannot spread them"
            : "all rows with the value land in one region",
        "bucket on a field that varies within the value (e.g. the record id), or give the value "
        "split keys of its own",
        "%zu value%s of %s hold%s over half a region's mean rows, all in one region: %.*s", none,
        none > 1 ? "s" : "", p->hot_field, none > 1 ? "" : "s", (int)one.len, (const char *)one.p);
  if (!rc && nspread)
    rc = findings_add(p->findings, HFG_SEV_INFO, "hot-value-spread",
                      "the scheme spreads these values' rows over several regions", "nothing",
                      "%zu value%s of %s hold over half a region's mean rows each, spread over "
                      "regions by the scheme: %.*s",
                      nspread, nspread > 1 ? "s" : "", p->hot_field, (int)spread.len,
                      (const char *)spread.p);
  hfg_buf_free(&one);
  hfg_buf_free(&spread);
  return rc;
}

static int add_findings(plan_impl *pi, const plan_src_stats *st) {
  hfg_plan *p = &pi->pub;
  hfg_findings *f = p->findings;
  const hfg_plan_side *a = &p->after;
  const hfg_plan_skew *k = &a->rows_skew;
  size_t n = p->nregions;
  char kb[256];
  int rc = 0;
  if (p->rejected)
    rc |= findings_add(f, HFG_SEV_WARNING, "rejected", "build would reject these records too",
                       "fix the input or the template; build reports each in _rejects.tsv",
                       "%llu of %llu sampled records cannot be keyed or encoded (first: %s)",
                       (unsigned long long)p->rejected, (unsigned long long)p->records_sampled,
                       p->first_reject);
  if (p->without_cells)
    rc |= findings_add(f, HFG_SEV_INFO, "without-cells",
                       "HBase has no row without a cell: build writes nothing for these records "
                       "and counts them as records without cells",
                       "nothing, if that is meant; --empty-row marker keeps them as rows of one "
                       "empty cell, --empty store keeps empty values as cells",
                       "%llu of %llu sampled records make no cell (every mapped field empty or "
                       "NULL): no row, in no region's figures",
                       (unsigned long long)p->without_cells,
                       (unsigned long long)p->records_sampled);
  if (a->rows == 0)
    return rc | findings_add(f, HFG_SEV_WARNING, "no-rows", "nothing to plan",
                             "check the input, the sample fraction and the template",
                             "no sampled record could be keyed");
  if (k->over_2x) {
    size_t r = k->max_region;
    rc |= findings_add(
        f, HFG_SEV_WARNING, "region-over-2x",
        "one region server takes that region's share of the load, and the region splits again "
        "right after the bulk load",
        "bucket the key ({murmur3(id) % N :0W}|...), use more buckets, or balance the split keys "
        "on the data (hfilegen splits --algo sample)",
        "%zu of %zu regions hold more than twice the mean rows; region %zu (start '%s') holds "
        "%.1f%% of the rows, %.2fx the mean",
        k->over_2x, n, r, ktext(a->regions[r].start, a->regions[r].start_len, kb, sizeof kb),
        100.0 * k->max / k->total, k->max_over_mean);
  } else if (n > 1 && k->max_over_mean > 1.25) {
    rc |= findings_add(f, HFG_SEV_INFO, "uneven", "the fullest region sets the bulk load's pace",
                       "more buckets per region evens out small differences",
                       "regions are uneven: the fullest holds %.2fx the mean rows (CV %.2f)",
                       k->max_over_mean, k->cv);
  }
  if (k->empty && n > 1) {
    size_t first = 0;
    while (a->regions[first].rows) first++;
    rc |= findings_add(f, HFG_SEV_WARNING, "empty-regions",
                       "an empty region holds a region server slot while the others carry its share",
                       "use split keys inside the range the scheme produces (hfilegen splits "
                       "--algo scheme or --algo sample) or fewer regions",
                       "%zu of %zu regions get no rows (first: region %zu, start '%s')", k->empty,
                       n, first,
                       ktext(a->regions[first].start, a->regions[first].start_len, kb, sizeof kb));
  }
  rc |= hot_findings(p, k->mean);
  if (n > 1 && k->mean < 100)
    rc |= findings_add(f, HFG_SEV_INFO, "small-sample",
                       "counts of a random sample vary by about 1/sqrt(count)",
                       "raise --sample (or analyse all records) for firmer figures",
                       "%.0f sampled rows per region on average: region figures are +-%.0f%%",
                       k->mean, k->mean > 0 ? 100.0 / sqrt(k->mean) : 100.0);
  const hfg_plan_skew *b = &p->before.rows_skew;
  if (p->before.regions && n > 1 && b->max_over_mean >= 1.5)
    rc |= findings_add(f, HFG_SEV_INFO, "raw-key-hotspot",
                       "the comparison shows what the scheme changes", "nothing",
                       "with the raw key %s, region %zu would hold %.1f%% of the rows (%.2fx the "
                       "mean, CV %.2f); the scheme gives %.2fx (CV %.2f)",
                       p->before.key, b->max_region, 100.0 * b->max / b->total, b->max_over_mean,
                       b->cv, k->max_over_mean, k->cv);
  if (st->raw_unkeyed)
    rc |= findings_add(f, HFG_SEV_INFO, "raw-key-unkeyed",
                       "the comparison counts fewer rows than the plan", "check --raw-key",
                       "the raw key %s could not be built for %llu sampled rows", p->before.key,
                       (unsigned long long)st->raw_unkeyed);
  return rc ? HFG_ENOMEM : 0;
}

/* ---- the run ---- */

static int run(plan_impl *pi, const hfg_plan_options *o, plan_src *src, hfg_err *err) {
  hfg_plan *p = &pi->pub;
  size_t top = o->top ? o->top : 5;
  measure m = {HFG_BUF_INIT, HFG_BUF_INIT};
  plan_hot *hot = NULL;
  int rc = load_splits(pi, o, plan_src_scheme(src), err);
  if (rc) return rc;
  p->nregions = pi->splits.n + 1;
  if (side_init(pi, &p->after, pi->rowkey) ||
      (!o->no_raw_key && side_init(pi, &p->before, pi->before_key)))
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  long hc = plan_src_hot_column(src, o->hot_field);
  if (o->hot_field && hc < 0)
    return hfg_err_set(err, HFG_EINVAL, "hot field '%s' is not a column", o->hot_field);
  if (hc >= 0) {
    size_t nc;
    const char *const *names = plan_src_columns(src, &nc);
    hfg_bucket_info bi;
    hfg_scheme_bucket(plan_src_scheme(src), &bi);
    p->hot_is_bucket_field = bi.kind != HFG_BUCKET_NONE && hc == plan_src_hot_column(src, NULL);
    if (!(pi->hot_field = hfg_strdup(names[hc])) ||
        !(hot = plan_hot_new(o->hot_capacity ? o->hot_capacity : 4096)))
      return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    p->hot_field = pi->hot_field;
  }
  plan_row row;
  while ((rc = plan_src_next(src, &row, err)) > 0) {
    size_t r = side_add(pi, &p->after, &row, row.key, row.key_len);
    if (p->before.regions && row.raw) side_add(pi, &p->before, &row, row.raw, row.raw_len);
    size_t cells;
    plan_src_cells(src, &cells);
    if (cells > p->cells_per_row_max) p->cells_per_row_max = cells;
    if (hot) {
      const hfg_field *f = &row.rec->fields[hc];
      if ((rc = plan_hot_add(hot, (const uint8_t *)f->p, f->len, r)) != 0) break;
    }
    if (o->measure_codec && (rc = measure_add(&m, src, &row)) != 0) break;
  }
  if (rc == HFG_ENOMEM) hfg_err_set(err, rc, "out of memory");
  plan_src_stats st;
  plan_src_stats_get(src, &st);
  p->records_read = st.records_read;
  p->records_sampled = st.records_sampled;
  p->rejected = st.rejected;
  p->without_cells = st.without_cells;
  p->raw_unkeyed = st.raw_unkeyed;
  p->deletes_read = st.deletes_read;
  p->input_bytes = st.input_bytes;
  memcpy(p->first_reject, st.first_reject, sizeof p->first_reject);
  p->scale = st.records_sampled ? (double)st.records_read / (double)st.records_sampled : 1.0;
  if (!rc && (side_finish(&p->after, p->nregions, top) ||
              (p->before.regions && side_finish(&p->before, p->nregions, top)) ||
              (hot && hot_finish(p, hot, top))))
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
  if (!rc && o->measure_codec) {
    uint32_t bs = o->build->hfile.block_size ? o->build->hfile.block_size : 65536;
    rc = measure_finish(p, &m, o->build->hfile.codec, bs, err);
  }
  if (!rc && add_findings(pi, &st)) rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
  plan_hot_free(hot);
  hfg_buf_free(&m.rows);
  hfg_buf_free(&m.index);
  return rc;
}

int hfg_plan_run(const hfg_plan_options *o, hfg_plan **out, char *errmsg, size_t errlen) {
  *out = NULL;
  hfg_err err = {0};
  int rc;
  if (!o || o->version != HFG_PLAN_OPTIONS_VERSION || !o->build) {
    rc = hfg_err_set(&err, HFG_EINVAL, "plan options: version mismatch or no build options");
    goto report;
  }
  double fraction = o->sample > 0 ? o->sample : 1;
  plan_impl *pi = hfg_calloc(1, sizeof *pi);
  if (!pi) {
    rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
    goto report;
  }
  pi->pub.fraction = fraction;
  pi->pub.scale = 1;
  plan_src *src = NULL;
  rc = plan_src_open_plan(o, fraction, o->seed, o->no_raw_key ? NULL : o->raw_key ? o->raw_key : "",
                     &src, &err);
  if (!rc && (!(pi->pub.findings = findings_new()) ||
              !(pi->rowkey = hfg_strdup(hfg_scheme_template(plan_src_scheme(src)))) ||
              (!o->no_raw_key && !(pi->before_key = hfg_strdup(plan_src_raw_key(src))))))
    rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
  if (!rc) {
    pi->pub.rowkey = pi->rowkey;
    rc = run(pi, o, src, &err);
    pi->pub.splits_source = pi->splits_source;
  }
  plan_src_free(src);
  if (rc) {
    hfg_plan_free(&pi->pub);
    goto report;
  }
  *out = &pi->pub;
  return 0;
report:
  if (errmsg && errlen) snprintf(errmsg, errlen, "%s", err.msg[0] ? err.msg : hfg_strerror(rc));
  return rc;
}

static void side_free(hfg_plan_side *s) {
  hfg_free(s->regions);
  hfg_free(s->hottest);
}

void hfg_plan_free(hfg_plan *p) {
  if (!p) return;
  plan_impl *pi = (plan_impl *)p;
  side_free(&p->after);
  side_free(&p->before);
  for (size_t i = 0; i < p->nhot; i++) hfg_free(p->hot[i].value);
  hfg_free(p->hot);
  hfg_findings_free(p->findings);
  hfg_splits_free(&pi->splits);
  hfg_free(pi->rowkey);
  hfg_free(pi->splits_source);
  hfg_free(pi->before_key);
  hfg_free(pi->hot_field);
  hfg_free(pi);
}
