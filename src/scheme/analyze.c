/*
 * Compile-time analysis of each template part: the bounds of its rendered
 * width, the columns it reads, whether it is a bounded bucket (the space
 * split keys align to), a time bucket, or follows the order of one column
 * (what scan ranges and the monotonic-prefix lint need).
 * format-specs/rowkey-templates.md, "What the tools infer from a template".
 */
#include <string.h>

#include "scheme/scheme_internal.h"

static int hexlen_of(int fn) { return fn == F_MD5 ? 32 : fn == F_XXHASH64 ? 16 : 8; }

static int is_hash_fn(int fn) {
  return fn == F_CRC32 || fn == F_MD5 || fn == F_MURMUR3 || fn == F_XXHASH64;
}

static void width(const hfg_scheme *s, int32_t i, size_t *mn, size_t *mx) {
  const snode *n = &s->nodes[i];
  size_t a0 = 0, a1 = 0;
  switch (n->kind) {
    case N_COL:
      *mn = 0;
      *mx = SPART_UNBOUNDED;
      return;
    case N_STR:
      *mn = *mx = n->slen;
      return;
    case N_INT:
      *mn = *mx = (size_t)scheme_digits(n->ival < 0 ? (uint64_t)(-(n->ival + 1)) + 1 : (uint64_t)n->ival) +
                  (n->ival < 0);
      return;
    case N_MOD:
      *mn = 1;
      *mx = (size_t)scheme_digits((uint64_t)n->ival - 1);
      return;
    default:
      break;
  }
  const snode *a = n->nargs ? &s->nodes[n->arg[0]] : NULL;
  switch (n->fn) {
    case F_REVERSE:
    case F_UPPER:
    case F_LOWER:
      width(s, n->arg[0], mn, mx);
      return;
    case F_LPAD:
    case F_RPAD:
      *mn = *mx = (size_t)s->nodes[n->arg[1]].ival;
      return;
    case F_SUBSTR: {
      width(s, n->arg[0], &a0, &a1);
      size_t start = (size_t)s->nodes[n->arg[1]].ival;
      size_t rest = a1 == SPART_UNBOUNDED ? SPART_UNBOUNDED : (a1 > start ? a1 - start : 0);
      size_t lim = n->nargs == 3 ? (size_t)s->nodes[n->arg[2]].ival : SPART_UNBOUNDED;
      *mn = 0;
      *mx = rest < lim ? rest : lim;
      return;
    }
    case F_HEX:
      if (a && a->kind == N_CALL && is_hash_fn(a->fn)) {
        *mn = *mx = n->nargs == 2 ? (size_t)s->nodes[n->arg[1]].ival : (size_t)hexlen_of(a->fn);
        return;
      }
      width(s, n->arg[0], &a0, &a1);
      *mn = 2 * a0;
      *mx = a1 == SPART_UNBOUNDED ? SPART_UNBOUNDED : 2 * a1;
      if (n->nargs == 2) {
        size_t k = (size_t)s->nodes[n->arg[1]].ival;
        if (*mn > k) *mn = k;
        if (*mx > k) *mx = k;
      }
      return;
    case F_CRC32:
    case F_MD5:
    case F_MURMUR3:
    case F_XXHASH64:
      *mn = *mx = (size_t)hexlen_of(n->fn);
      return;
    case F_PHOENIX_SALT:
      *mn = *mx = 1;
      return;
    case F_DAY:
      *mn = *mx = 8;
      return;
    case F_HOUR:
      *mn = *mx = 10;
      return;
    case F_MONTH:
      *mn = *mx = 6;
      return;
    case F_MILLIS:
      *mn = 1;
      *mx = 20;
      return;
    case F_DESC:
      *mn = *mx = 19;
      return;
    case F_LONG:
      *mn = *mx = 8;
      return;
    default: /* F_INT */
      *mn = *mx = 4;
      return;
  }
}

static void collect_cols(const hfg_scheme *s, int32_t i, spart *p) {
  const snode *n = &s->nodes[i];
  if (n->kind == N_COL) {
    for (int k = 0; k < p->ncols; k++)
      if (p->cols[k] == n->col) return;
    if (p->ncols < SPART_MAXCOLS) p->cols[p->ncols++] = n->col;
    return;
  }
  if (n->kind == N_MOD) {
    collect_cols(s, n->arg[0], p);
    return;
  }
  if (n->kind == N_CALL)
    for (int k = 0; k < n->nargs; k++) collect_cols(s, n->arg[k], p);
}

static uint64_t pow16(int w) {
  uint64_t v = 1;
  for (int k = 0; k < w && k < 15; k++) v *= 16;
  return v;
}

static void bucket(const hfg_scheme *s, spart *p) {
  const snode *r = &s->nodes[p->root];
  int upper = 0;
  if (r->kind == N_CALL && (r->fn == F_UPPER || r->fn == F_LOWER)) {
    upper = r->fn == F_UPPER;
    const snode *in = &s->nodes[r->arg[0]];
    if (!(in->kind == N_CALL && (in->fn == F_HEX || is_hash_fn(in->fn)))) return;
    r = in;
  }
  if (r->kind == N_MOD && !upper) {
    uint64_t n = (uint64_t)r->ival;
    int d = scheme_digits(n - 1);
    p->bkind = HFG_BUCKET_DECIMAL;
    p->buckets = n;
    p->bwidth = p->pad >= d ? p->pad : (d == 1 ? 1 : 0);
    return;
  }
  if (r->kind != N_CALL) return;
  if (r->fn == F_HEX && s->nodes[r->arg[0]].kind == N_CALL && is_hash_fn(s->nodes[r->arg[0]].fn)) {
    int w = r->nargs == 2 ? (int)s->nodes[r->arg[1]].ival : hexlen_of(s->nodes[r->arg[0]].fn);
    p->bkind = HFG_BUCKET_HEX;
    p->bwidth = w;
    p->blead = p->pad > w ? p->pad - w : 0;
    p->buckets = pow16(w);
    p->bupper = upper;
    return;
  }
  if (is_hash_fn(r->fn)) {
    p->bkind = HFG_BUCKET_HEX;
    p->bwidth = hexlen_of(r->fn);
    p->blead = p->pad > p->bwidth ? p->pad - p->bwidth : 0;
    p->buckets = pow16(p->bwidth);
    p->bupper = upper;
    return;
  }
  if (r->fn == F_PHOENIX_SALT && !upper) {
    p->bkind = HFG_BUCKET_BYTE;
    p->buckets = (uint64_t)s->nodes[r->arg[r->nargs - 1]].ival;
    p->bwidth = 1;
  }
}

static void order(const hfg_scheme *s, spart *p) {
  const snode *r = &s->nodes[p->root];
  if (r->kind == N_COL) {
    p->order_col = r->col;
    return;
  }
  if (r->kind != N_CALL) return;
  const snode *a = &s->nodes[r->arg[0]];
  if (a->kind != N_COL) return;
  switch (r->fn) {
    case F_LPAD:
    case F_LONG:
    case F_INT:
    case F_MILLIS:
      p->order_col = a->col;
      break;
    case F_DESC:
      p->order_col = a->col;
      p->order_desc = 1;
      break;
    case F_DAY:
    case F_HOUR:
    case F_MONTH:
      p->time_fn = r->fn;
      p->time_fmt_node = r->nargs == 2 ? r->arg[1] : -1;
      p->order_col = a->col;
      break;
    case F_REVERSE:
      p->reversed_col = a->col;
      break;
    default:
      break;
  }
}

void scheme_analyze(hfg_scheme *s);
void scheme_analyze(hfg_scheme *s) {
  for (size_t i = 0; i < s->nparts; i++) {
    spart *p = &s->parts[i];
    if (p->root < 0) {
      p->wmin = p->wmax = p->llen;
      continue;
    }
    width(s, p->root, &p->wmin, &p->wmax);
    if ((size_t)p->pad > p->wmin) p->wmin = (size_t)p->pad;
    if (p->wmax != SPART_UNBOUNDED && (size_t)p->pad > p->wmax) p->wmax = (size_t)p->pad;
    collect_cols(s, p->root, p);
    bucket(s, p);
    order(s, p);
  }
}

void hfg_scheme_bucket(const hfg_scheme *s, hfg_bucket_info *out) {
  memset(out, 0, sizeof *out);
  size_t i = 0;
  while (i < s->nparts && s->parts[i].root < 0) i++;
  if (i == s->nparts || s->parts[i].bkind == HFG_BUCKET_NONE) return;
  const spart *p = &s->parts[i];
  out->kind = p->bkind;
  out->buckets = p->buckets;
  out->width = p->bwidth;
  out->upper = p->bupper;
  out->prefix = i ? s->pool + s->parts[0].lit : NULL;
  /* Adjacent literal parts never occur (the parser merges them), so at most one. */
  out->prefix_len = i ? s->parts[0].llen : 0;
}
