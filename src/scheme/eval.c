/*
 * Template evaluation: the per-record hot path of the build pipeline.
 * A value is bytes (borrowed from the record or held in the caller's stack
 * scratch), a signed integer, or a hash (digest bytes plus its integer).
 * Nothing is allocated; the scratch is reset per record.
 * Semantics of each function: format-specs/rowkey-templates.md.
 */
#include <stdio.h>
#include <string.h>

#include "scheme/scheme_internal.h"
#include "util/coding.h"
#include "util/hashes.h"
#include "util/murmur.h"
#include "util/timefmt.h"

enum { V_BYTES, V_INT, V_HASH };

typedef struct val {
  int kind;
  int32_t col;      /* source column for messages, -1 if computed */
  const uint8_t *p; /* V_BYTES: the bytes; V_HASH: the digest (big-endian) */
  size_t len;
  int64_t i;        /* V_INT */
  uint64_t u;       /* V_HASH: the hash as an unsigned integer */
} val;

typedef struct ectx {
  const hfg_scheme *s;
  const hfg_field *f;
  size_t nf;
  uint8_t *scr;
  size_t scap, sused;
  char *em;
  size_t el;
} ectx;

static const char HEXL[] = "0123456789abcdef";

static uint8_t *scratch(ectx *c, size_t n) {
  if (n > c->scap - c->sused) return NULL;
  uint8_t *p = c->scr + c->sused;
  c->sused += n;
  return p;
}

static int too_big(ectx *c, const snode *n) {
  return scheme_errf(c->em, c->el, HFG_ETOOBIG,
                     "template position %u: intermediate value exceeds %d bytes", n->pos + 1,
                     HFG_SCHEME_SCRATCH);
}

/* "column id" or "template position 5" for messages. */
static void where(ectx *c, const val *v, const snode *n, char *out, size_t cap) {
  if (v->col >= 0)
    snprintf(out, cap, "column %s", c->s->cols[v->col]);
  else
    snprintf(out, cap, "template position %u", n->pos + 1);
}

/* Quotes up to 40 bytes of a value, non-printables as '?'. */
static void quote(const uint8_t *p, size_t len, char *out, size_t cap) {
  size_t k = 0, lim = len > 40 ? 40 : len;
  for (size_t i = 0; i < lim && k + 4 < cap; i++) out[k++] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
  if (lim < len && k + 4 < cap) {
    memcpy(out + k, "...", 3);
    k += 3;
  }
  out[k] = '\0';
}

static int not_int(ectx *c, const val *v, const snode *n) {
  char w[160], q[64];
  where(c, v, n, w, sizeof w);
  if (v->kind == V_HASH)
    return scheme_errf(c->em, c->el, HFG_EPARSE, "%s: a hash is not an integer here (use hash %% N)", w);
  quote(v->p, v->len, q, sizeof q);
  /* digits that parse_i64 refused are a number beyond int64, not "not an integer" */
  size_t i = v->len && v->p[0] == '-', k = i;
  while (k < v->len && v->p[k] >= '0' && v->p[k] <= '9') k++;
  if (k == v->len && k > i)
    return scheme_errf(c->em, c->el, HFG_EPARSE,
                       "%s: '%s' is out of the 64-bit integer range (-9223372036854775808 to "
                       "9223372036854775807)",
                       w, q);
  return scheme_errf(c->em, c->el, HFG_EPARSE, "%s: '%s' is not an integer", w, q);
}

/* Decimal int64 parse: optional '-', digits only, no overflow. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* 1..8 decimal digits at p as a number, or -1 when a byte is not a digit. The
 * digits go to the high end of a word whose low bytes are '0' (so a shorter
 * number reads as if zero-padded to 8): loaded as two overlapping 4-byte words
 * (whose shared bytes OR onto themselves), or for 1..3 digits the first,
 * middle and last byte, never a byte past p[n - 1]. A byte is a digit when its
 * high nibble is 3 and adding 6 to it keeps that nibble 3 (0x30..0x39). Then
 * adjacent digits merge pairwise in three multiply-and-shift steps: each lane
 * becomes high * 10 + low (10 = the byte shift's weight per step: 10, 100,
 * 10000). */
static inline int64_t eight_digits(const uint8_t *p, size_t n) {
  uint64_t x;
  if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    x = (uint64_t)a << (8 * (8 - n)) | (uint64_t)b << 32;
  } else {
    x = (uint64_t)p[0] << (8 * (8 - n)) | (uint64_t)p[n / 2] << (8 * (8 - n + n / 2)) |
        (uint64_t)p[n - 1] << 56;
  }
  x |= 0x3030303030303030ull >> (8 * n - 8) >> 8; /* '0' below the digits (none for 8) */
  if (((x & 0xf0f0f0f0f0f0f0f0ull) | (((x + 0x0606060606060606ull) & 0xf0f0f0f0f0f0f0f0ull) >> 4)) !=
      0x3333333333333333ull)
    return -1;
  x &= 0x0f0f0f0f0f0f0f0full;                        /* 8 digits, the first in the low byte */
  x = (x * (1 + (10ull << 8))) >> 8 & 0x00ff00ff00ff00ffull;     /* 4 lanes of 2 digits */
  x = (x * (1 + (100ull << 16))) >> 16 & 0x0000ffff0000ffffull;  /* 2 lanes of 4 digits */
  return (int64_t)((x * (1 + (10000ull << 32))) >> 32);          /* 8 digits */
}
#endif

static int parse_i64(const uint8_t *p, size_t n, int64_t *out) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (n >= 1 && n <= 8 && p[0] != '-') { /* most ids */
    int64_t v = eight_digits(p, n);
    if (v < 0) return -1;
    *out = v;
    return 0;
  }
#endif
  size_t i = 0;
  int neg = 0;
  if (n && p[0] == '-') {
    neg = 1;
    i = 1;
  }
  if (i == n) return -1;
  uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  if (n - i <= 18) {
    /* up to 18 digits cannot overflow: no check per digit */
    for (; i < n; i++) {
      unsigned d = (unsigned)(p[i] - '0');
      if (d > 9) return -1;
      v = v * 10 + d;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
  }
  for (; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return -1;
    unsigned d = (unsigned)(p[i] - '0');
    if (v > (lim - d) / 10) return -1;
    v = v * 10 + d;
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return 0;
}

static int as_int(ectx *c, const val *v, const snode *n, int64_t *out) {
  if (v->kind == V_INT) {
    *out = v->i;
    return 0;
  }
  if (v->kind == V_BYTES && parse_i64(v->p, v->len, out) == 0) return 0;
  return not_int(c, v, n);
}

/* Renders an integer in decimal into scratch. */
static int int_bytes(ectx *c, const snode *n, int64_t x, const uint8_t **p, size_t *len) {
  char tmp[24];
  uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
  size_t k = sizeof tmp;
  do {
    tmp[--k] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (x < 0) tmp[--k] = '-';
  uint8_t *d = scratch(c, sizeof tmp - k);
  if (!d) return too_big(c, n);
  memcpy(d, tmp + k, sizeof tmp - k);
  *p = d;
  *len = sizeof tmp - k;
  return 0;
}

static int as_bytes(ectx *c, const val *v, const snode *n, const uint8_t **p, size_t *len) {
  if (v->kind == V_BYTES) {
    *p = v->p;
    *len = v->len;
    return 0;
  }
  if (v->kind == V_INT) return int_bytes(c, n, v->i, p, len);
  uint8_t *d = scratch(c, 2 * v->len);
  if (!d) return too_big(c, n);
  for (size_t k = 0; k < v->len; k++) {
    d[2 * k] = (uint8_t)HEXL[v->p[k] >> 4];
    d[2 * k + 1] = (uint8_t)HEXL[v->p[k] & 15];
  }
  *p = d;
  *len = 2 * v->len;
  return 0;
}

static int eval_node(ectx *c, int32_t idx, val *out);

static int eval_bytes(ectx *c, int32_t idx, const uint8_t **p, size_t *len, val *v) {
  int rc = eval_node(c, idx, v);
  if (rc) return rc;
  return as_bytes(c, v, &c->s->nodes[idx], p, len);
}

static int set_bytes(val *out, const uint8_t *p, size_t len) {
  out->kind = V_BYTES;
  out->col = -1;
  out->p = p;
  out->len = len;
  return 0;
}

static int time_of(ectx *c, const snode *n, int64_t *ms) {
  val a;
  int rc = eval_node(c, n->arg[0], &a);
  if (rc) return rc;
  if (n->nargs == 1) return as_int(c, &a, n, ms);
  const snode *f = &c->s->nodes[n->arg[1]];
  char pat[128];
  memcpy(pat, c->s->pool + f->str, f->slen);
  pat[f->slen] = '\0';
  const uint8_t *p;
  size_t len;
  if ((rc = as_bytes(c, &a, n, &p, &len))) return rc;
  if (hfg_time_parse(pat, (const char *)p, len, ms) == 0) return 0;
  char w[160], q[64];
  where(c, &a, n, w, sizeof w);
  quote(p, len, q, sizeof q);
  return scheme_errf(c->em, c->el, HFG_EPARSE, "%s: '%s' does not match the date format '%s'", w, q, pat);
}

static int eval_call(ectx *c, const snode *n, val *out) {
  const hfg_scheme *s = c->s;
  const uint8_t *p;
  size_t len;
  val a;
  int rc;
  int64_t x;
  uint8_t *d;
  switch (n->fn) {
    case F_REVERSE:
    case F_UPPER:
    case F_LOWER:
      if ((rc = eval_bytes(c, n->arg[0], &p, &len, &a))) return rc;
      if (!(d = scratch(c, len))) return too_big(c, n);
      for (size_t k = 0; k < len; k++) {
        uint8_t b = n->fn == F_REVERSE ? p[len - 1 - k] : p[k];
        if (n->fn == F_UPPER && b >= 'a' && b <= 'z') b = (uint8_t)(b - 32);
        if (n->fn == F_LOWER && b >= 'A' && b <= 'Z') b = (uint8_t)(b + 32);
        d[k] = b;
      }
      return set_bytes(out, d, len);
    case F_LPAD:
    case F_RPAD: {
      if ((rc = eval_bytes(c, n->arg[0], &p, &len, &a))) return rc;
      size_t w = (size_t)s->nodes[n->arg[1]].ival;
      uint8_t fill = n->nargs == 3 ? s->pool[s->nodes[n->arg[2]].str] : '0';
      if (len > w) {
        char wh[160], q[64];
        where(c, &a, n, wh, sizeof wh);
        quote(p, len, q, sizeof q);
        return scheme_errf(c->em, c->el, HFG_EPARSE, "%s: '%s' is longer than the fixed width %zu", wh, q, w);
      }
      if (!(d = scratch(c, w))) return too_big(c, n);
      if (n->fn == F_LPAD) {
        memset(d, fill, w - len);
        memcpy(d + (w - len), p, len);
      } else {
        memcpy(d, p, len);
        memset(d + len, fill, w - len);
      }
      return set_bytes(out, d, w);
    }
    case F_SUBSTR: {
      if ((rc = eval_bytes(c, n->arg[0], &p, &len, &a))) return rc;
      size_t start = (size_t)s->nodes[n->arg[1]].ival;
      if (start > len) start = len;
      size_t k = len - start;
      if (n->nargs == 3 && (size_t)s->nodes[n->arg[2]].ival < k) k = (size_t)s->nodes[n->arg[2]].ival;
      return set_bytes(out, p + start, k);
    }
    case F_HEX: {
      if ((rc = eval_node(c, n->arg[0], &a))) return rc;
      if (a.kind == V_INT) { /* hex of the 8-byte big-endian integer */
        if (!(d = scratch(c, 8))) return too_big(c, n);
        hfg_put_be64(d, (uint64_t)a.i);
        a.kind = V_HASH;
        a.p = d;
        a.len = 8;
      }
      if (a.kind == V_BYTES) { /* hex of the bytes */
        a.kind = V_HASH;
      }
      if ((rc = as_bytes(c, &a, n, &p, &len))) return rc;
      if (n->nargs == 2 && (size_t)s->nodes[n->arg[1]].ival < len) len = (size_t)s->nodes[n->arg[1]].ival;
      return set_bytes(out, p, len);
    }
    case F_CRC32:
    case F_MD5:
    case F_MURMUR3:
    case F_XXHASH64:
      if ((rc = eval_bytes(c, n->arg[0], &p, &len, &a))) return rc;
      out->kind = V_HASH;
      out->col = -1;
      if (n->fn == F_MD5) {
        if (!(d = scratch(c, HFG_MD5_LEN))) return too_big(c, n);
        hfg_hash_md5(p, len, d);
        out->u = hfg_get_be64(d); /* % N uses the first 8 digest bytes */
        out->p = d;
        out->len = HFG_MD5_LEN;
        return 0;
      }
      if (n->fn == F_XXHASH64) {
        if (!(d = scratch(c, 8))) return too_big(c, n);
        out->u = hfg_hash_xxh64(p, len);
        hfg_put_be64(d, out->u);
        out->p = d;
        out->len = 8;
        return 0;
      }
      if (!(d = scratch(c, 4))) return too_big(c, n);
      out->u = n->fn == F_CRC32 ? hfg_hash_crc32(p, len) : hfg_murmur3_32(p, len, 0);
      hfg_put_be32(d, (uint32_t)out->u);
      out->p = d;
      out->len = 4;
      return 0;
    case F_PHOENIX_SALT:
      if (!(d = scratch(c, 1))) return too_big(c, n);
      if (n->nargs == 1) {
        d[0] = 0; /* placeholder: filled in over the rest of the key */
        return set_bytes(out, d, 1);
      }
      if ((rc = eval_bytes(c, n->arg[0], &p, &len, &a))) return rc;
      d[0] = hfg_phoenix_salt(p, len, (int)s->nodes[n->arg[1]].ival);
      return set_bytes(out, d, 1);
    case F_DAY:
    case F_HOUR:
    case F_MONTH: {
      if ((rc = time_of(c, n, &x))) return rc;
      const char *pat = n->fn == F_DAY ? "yyyyMMdd" : n->fn == F_HOUR ? "yyyyMMddHH" : "yyyyMM";
      if (!(d = scratch(c, 12))) return too_big(c, n);
      int k = hfg_time_format(x, pat, (char *)d, 12);
      if (k < 0)
        return scheme_errf(c->em, c->el, HFG_EPARSE, "template position %u: time %lld is outside years 0..9999",
                           n->pos + 1, (long long)x);
      return set_bytes(out, d, (size_t)k);
    }
    case F_MILLIS:
      if ((rc = time_of(c, n, &x))) return rc;
      out->kind = V_INT;
      out->col = -1;
      out->i = x;
      return 0;
    case F_DESC: {
      if ((rc = eval_node(c, n->arg[0], &a)) || (rc = as_int(c, &a, n, &x))) return rc;
      if (x < 0) {
        char w[160];
        where(c, &a, n, w, sizeof w);
        return scheme_errf(c->em, c->el, HFG_EPARSE, "%s: desc() needs a value >= 0, got %lld", w, (long long)x);
      }
      if (!(d = scratch(c, 19))) return too_big(c, n);
      uint64_t v = (uint64_t)(INT64_MAX - x);
      for (int k = 18; k >= 0; k--, v /= 10) d[k] = (uint8_t)('0' + v % 10);
      return set_bytes(out, d, 19);
    }
    default: { /* F_LONG, F_INT */
      if ((rc = eval_node(c, n->arg[0], &a)) || (rc = as_int(c, &a, n, &x))) return rc;
      if (n->fn == F_INT) {
        if (x < INT32_MIN || x > INT32_MAX) {
          char w[160];
          where(c, &a, n, w, sizeof w);
          return scheme_errf(c->em, c->el, HFG_EPARSE, "%s: %lld does not fit int() (32 bits)", w, (long long)x);
        }
        if (!(d = scratch(c, 4))) return too_big(c, n);
        hfg_put_be32(d, (uint32_t)(int32_t)x);
        return set_bytes(out, d, 4);
      }
      if (!(d = scratch(c, 8))) return too_big(c, n);
      hfg_put_be64(d, (uint64_t)x);
      return set_bytes(out, d, 8);
    }
  }
}

static int eval_node(ectx *c, int32_t idx, val *out) {
  const snode *n = &c->s->nodes[idx];
  switch (n->kind) {
    case N_COL: {
      if ((size_t)n->col >= c->nf || (!c->f[n->col].p && c->f[n->col].len))
        return scheme_errf(c->em, c->el, HFG_EINVAL, "column %s: no value (record has %zu fields)",
                           c->s->cols[n->col], c->nf);
      out->kind = V_BYTES;
      out->col = n->col;
      out->p = (const uint8_t *)c->f[n->col].p;
      out->len = c->f[n->col].len;
      if (!out->p) out->p = (const uint8_t *)"";
      return 0;
    }
    case N_STR:
      return set_bytes(out, c->s->pool + n->str, n->slen);
    case N_INT:
      out->kind = V_INT;
      out->col = -1;
      out->i = n->ival;
      return 0;
    case N_MOD: {
      val a;
      int rc = eval_node(c, n->arg[0], &a);
      if (rc) return rc;
      uint64_t m = (uint64_t)n->ival;
      int64_t r;
      if (a.kind == V_HASH) {
        r = (int64_t)(a.u % m);
      } else {
        int64_t x;
        if ((rc = as_int(c, &a, n, &x))) return rc;
        /* Floor modulo: negative values land in 0..N-1 too. */
        int64_t q = x % (int64_t)m;
        r = q < 0 ? q + (int64_t)m : q;
      }
      out->kind = V_INT;
      out->col = -1;
      out->i = r;
      return 0;
    }
    default:
      return eval_call(c, n, out);
  }
}

/* {col % m} of a field that reads as an integer, as the evaluator computes it
 * (floor modulo); -1 when the field is not an integer (the evaluator says so).
 * Ids of 1..8 digits take the word parse and, below 2^32, a 32-bit division. */
static inline int fast_mod(uint64_t m, const uint8_t *fp, size_t fn, uint64_t *r) {
  int64_t x;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (fn - 1 < 8 && fp[0] != '-') { /* 1..8 bytes */
    if ((x = eight_digits(fp, fn)) < 0) return -1;
    *r = m <= UINT32_MAX ? (uint32_t)x % (uint32_t)m : (uint64_t)x; /* x < 10^8 */
    return 0;
  }
#endif
  if (parse_i64(fp, fn, &x) != 0) return -1;
  int64_t q = x % (int64_t)m;
  *r = (uint64_t)(q < 0 ? q + (int64_t)m : q);
  return 0;
}

/* The n bytes at p, zero padded on the left to pad, at out[0..) (the caller
 * made room for max(pad, n)); its length. */
static inline size_t put_zero_padded(uint8_t *out, const uint8_t *p, size_t n, size_t pad) {
  size_t padn = pad > n ? pad - n : 0;
  if (padn) memset(out, '0', padn);
  hfg_copy(out + padn, p, n);
  return padn + n;
}

/* u in decimal, zero padded to pad, at out[0..); its length. */
static inline size_t put_padded(uint8_t *out, uint64_t u, size_t pad) {
  uint8_t digits[24];
  size_t k = sizeof digits;
  do {
    digits[--k] = (uint8_t)('0' + u % 10);
    u /= 10;
  } while (u);
  return put_zero_padded(out, digits + k, sizeof digits - k, pad);
}

/* A part without the general evaluator: a literal, `{col}` or `{col % N}`
 * (with `:0W`), as the evaluator renders them. Returns 1 when it wrote the
 * part, 0 when the evaluator must (another shape, a missing field, a value
 * that is not an integer, no room: it gives the error). */
static inline int fast_part(const hfg_scheme *s, const spart *sp, const hfg_field *f, size_t nf,
                            uint8_t *out, size_t cap, size_t *len) {
  const size_t at = *len;
  if (sp->fkind == FK_LIT) {
    if (sp->llen > cap - at) return 0;
    hfg_copy(out + at, s->pool + sp->lit, sp->llen);
    *len = at + sp->llen;
    return 1;
  }
  if (sp->fkind == FK_NONE) return 0;
  size_t col = (size_t)sp->fcol;
  if (col >= nf || (!f[col].p && f[col].len)) return 0;
  const uint8_t *fp = (const uint8_t *)f[col].p;
  size_t fn = f[col].len, pad = (size_t)sp->pad;
  if (sp->fkind == FK_MOD) {
    uint64_t u;
    if (!fp || fast_mod((uint64_t)sp->fmod, fp, fn, &u)) return 0;
    uint8_t tmp[24 + 64];
    size_t k = put_padded(tmp, u, pad);
    if (k > cap - at) return 0;
    hfg_copy(out + at, tmp, k);
    *len = at + k;
    return 1;
  }
  if ((pad > fn ? pad : fn) > cap - at) return 0;
  *len = at + put_zero_padded(out + at, fp, fn, pad);
  return 1;
}

/* The whole key by s->fops (literals, {col}, {col % N}); 1 when it wrote it,
 * 0 when the general path must (a missing field or value, not an integer,
 * maybe no room: it decides and says why). May write past the key (at most 8
 * bytes beyond a literal's end, up to 88 past a number's), never past cap. */
static inline int fast_key(const hfg_scheme *s, const hfg_field *f, size_t nf, uint8_t *out,
                           size_t cap, size_t *len) {
  if (nf < s->fops_cols) return 0;
  size_t n = 0;
  for (const sfop *op = s->fops, *end = op + s->nparts; op < end; op++) {
    const hfg_field *fl = &f[op->col];
    const uint8_t *fp = (const uint8_t *)fl->p;
    const size_t fn = fl->len;
    uint64_t u;
    switch (op->kind) {
      case FOP_WORD:
        if (cap - n < 8) return 0;
        memcpy(out + n, &op->v, 8);
        n += op->len;
        break;
      case FOP_LIT:
        if (cap - n < op->len) return 0;
        hfg_copy(out + n, s->pool + op->v, op->len);
        n += op->len;
        break;
      case FOP_COL: {
        if (!fp && fn) return 0; /* no value */
        if (cap - n < (op->pad > fn ? op->pad : fn)) return 0;
        n += put_zero_padded(out + n, fp, fn, op->pad);
        break;
      }
      case FOP_MOD1: /* no bytes (fp NULL: no value, or empty) is no integer */
        if (cap == n || !fp || fast_mod(op->v, fp, fn, &u)) return 0;
        out[n++] = (uint8_t)('0' + u);
        break;
      default: /* FOP_MOD */
        if (cap - n < 24 + 64 || !fp || fast_mod(op->v, fp, fn, &u)) return 0;
        n += put_padded(out + n, u, op->pad);
        break;
    }
  }
  *len = n;
  return 1;
}

/* One part into out; c carries the record and a scratch the caller resets. */
static int eval_part(ectx *c, size_t part, uint8_t *out, size_t cap, size_t *len) {
  const hfg_scheme *s = c->s;
  const spart *sp = &s->parts[part];
  if (fast_part(s, sp, c->f, c->nf, out, cap, len)) return 0;
  if (sp->root < 0)
    return scheme_errf(c->em, c->el, HFG_ETOOBIG, "rowkey longer than %zu bytes", cap);
  val v;
  const uint8_t *p;
  size_t n;
  int rc = eval_node(c, sp->root, &v);
  if (!rc) rc = as_bytes(c, &v, &s->nodes[sp->root], &p, &n);
  if (rc) return rc;
  size_t padn = (size_t)sp->pad > n ? (size_t)sp->pad - n : 0;
  if (padn + n > cap - *len)
    return scheme_errf(c->em, c->el, HFG_ETOOBIG, "rowkey longer than %zu bytes", cap);
  if (padn) memset(out + *len, '0', padn);
  hfg_copy(out + *len + padn, p, n);
  *len += padn + n;
  return 0;
}

int scheme_eval_part(const hfg_scheme *s, size_t part, const hfg_field *fields, size_t nfields,
                     uint8_t *out, size_t cap, size_t *len, char *errmsg, size_t errlen) {
  uint8_t scr[HFG_SCHEME_SCRATCH];
  ectx c = {s, fields, nfields, scr, sizeof scr, 0, errmsg, errlen};
  return eval_part(&c, part, out, cap, len);
}

/* fast_key for the shape of the salt presets, {a % N}<literal of <= 8
 * bytes>{b}, in a straight line; 1 when it wrote the key, 0 when fast_key or
 * the general path must (no value, not an integer, a key near cap). */
static inline int fast_salt(const hfg_scheme *s, const hfg_field *f, size_t nf, uint8_t *out,
                            size_t cap, size_t *len) {
  const sfop *ops = s->fops;
  if (nf < s->fops_cols) return 0;
  const uint8_t *mp = (const uint8_t *)f[ops[0].col].p, *cp = (const uint8_t *)f[ops[2].col].p;
  const size_t mn = f[ops[0].col].len, cn = f[ops[2].col].len;
  uint64_t u;
  /* room for a padded number (24 + 64), the literal's 8-byte store and b */
  if (!mp || (!cp && cn) || cap < 24 + 64 + 8 || cap - (24 + 64 + 8) < cn ||
      fast_mod(ops[0].v, mp, mn, &u))
    return 0;
  size_t n;
  if (ops[0].kind == FOP_MOD1) {
    out[0] = (uint8_t)('0' + u);
    n = 1;
  } else {
    n = put_padded(out, u, ops[0].pad);
  }
  memcpy(out + n, &ops[1].v, 8);
  n += ops[1].len;
  hfg_copy(out + n, cp, cn);
  *len = n + cn;
  return 1;
}

static __attribute__((noinline)) int eval_rest(const hfg_scheme *s, const hfg_field *fields,
                                               size_t nfields, uint8_t *out, size_t cap,
                                               size_t *len, char *errmsg, size_t errlen);

/* The general way: every part through eval_part, one scratch for the record. */
static __attribute__((noinline)) int eval_general(const hfg_scheme *s, const hfg_field *fields,
                                                  size_t nfields, uint8_t *out, size_t cap,
                                                  size_t *len, char *errmsg, size_t errlen) {
  size_t n = 0, salt_at = 0;
  uint8_t scr[HFG_SCHEME_SCRATCH];
  ectx c = {s, fields, nfields, scr, sizeof scr, 0, errmsg, errlen};
  for (size_t i = 0; i < s->nparts; i++) {
    if ((int)i == s->salt_rest_part) salt_at = n;
    c.sused = 0; /* each part starts the scratch afresh */
    int rc = eval_part(&c, i, out, cap, &n);
    if (rc) return rc;
  }
  if (s->salt_rest_part >= 0) {
    const snode *r = &s->nodes[s->parts[s->salt_rest_part].root];
    out[salt_at] = hfg_phoenix_salt(out + salt_at + 1, n - salt_at - 1, (int)s->nodes[r->arg[0]].ival);
  }
  *len = n;
  return 0;
}

int hfg_scheme_eval(const hfg_scheme *s, const hfg_field *fields, size_t nfields, uint8_t *out,
                    size_t cap, size_t *len, char *errmsg, size_t errlen) {
  /* the salt presets' shape in a straight line, else eval_rest: the ops,
   * else the whole record again the general way */
  if (s->fops_salt && fast_salt(s, fields, nfields, out, cap, len)) return 0;
  return eval_rest(s, fields, nfields, out, cap, len, errmsg, errlen);
}

/* The ops, else the general path. */
static int eval_rest(const hfg_scheme *s, const hfg_field *fields, size_t nfields, uint8_t *out,
                     size_t cap, size_t *len, char *errmsg, size_t errlen) {
  if (s->fops && fast_key(s, fields, nfields, out, cap, len)) return 0;
  return eval_general(s, fields, nfields, out, cap, len, errmsg, errlen);
}

size_t scheme_render_bucket(const spart *p, uint64_t b, uint8_t *out) {
  if (p->bkind == HFG_BUCKET_BYTE) {
    out[0] = (uint8_t)b;
    return 1;
  }
  const char *digits = p->bkind == HFG_BUCKET_HEX ? (p->bupper ? "0123456789ABCDEF" : HEXL) : HEXL;
  unsigned base = p->bkind == HFG_BUCKET_HEX ? 16 : 10;
  char tmp[32];
  size_t k = sizeof tmp;
  do {
    tmp[--k] = digits[b % base];
    b /= base;
  } while (b);
  size_t n = sizeof tmp - k;
  size_t w = (size_t)(p->bkind == HFG_BUCKET_HEX ? p->bwidth : (p->pad > 0 ? p->pad : 0));
  if (p->bkind == HFG_BUCKET_HEX && w > 16) w = 16;
  /* a hex bucket's `:0W` pads its bwidth digits on the left, as eval does */
  if (p->bkind == HFG_BUCKET_HEX) w += (size_t)p->blead;
  size_t padn = w > n ? w - n : 0;
  memset(out, '0', padn);
  memcpy(out + padn, tmp + k, n);
  return padn + n;
}
