/*
 * Scan ranges: the start/stop rows that cover a range of one field under a
 * rowkey template, one range per choice of the parts before the range part
 * (buckets, time buckets) and per interval of the range part (scan_part.c),
 * with whether they are exact or a superset.
 * format-specs/rowkey-templates.md, "Calculators" and "Exact and superset ranges".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheme/lists.h"
#include "scheme/scan_part.h"
#include "scheme/scheme_internal.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/timefmt.h"

#define KEY_CAP 32768 /* HBase rows are at most 32767 bytes */

/* Choices of one part before the range part: the bytes it may render. */
typedef struct choices {
  hfg_buf bytes;
  hfg_buf offs; /* size_t, n+1 */
  size_t n;
} choices;

static int choice_add(choices *c, const void *p, size_t len) {
  if (c->n == 0 && c->offs.len == 0) {
    size_t z = 0;
    if (hfg_buf_append(&c->offs, &z, sizeof z)) return HFG_ENOMEM;
  }
  size_t end = c->bytes.len + len;
  if (hfg_buf_append(&c->bytes, p, len) || hfg_buf_append(&c->offs, &end, sizeof end))
    return HFG_ENOMEM;
  c->n++;
  return 0;
}

typedef struct range {
  uint8_t *start, *stop;
  size_t sl, tl;
} range;

static int cmp_range(const void *a, const void *b) {
  const range *x = a, *y = b;
  size_t n = x->sl < y->sl ? x->sl : y->sl;
  int c = memcmp(x->start, y->start, n);
  return c ? c : (x->sl > y->sl) - (x->sl < y->sl);
}

/* The smallest key above every key starting with p[0..n): drop trailing 0xff,
 * increment the last byte. Length 0 means "no upper bound". */
static size_t prefix_successor(uint8_t *p, size_t n) {
  while (n && p[n - 1] == 0xff) n--;
  if (n) p[n - 1]++;
  return n;
}

/* Millis of a time-bucket part's column value (raw millis or by format). */
static int part_millis(const hfg_scheme *s, const spart *p, hfg_field v, int64_t *ms, char *em,
                       size_t el) {
  if (p->time_fmt_node >= 0) {
    const snode *f = &s->nodes[p->time_fmt_node];
    char pat[128];
    memcpy(pat, s->pool + f->str, f->slen);
    pat[f->slen] = '\0';
    if (hfg_time_parse(pat, v.p, v.len, ms))
      return scheme_errf(em, el, HFG_EINVAL, "'%.*s' does not match the date format '%s'",
                         (int)v.len, v.p, pat);
    return 0;
  }
  char tmp[32];
  if (v.len == 0 || v.len >= sizeof tmp) goto bad;
  memcpy(tmp, v.p, v.len);
  tmp[v.len] = '\0';
  char *end;
  long long x = strtoll(tmp, &end, 10);
  if (*end) goto bad;
  *ms = x;
  return 0;
bad:
  return scheme_errf(em, el, HFG_EINVAL, "'%.*s' is not epoch milliseconds", (int)v.len, v.p);
}

/* Lists the periods (day/hour/month) the range [from, last] touches. */
static int time_choices(const hfg_scheme *s, size_t pi, int32_t col, hfg_field from, hfg_field last,
                        size_t max, choices *ch, char *em, size_t el) {
  const spart *p = &s->parts[pi];
  int64_t a, b;
  int rc;
  if ((rc = part_millis(s, p, from, &a, em, el)) || (rc = part_millis(s, p, last, &b, em, el))) return rc;
  if (b < a) return scheme_errf(em, el, HFG_EINVAL, "the range is empty (--to before --from)");
  int64_t t = a;
  hfg_field *f = hfg_calloc(s->ncols + 1, sizeof *f);
  if (!f) return HFG_ENOMEM;
  /* Render each period by evaluating the part on the period's first instant
   * (in the column's own representation). */
  for (;;) {
    if (ch->n >= max) {
      hfg_free(f);
      return scheme_errf(em, el, HFG_ETOOBIG, "the range spans more than %zu time buckets", max);
    }
    char txt[64];
    hfg_field v;
    if (p->time_fmt_node >= 0) {
      const snode *fm = &s->nodes[p->time_fmt_node];
      char pat[128];
      memcpy(pat, s->pool + fm->str, fm->slen);
      pat[fm->slen] = '\0';
      int k = hfg_time_format(t, pat, txt, sizeof txt);
      if (k < 0) {
        hfg_free(f);
        return scheme_errf(em, el, HFG_EINVAL, "time outside years 0..9999");
      }
      v = (hfg_field){txt, (size_t)k, 0};
    } else {
      v = (hfg_field){txt, (size_t)snprintf(txt, sizeof txt, "%lld", (long long)t), 0};
    }
    f[col] = v;
    uint8_t out[64];
    size_t n = 0;
    if ((rc = scheme_eval_part(s, pi, f, s->ncols, out, sizeof out, &n, em, el))) break;
    if ((rc = choice_add(ch, out, n))) break;
    /* Next period start. */
    hfg_tm tm;
    hfg_tm_from_millis(t, &tm);
    tm.minute = tm.second = tm.milli = 0;
    if (p->time_fn == F_HOUR) {
      t = hfg_tm_to_millis(&tm) + 3600000;
    } else {
      tm.hour = 0;
      if (p->time_fn == F_DAY) {
        t = hfg_tm_to_millis(&tm) + HFG_MILLIS_PER_DAY;
      } else {
        tm.day = 1;
        if (++tm.month > 12) {
          tm.month = 1;
          tm.year++;
        }
        t = hfg_tm_to_millis(&tm);
      }
    }
    if (t > b) break;
  }
  hfg_free(f);
  return rc;
}

/* "to" minus one unit when the range is exclusive: the last included value
 * for time bucketing (integers only; datetime strings are taken inclusive). */
static hfg_field last_value(hfg_field to, int inclusive, char *buf, size_t cap, const spart *p) {
  if (inclusive || p->time_fmt_node >= 0 || to.len == 0 || to.len >= 32) return to;
  char tmp[32];
  memcpy(tmp, to.p, to.len);
  tmp[to.len] = '\0';
  char *end;
  long long x = strtoll(tmp, &end, 10);
  if (*end) return to;
  return (hfg_field){buf, (size_t)snprintf(buf, cap, "%lld", x - 1), 0};
}

static int cmp_key(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t n = an < bn ? an : bn;
  int c = n ? memcmp(a, b, n) : 0;
  return c ? c : (an > bn) - (an < bn);
}

/* One range in one allocation: start bytes, then stop bytes. */
static int range_set(range *r, const uint8_t *st, size_t sl, const uint8_t *sp, size_t tl) {
  uint8_t *b = hfg_malloc(sl + tl + 1);
  if (!b) return HFG_ENOMEM;
  memcpy(b, st, sl);
  memcpy(b + sl, sp, tl);
  *r = (range){b, b + sl, sl, tl};
  return 0;
}

/* Sorted ranges that overlap (a superset's intervals may) become one, so a
 * client scanning them all gets each row once; touching ranges stay apart.
 * Returns the new count; on HFG_ENOMEM (*rc) every buffer is still in
 * rs[0..count). */
static size_t merge_ranges(range *rs, size_t n, int *rc) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    range *last = k ? &rs[k - 1] : NULL;
    int overlaps = last && (last->tl == 0 || cmp_key(rs[i].start, rs[i].sl, last->stop, last->tl) < 0);
    if (!overlaps || *rc) {
      rs[k++] = rs[i];
      continue;
    }
    if (last->tl && (rs[i].tl == 0 || cmp_key(rs[i].stop, rs[i].tl, last->stop, last->tl) > 0)) {
      range m;
      if (range_set(&m, last->start, last->sl, rs[i].stop, rs[i].tl)) {
        *rc = HFG_ENOMEM;
        rs[k++] = rs[i];
        continue;
      }
      hfg_free(last->start);
      *last = m;
    }
    hfg_free(rs[i].start);
  }
  return k;
}

int hfg_scheme_scan_ranges(const hfg_scheme *s, const char *field, hfg_field from, hfg_field to,
                           int to_inclusive, const hfg_named_value *fixed, size_t nfixed,
                           size_t max_ranges, hfg_keylist **out, hfg_scan_info *info, char *em,
                           size_t el) {
  *out = NULL;
  long rcol = hfg_scheme_column_index(s, field);
  if (rcol < 0 || !s->col_used[rcol])
    return scheme_errf(em, el, HFG_EINVAL, "the template has no column '%s'", field);
  size_t R = s->nparts;
  for (size_t i = 0; i < s->nparts && R == s->nparts; i++)
    if (s->parts[i].order_col == rcol && s->parts[i].time_fn < 0) R = i;
  if (R == s->nparts)
    return scheme_errf(em, el, HFG_EINVAL,
                       "no part of the template keeps the order of '%s' (a plain {%s}, lpad, long, "
                       "int, millis or desc of it): a range on it is not one key range per prefix",
                       field, field);
  if (R > 64)
    return scheme_errf(em, el, HFG_EINVAL, "more than 64 template parts before '%s'", field);
  hfg_field *f;
  int rc = scheme_bind(s, fixed, nfixed, &f, em, el);
  if (rc) return rc;
  if (f[rcol].p) {
    hfg_free(f);
    return scheme_errf(em, el, HFG_EINVAL, "'%s' is the range field; give it with --from/--to only", field);
  }
  choices *ch = hfg_calloc(R + 1, sizeof *ch);
  range *rs = NULL;
  size_t nr = 0, total = 1;
  uint8_t *buf = hfg_malloc(3 * KEY_CAP); /* prefix, start row, stop row */
  scan_part *sp = hfg_malloc(sizeof *sp);
  hfg_scan_info *inf = info ? info : hfg_malloc(sizeof *inf);
  if (!ch || !buf || !sp || !inf) {
    rc = scheme_errf(em, el, HFG_ENOMEM, "out of memory");
    goto done;
  }
  /* The range part first: an empty or reversed range fails before any
   * bucket is enumerated. */
  rc = scan_part_plan(s, R, rcol, f, from, to, to_inclusive, sp, inf, em, el);
  f[rcol] = (hfg_field){NULL, 0, 0};
  if (rc) goto done;
  if (!inf->exact && !info) {
    rc = scheme_errf(em, el, HFG_EINVAL, "the ranges would not be exact: %s", inf->reason);
    goto done;
  }
  char lastbuf[32];
  /* Choices for every part before the range part. */
  for (size_t i = 0; i < R && !rc; i++) {
    const spart *p = &s->parts[i];
    int known = !p->salt_rest;
    for (int k = 0; k < p->ncols; k++) known &= f[p->cols[k]].p != NULL;
    if (p->time_fn >= 0 && p->order_col == rcol) {
      hfg_field last = last_value(to, to_inclusive, lastbuf, sizeof lastbuf, p);
      rc = time_choices(s, i, (int32_t)rcol, from, last, max_ranges, &ch[i], em, el);
    } else if (known) {
      size_t n = 0;
      rc = scheme_eval_part(s, i, f, s->ncols, buf, KEY_CAP, &n, em, el);
      if (!rc && choice_add(&ch[i], buf, n)) rc = HFG_ENOMEM;
    } else if (p->bkind != HFG_BUCKET_NONE && p->buckets <= max_ranges) {
      for (uint64_t b = 0; b < p->buckets && !rc; b++) {
        uint8_t t[SCHEME_BUCKET_MAX];
        size_t n = scheme_render_bucket(p, b, t);
        if (choice_add(&ch[i], t, n)) rc = HFG_ENOMEM;
      }
    } else if (p->bkind != HFG_BUCKET_NONE) {
      rc = scheme_errf(em, el, HFG_ETOOBIG,
                       "template position %u: %llu buckets to enumerate, more than %zu ranges; give "
                       "the fields the bucket is computed from", p->pos + 1,
                       (unsigned long long)p->buckets, max_ranges);
    } else {
      const char *miss = "";
      for (int k = 0; k < p->ncols; k++)
        if (!f[p->cols[k]].p) miss = s->cols[p->cols[k]];
      rc = scheme_errf(em, el, HFG_EINVAL,
                       "template position %u comes before '%s' and needs '%s', which is not given "
                       "and is not a bucket that could be enumerated", p->pos + 1, field,
                       p->ncols ? miss : field);
    }
    if (rc == HFG_ENOMEM) scheme_errf(em, el, HFG_ENOMEM, "out of memory");
    if (!rc) {
      if (total > max_ranges / (ch[i].n ? ch[i].n : 1)) {
        rc = scheme_errf(em, el, HFG_ETOOBIG, "more than %zu ranges", max_ranges);
      }
      total *= ch[i].n;
    }
  }
  if (rc) goto done;
  if (sp->n == 0) { /* scan_part_plan gives every range at least one interval */
    rc = scheme_errf(em, el, HFG_EINVAL, "no key interval for the range of '%s'", field);
    goto done;
  }
  if (total > max_ranges / (size_t)sp->n) {
    rc = scheme_errf(em, el, HFG_ETOOBIG, "more than %zu ranges", max_ranges);
    goto done;
  }
  rs = hfg_calloc(total * (size_t)sp->n, sizeof *rs);
  if (!rs) {
    rc = scheme_errf(em, el, HFG_ENOMEM, "out of memory");
    goto done;
  }
  size_t idx[64] = {0};
  for (size_t t = 0; t < total; t++) {
    /* Prefix from the current choice of each part (odometer over idx). */
    size_t n = 0;
    for (size_t i = 0; i < R; i++) {
      const size_t *o = (const size_t *)ch[i].offs.p;
      size_t k = idx[i], len = o[k + 1] - o[k];
      if (len > KEY_CAP - n) {
        rc = scheme_errf(em, el, HFG_ETOOBIG, "range key longer than %d bytes", KEY_CAP);
        goto done;
      }
      memcpy(buf + n, ch[i].bytes.p + o[k], len);
      n += len;
    }
    for (int j = 0; j < sp->n; j++) {
      const scan_ival *v = &sp->iv[j];
      uint8_t *st = buf + KEY_CAP, *stop = buf + 2 * KEY_CAP;
      size_t sl = n + v->lon, tl = n + v->hin;
      if (sl > KEY_CAP || tl > KEY_CAP) {
        rc = scheme_errf(em, el, HFG_ETOOBIG, "range key longer than %d bytes", KEY_CAP);
        goto done;
      }
      memcpy(st, buf, n);
      memcpy(st + n, v->lo, v->lon);
      if (v->lo_succ) sl = prefix_successor(st, sl);
      memcpy(stop, buf, n);
      memcpy(stop + n, v->hi, v->hin);
      if (v->hi_succ) tl = prefix_successor(stop, tl);
      if (range_set(&rs[nr], st, sl, stop, tl)) {
        rc = scheme_errf(em, el, HFG_ENOMEM, "out of memory");
        goto done;
      }
      nr++;
    }
    for (size_t i = R; i-- > 0;) { /* advance the odometer */
      if (++idx[i] < ch[i].n) break;
      idx[i] = 0;
    }
  }
  qsort(rs, nr, sizeof *rs, cmp_range);
  nr = merge_ranges(rs, nr, &rc);
  if (rc) {
    scheme_errf(em, el, HFG_ENOMEM, "out of memory");
    goto done;
  }
  hfg_keylist *l = keylist_new();
  if (!l) rc = HFG_ENOMEM;
  for (size_t i = 0; i < nr && !rc; i++)
    if (keylist_add(l, rs[i].start, rs[i].sl) || keylist_add(l, rs[i].stop, rs[i].tl)) rc = HFG_ENOMEM;
  if (rc) {
    hfg_keylist_free(l);
    scheme_errf(em, el, HFG_ENOMEM, "out of memory");
  } else {
    *out = l;
  }
done:
  for (size_t i = 0; rs && i < nr; i++) hfg_free(rs[i].start);
  hfg_free(rs);
  for (size_t i = 0; ch && i <= R; i++) {
    hfg_buf_free(&ch[i].bytes);
    hfg_buf_free(&ch[i].offs);
  }
  hfg_free(ch);
  hfg_free(buf);
  hfg_free(sp);
  if (inf != info) hfg_free(inf);
  hfg_free(f);
  return rc;
}
