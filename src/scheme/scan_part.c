/*
 * The range part of scan ranges: which byte intervals of its rendering hold
 * the values of the range, and whether byte order there is the field's order
 * (exact ranges) or the intervals are a superset the client must filter.
 * format-specs/rowkey-templates.md, "Exact and superset ranges".
 *
 * Exact: desc() (19 digits), long()/int() (big-endian; a range across 0 is
 * two intervals), lpad() of non-negative integers (longer values are
 * rejected at build), `:0W` zero padding while the range stays below
 * 10^(W-1) (a longer number starts with a non-zero digit, above the range),
 * and a raw string that ends the key or is followed by a \x00 separator.
 * Superset: decimal of varying width (one interval per rendered width; the key
 * of 1000 begins with the key of 100), negative decimals, a raw string
 * followed by more key bytes, lpad() of strings.
 */
#include <stdio.h>
#include <string.h>

#include "scheme/scan_part.h"
#include "util/timefmt.h"

enum { RK_RAW, RK_LPAD, RK_DESC, RK_BIN, RK_MILLIS };

/* analyze.c's order() admits a raw column, lpad, long, int, millis and desc. */
static int range_kind(const hfg_scheme *s, const spart *p) {
  const snode *r = &s->nodes[p->root];
  if (r->kind == N_COL) return RK_RAW;
  switch (r->fn) {
    case F_LPAD: return RK_LPAD;
    case F_DESC: return RK_DESC;
    case F_MILLIS: return RK_MILLIS;
    default: return RK_BIN;
  }
}

/* Decimal int64: optional '-', digits. canonical: no leading zero, no "-0"
 * (a value like 007 is then text, compared as bytes). */
static int parse_int(hfg_field v, int canonical, int64_t *out) {
  const unsigned char *q = (const unsigned char *)v.p;
  size_t i = 0;
  int neg = 0;
  if (v.len && q[0] == '-') {
    neg = 1;
    i = 1;
  }
  if (i == v.len) return -1;
  if (canonical && q[i] == '0' && (v.len - i > 1 || neg)) return -1;
  uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < v.len; i++) {
    unsigned d = (unsigned)(q[i] - '0');
    if (d > 9 || x > (lim - d) / 10) return -1;
    x = x * 10 + d;
  }
  *out = neg ? (int64_t)(0 - x) : (int64_t)x;
  return 0;
}

static int64_t pow10i(int k) { /* k <= 18 */
  int64_t v = 1;
  while (k-- > 0) v *= 10;
  return v;
}

static int digits(int64_t v) { return scheme_digits((uint64_t)v); } /* v >= 0 */

/* v >= 0 in decimal, zero-padded to w: what `{col :0w}` writes for it. */
static size_t render_dec(int64_t v, int w, uint8_t *out) {
  char t[32];
  int n = snprintf(t, sizeof t, "%lld", (long long)v);
  size_t pad = w > n ? (size_t)(w - n) : 0;
  memset(out, '0', pad);
  memcpy(out + pad, t, (size_t)n);
  return pad + (size_t)n;
}

/* The part rendered for the field value v. */
static int eval_at(const hfg_scheme *s, size_t R, long rcol, hfg_field *f, hfg_field v, uint8_t *out,
                   size_t *n, char *em, size_t el) {
  f[rcol] = v;
  *n = 0;
  return scheme_eval_part(s, R, f, s->ncols, out, SCAN_BOUND_CAP, n, em, el);
}

static int eval_int(const hfg_scheme *s, size_t R, long rcol, hfg_field *f, int64_t v, uint8_t *out,
                    size_t *n, char *em, size_t el) {
  char t[32];
  int k = snprintf(t, sizeof t, "%lld", (long long)v);
  return eval_at(s, R, rcol, f, (hfg_field){t, (size_t)k, 0}, out, n, em, el);
}

static scan_ival *iv_add(scan_part *o) {
  scan_ival *v = &o->iv[o->n++];
  v->lon = v->hin = 0;
  v->lo_succ = v->hi_succ = 0;
  return v;
}

/* Every key with the prefix: the superset when nothing tighter is known. */
static void iv_whole(scan_part *o) { iv_add(o)->hi_succ = 1; }

static int copy_bound(uint8_t *dst, size_t *n, const void *p, size_t len, const char *extra,
                      size_t xlen, char *em, size_t el) {
  if (len + xlen > SCAN_BOUND_CAP)
    return scheme_errf(em, el, HFG_EINVAL, "range value longer than %d bytes", SCAN_BOUND_CAP);
  memcpy(dst, p, len);
  memcpy(dst + len, extra, xlen);
  *n = len + xlen;
  return 0;
}

/* The template text of part p, for messages. */
static void part_text(const hfg_scheme *s, const spart *p, char *out, size_t cap) {
  snprintf(out, cap, "%.*s", (int)(p->end - p->pos), s->tmpl + p->pos);
}

/* s's template with part p's text from `from` to its end replaced by repl
 * (trailing blanks before `from` dropped); "" when it does not fit. */
static void template_with(const hfg_scheme *s, const spart *p, size_t from, const char *repl,
                          char *out, size_t cap) {
  size_t k = from;
  while (k > p->pos && (s->tmpl[k - 1] == ' ' || s->tmpl[k - 1] == '\t')) k--;
  int n = snprintf(out, cap, "%.*s%s%s", (int)k, s->tmpl, repl, s->tmpl + p->end);
  if (n < 0 || (size_t)n >= cap) out[0] = '\0';
}

static void filter_text(hfg_scan_info *info, const char *name, hfg_field from, hfg_field to,
                        int incl, const char *how) {
  snprintf(info->filter, sizeof info->filter, "%.*s <= %s %s %.*s (%s)", (int)from.len, from.p, name,
           incl ? "<=" : "<", (int)to.len, to.p, how);
}

/* 1 when every column the template uses, except the range field, is given. */
static int others_given(const hfg_scheme *s, long rcol, const hfg_field *f) {
  for (size_t c = 0; c < s->ncols; c++)
    if (s->col_used[c] && (long)c != rcol && !f[c].p) return 0;
  return 1;
}

/* ---- strings: compared as bytes ---- */

static int plan_string(const hfg_scheme *s, size_t R, int kind, const char *name, hfg_field from,
                       hfg_field to, int incl, scan_part *o, hfg_scan_info *info, char *em,
                       size_t el) {
  const spart *p = &s->parts[R];
  size_t m = from.len < to.len ? from.len : to.len;
  int c = memcmp(from.p, to.p, m);
  if (!c) c = (from.len > to.len) - (from.len < to.len);
  if (c > 0 || (c == 0 && !incl))
    return scheme_errf(em, el, HFG_EINVAL,
                       c ? "--from '%.*s' is after --to '%.*s' (compared as byte strings)"
                         : "the range is empty: --from '%.*s' equals --to '%.*s' and --to is "
                           "exclusive (add --to-inclusive for the one value)",
                       (int)from.len, from.p, (int)to.len, to.p);
  char pt[256];
  part_text(s, p, pt, sizeof pt);
  filter_text(info, name, from, to, incl, "compared as byte strings");
  if (kind != RK_RAW || p->pad) {
    /* lpad() or `:0W` of text: shorter values get fill bytes in front, so
     * their order is not the strings' order anywhere in the prefix. */
    info->exact = 0;
    snprintf(info->reason, sizeof info->reason,
             "template position %u: %s pads text on the left, so the order of the keys is not the "
             "order of the strings: the range covers every key with the prefix", p->pos + 1, pt);
    iv_whole(o);
    return 0;
  }
  int last = R + 1 == s->nparts;
  const spart *nx = last ? NULL : &s->parts[R + 1];
  int nul_after = nx && nx->root < 0 && nx->llen && s->pool[nx->lit] == 0;
  scan_ival *v = iv_add(o);
  int rc = copy_bound(v->lo, &v->lon, from.p, from.len, "", 0, em, el);
  if (rc) return rc;
  if (last || nul_after) {
    /* The key ends with the value (or a \x00 lower than any value byte
     * follows it): prefix order is the value's order. */
    rc = copy_bound(v->hi, &v->hin, to.p, to.len, "\0", incl ? 1 : 0, em, el);
    v->hi_succ = incl && nul_after;
    return rc;
  }
  /* More key bytes follow: a value that is a prefix of to (or of from)
   * sorts by the byte after it. Every value in [from, to] starts with their
   * common prefix c; the stop is the successor of to's first |c| (from == c)
   * or |c|+1 bytes, the shortest prefix of to not below from. */
  size_t cp = 0;
  while (cp < m && from.p[cp] == to.p[cp]) cp++;
  size_t k = from.len == cp ? cp : cp + 1;
  rc = copy_bound(v->hi, &v->hin, to.p, k, "", 0, em, el);
  v->hi_succ = 1;
  info->exact = 0;
  snprintf(info->reason, sizeof info->reason,
           "template position %u: %s is text followed by more key bytes, and a value that begins "
           "another one ('ab' of 'abc') sorts by the byte after it: the ranges hold a superset",
           p->pos + 1, pt);
  template_with(s, p, p->end, "\\x00", info->padded, sizeof info->padded);
  return rc;
}

/* ---- numbers ---- */

/* Decimal rendering (a raw column or millis()): one interval per rendered
 * width; exact only while every value of the range has a leading pad zero. */
static int plan_decimal(const hfg_scheme *s, size_t R, int kind, long rcol, const hfg_field *f,
                        int64_t ta, int incl, scan_part *o, hfg_scan_info *info) {
  const spart *p = &s->parts[R];
  int64_t a = info->first, b = info->last;
  int W = p->pad > 1 ? p->pad : 1;
  int exact = a >= 0 && (W - 1 >= 19 || b < pow10i(W - 1));
  if (a < 0) {
    if (W == 1) { /* every negative number starts with '-' */
      scan_ival *v = iv_add(o);
      v->lo[0] = v->hi[0] = '-';
      v->lon = v->hin = 1;
      v->hi_succ = 1;
    } else {
      iv_whole(o); /* the pad zeros go before the '-' */
    }
  }
  for (int64_t x = a > 0 ? a : 0; b >= 0;) {
    int L = W > digits(x) ? W : digits(x);
    int64_t gend = L >= 19 ? INT64_MAX : pow10i(L) - 1;
    int64_t end = b < gend ? b : gend;
    scan_ival *v = iv_add(o);
    v->lon = render_dec(x, W, v->lo);
    if (end == b && !incl && b < gend) {
      v->hin = render_dec(ta, W, v->hi); /* the old stop row: to itself */
    } else {
      v->hin = render_dec(end, W, v->hi);
      v->hi_succ = 1;
    }
    if (end == b) break;
    x = end + 1;
  }
  if (exact) return 0;
  info->exact = 0;
  char pt[256], how[160] = "", ex[200] = "";
  part_text(s, p, pt, sizeof pt);
  if (W == 1)
    snprintf(how, sizeof how, "writes numbers in decimal without a fixed width");
  else
    snprintf(how, sizeof how, "pads numbers to %d digits, a fixed width only up to %lld", W,
             (long long)(W - 1 >= 18 ? INT64_MAX : pow10i(W - 1) - 1));
  if (b >= 1 && W - 1 <= 18) { /* a value outside the range whose key begins with one inside */
    int64_t c = a > 1 ? a : 1;
    if (W > 1 && c < pow10i(W - 1)) c = pow10i(W - 1);
    int k = (W > digits(b) ? W : digits(b)) + 1 - digits(c);
    if (c <= b && digits(c) + k <= 18)
      snprintf(ex, sizeof ex, " (the key of %lld begins with the key of %lld)",
               (long long)(c * pow10i(k)), (long long)c);
  }
  snprintf(info->reason, sizeof info->reason,
           "template position %u: %s %s, so byte order is not number order%s%s: the ranges hold "
           "a superset", p->pos + 1, pt, how, ex,
           a < 0 ? "; negative numbers sort as text ('-' first, -10 before -9)" : "");
  if (a >= 0) {
    char repl[16];
    int w = digits(b) + 1 > 10 ? digits(b) + 1 : 10;
    snprintf(repl, sizeof repl, " :0%d}", w);
    template_with(s, p, p->expr_end, repl, info->padded, sizeof info->padded);
  } else if (kind == RK_RAW) { /* long() is big-endian: order-preserving for every int64 */
    char repl[300];
    int el = (int)(p->expr_end - p->pos - 1); /* the expression without blanks after it */
    while (el > 0 && (s->tmpl[p->pos + (size_t)el] == ' ' || s->tmpl[p->pos + (size_t)el] == '\t')) el--;
    snprintf(repl, sizeof repl, "{long(%.*s)}", el, s->tmpl + p->pos + 1);
    template_with(s, p, p->pos, repl, info->padded, sizeof info->padded);
  }
  info->gets = kind == RK_RAW && others_given(s, rcol, f);
  return 0;
}

static int millis_of(const hfg_scheme *s, const spart *p, hfg_field v, int64_t *ms, char *em,
                     size_t el) {
  const snode *fm = &s->nodes[s->nodes[p->root].arg[1]];
  char pat[128];
  memcpy(pat, s->pool + fm->str, fm->slen);
  pat[fm->slen] = '\0';
  if (hfg_time_parse(pat, v.p, v.len, ms))
    return scheme_errf(em, el, HFG_EINVAL, "'%.*s' does not match the date format '%s'", (int)v.len,
                       v.p, pat);
  return 0;
}

int scan_part_plan(const hfg_scheme *s, size_t R, long rcol, hfg_field *f, hfg_field from,
                   hfg_field to, int incl, scan_part *o, hfg_scan_info *info, char *em, size_t el) {
  const spart *p = &s->parts[R];
  const char *name = s->cols[rcol];
  int kind = range_kind(s, p), rc;
  memset(info, 0, sizeof *info);
  info->exact = 1;
  o->n = 0;
  int64_t fa, ta;
  if (kind == RK_MILLIS) {
    if ((rc = millis_of(s, p, from, &fa, em, el)) || (rc = millis_of(s, p, to, &ta, em, el))) return rc;
  } else if (kind == RK_RAW || kind == RK_LPAD) {
    int canonical = kind == RK_RAW;
    if (parse_int(from, canonical, &fa) || parse_int(to, canonical, &ta))
      return plan_string(s, R, kind, name, from, to, incl, o, info, em, el);
  } else if (parse_int(from, 0, &fa) || parse_int(to, 0, &ta)) {
    return scheme_errf(em, el, HFG_EINVAL, "%s needs integers: --from '%.*s', --to '%.*s'",
                       kind == RK_DESC ? "desc()" : "long()/int()", (int)from.len, from.p,
                       (int)to.len, to.p);
  }
  int64_t b = ta;
  if (!incl && ta == INT64_MIN) b = INT64_MAX; /* below every value: empty */
  else if (!incl) b = ta - 1;
  if (fa > b || (!incl && ta == INT64_MIN))
    return scheme_errf(em, el, HFG_EINVAL,
                       !incl && fa == ta
                           ? "the range is empty: --from %.*s equals --to %.*s and --to is exclusive "
                             "(add --to-inclusive for the one value)"
                           : "--from %.*s is after --to %.*s (compared as %s)",
                       (int)from.len, from.p, (int)to.len, to.p,
                       kind == RK_MILLIS ? "times" : "integers");
  info->numeric = 1;
  info->first = fa;
  info->last = b;
  uint64_t span = (uint64_t)b - (uint64_t)fa;
  info->values = span == UINT64_MAX ? UINT64_MAX : span + 1;
  if (kind == RK_MILLIS) {
    const snode *fm = &s->nodes[s->nodes[p->root].arg[1]];
    char how[200];
    snprintf(how, sizeof how, "as times in the format '%.*s'", (int)fm->slen, (const char *)s->pool + fm->str);
    filter_text(info, name, from, to, incl, how);
  } else {
    filter_text(info, name, from, to, incl, "as integers");
  }
  scan_ival *v;
  switch (kind) {
    case RK_DESC: /* newest first: to bounds the start */
      v = iv_add(o);
      if ((rc = eval_int(s, R, rcol, f, ta, v->lo, &v->lon, em, el))) return rc;
      v->lo_succ = !incl;
      if ((rc = eval_int(s, R, rcol, f, fa, v->hi, &v->hin, em, el))) return rc;
      v->hi_succ = 1;
      break;
    case RK_BIN: /* two's complement: the negatives sort after the non-negatives */
      if (fa < 0) {
        v = iv_add(o);
        if ((rc = eval_int(s, R, rcol, f, fa, v->lo, &v->lon, em, el)) ||
            (rc = eval_int(s, R, rcol, f, b < 0 ? b : -1, v->hi, &v->hin, em, el)))
          return rc;
        v->hi_succ = 1;
      }
      if (b >= 0) {
        v = iv_add(o);
        if ((rc = eval_int(s, R, rcol, f, fa > 0 ? fa : 0, v->lo, &v->lon, em, el)) ||
            (rc = eval_int(s, R, rcol, f, incl ? b : ta, v->hi, &v->hin, em, el)))
          return rc;
        v->hi_succ = incl;
      }
      break;
    case RK_LPAD: {
      const snode *r = &s->nodes[p->root];
      int w = (int)s->nodes[r->arg[1]].ival;
      uint8_t fill = r->nargs == 3 ? s->pool[s->nodes[r->arg[2]].str] : '0';
      /* Fixed width (longer values are rejected at build). Number order needs
       * a fill at most '0' and above '-': the negatives (lpad takes any text)
       * then sort below every non-negative value. */
      if (fa >= 0 && fill <= '0' && fill > '-') {
        v = iv_add(o);
        int excl = !incl && digits(ta) <= w;
        if ((rc = eval_int(s, R, rcol, f, fa, v->lo, &v->lon, em, el)) ||
            (rc = eval_int(s, R, rcol, f, excl ? ta : b, v->hi, &v->hin, em, el)))
          return rc;
        v->hi_succ = !excl;
        break;
      }
      char pt[256];
      part_text(s, p, pt, sizeof pt);
      info->exact = 0;
      char how[96];
      if (fa < 0)
        snprintf(how, sizeof how, "pads negative numbers before their '-'");
      else
        snprintf(how, sizeof how, "pads with '%c' (only '.', '/' or '0' keep the order of numbers, "
                 "negative ones included)", fill);
      snprintf(info->reason, sizeof info->reason,
               "template position %u: %s %s, so byte order is not number order: the range covers "
               "every key with the prefix", p->pos + 1, pt, how);
      iv_whole(o);
      break;
    }
    default:
      return plan_decimal(s, R, kind, rcol, f, ta, incl, o, info);
  }
  return 0;
}
