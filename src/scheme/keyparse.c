/*
 * Old-key patterns (include/hfilegen/keyparse.h): the compiler, which turns
 * a pattern into a flat list of elements and decides once how each text
 * field finds its end, and the parser, which walks that list over one key.
 * Language: format-specs/rowkey-templates.md, "Old-key patterns".
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hfilegen/keyparse.h"
#include "scheme/keyparse_internal.h"
#include "scheme/scheme_internal.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/coding.h"

#define MAX_BYTES_WIDTH 32767 /* HBase's longest row */

/* ---- compiler ---- */

typedef struct kparser {
  const char *t;
  size_t i;
  hfg_buf els, pool, names; /* kelem, bytes, char* */
  hfg_buf qname;            /* the current quoted name */
  char *em;
  size_t el;
  int rc;
  size_t err_at; /* pattern offset of the first error */
} kparser;

static int kerr(kparser *p, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int kerr(kparser *p, size_t pos, const char *fmt, ...) {
  if (p->rc) return p->rc;
  p->rc = HFG_EPARSE;
  p->err_at = pos;
  if (p->em && p->el) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->em, p->el, "template position %zu: %s", pos + 1, msg);
  }
  return p->rc;
}

static int knomem(kparser *p) {
  if (!p->rc) {
    p->rc = HFG_ENOMEM;
    if (p->em && p->el) snprintf(p->em, p->el, "out of memory compiling the old-key pattern");
  }
  return p->rc;
}

static kelem *els(kparser *p) { return (kelem *)p->els.p; }
static size_t nels(kparser *p) { return p->els.len / sizeof(kelem); }
static char **names(kparser *p) { return (char **)p->names.p; }
static size_t nnames(kparser *p) { return p->names.len / sizeof(char *); }

static void skip_ws(kparser *p) {
  while (p->t[p->i] == ' ' || p->t[p->i] == '\t') p->i++;
}

static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* A literal byte at p->i: a plain byte, {{, }} or an escape as in rowkey templates. */
static int literal_byte(kparser *p, uint8_t *b) {
  const char *t = p->t;
  size_t at = p->i;
  char c = t[at];
  if (c == '{' || c == '}') { /* doubled: the callers saw t[at + 1] == c */
    *b = (uint8_t)c;
    p->i += 2;
    return 0;
  }
  if (c != '\\') {
    *b = (uint8_t)c;
    p->i++;
    return 0;
  }
  char d = t[at + 1];
  if (d == '\\' || d == '\'' || d == '{' || d == '}') {
    *b = (uint8_t)d;
    p->i += 2;
    return 0;
  }
  int hi, lo;
  if (d == 'x' && (hi = hexv(t[at + 2])) >= 0 && (lo = hexv(t[at + 3])) >= 0) {
    *b = (uint8_t)(hi << 4 | lo);
    p->i += 4;
    return 0;
  }
  return kerr(p, at, "bad escape (use \\\\, \\', \\{, \\} or \\xNN)");
}

static int add_name(kparser *p, const char *name, size_t n, size_t pos, int32_t *field) {
  for (size_t k = 0; k < nnames(p); k++)
    if (strlen(names(p)[k]) == n && !memcmp(names(p)[k], name, n)) {
      size_t first = 0;
      for (size_t e = 0; e < nels(p); e++)
        if (els(p)[e].field == (int32_t)k) first = els(p)[e].pos;
      return kerr(p, pos, "field '%.*s' appears twice (first at template position %zu): name a "
                  "part that repeats another '_' to skip it", (int)n, name, first + 1);
    }
  if (nnames(p) == HFG_KEYPARSE_MAX_FIELDS)
    return kerr(p, pos, "more than %d named fields", HFG_KEYPARSE_MAX_FIELDS);
  char *c = hfg_malloc(n + 1);
  if (!c) return knomem(p);
  memcpy(c, name, n);
  c[n] = '\0';
  if (hfg_buf_append(&p->names, &c, sizeof c)) {
    hfg_free(c);
    return knomem(p);
  }
  *field = (int32_t)(nnames(p) - 1);
  return 0;
}

/* The type after ':' at p->i into e (kind, width). */
static int parse_type(kparser *p, kelem *e) {
  skip_ws(p);
  size_t at = p->i;
  while (isalpha((unsigned char)p->t[p->i])) p->i++;
  size_t n = p->i - at;
  const char *w = p->t + at;
  if (n == 0)
    return kerr(p, at, "expected a type after ':' (text, long, int, short or bytes:N)");
  if (n == 4 && !memcmp(w, "text", 4)) {
    e->kind = K_TEXT;
  } else if (n == 4 && !memcmp(w, "long", 4)) {
    e->kind = K_NUM, e->width = 8;
  } else if (n == 3 && !memcmp(w, "int", 3)) {
    e->kind = K_NUM, e->width = 4;
  } else if (n == 5 && !memcmp(w, "short", 5)) {
    e->kind = K_NUM, e->width = 2;
  } else if (n == 5 && !memcmp(w, "bytes", 5)) {
    e->kind = K_BYTES;
    skip_ws(p);
    if (p->t[p->i] != ':') return kerr(p, p->i, "bytes needs a width: bytes:N (N bytes)");
    p->i++;
    skip_ws(p);
    size_t npos = p->i;
    if (!isdigit((unsigned char)p->t[p->i])) return kerr(p, npos, "expected a width after 'bytes:'");
    uint64_t v = 0;
    while (isdigit((unsigned char)p->t[p->i])) {
      v = v * 10 + (uint64_t)(p->t[p->i++] - '0');
      if (v > MAX_BYTES_WIDTH) return kerr(p, npos, "bytes width above %d", MAX_BYTES_WIDTH);
    }
    if (v == 0) return kerr(p, npos, "bytes width must be at least 1");
    e->width = (uint32_t)v;
  } else {
    return kerr(p, at, "unknown type '%.*s' (text, long, int, short or bytes:N)", (int)n, w);
  }
  return 0;
}

/* One '{...}' at p->i. */
static int parse_field(kparser *p) {
  kelem e;
  memset(&e, 0, sizeof e);
  e.kind = K_TEXT;
  e.field = -1;
  e.pos = (uint32_t)p->i;
  p->i++;
  skip_ws(p);
  size_t at = p->i;
  const char *name = p->t + at;
  size_t n;
  if (p->t[at] == '"' || p->t[at] == '`') { /* quoted as in templates (names.c) */
    size_t end = 0;
    int qr = scheme_read_quoted(p->t, at, &p->qname, &end);
    if (qr == HFG_ENOMEM) return knomem(p);
    if (qr) return kerr(p, at, "unterminated %cfield name%c", p->t[at], p->t[at]);
    name = (const char *)p->qname.p;
    n = p->qname.len;
    if (n == 0) return kerr(p, at, "empty %cfield name%c", p->t[at], p->t[at]);
    p->i = end;
  } else {
    if (!scheme_ident_start(p->t[at]))
      return kerr(p, at, "expected a field name ({id}, or {_} for a part to skip)");
    while (scheme_ident_char(p->t[p->i])) p->i++;
    n = p->i - at;
  }
  skip_ws(p);
  char c = p->t[p->i];
  if (c == '(' || c == '%')
    return kerr(p, p->i, "an old-key pattern names what each part of the key holds and computes "
                "nothing: {id:long} reads the bytes long(id) wrote, {_} skips a part computed "
                "from others (a bucket, hash or salt)");
  if (c == ':') {
    p->i++;
    if (parse_type(p, &e)) return p->rc;
    skip_ws(p);
    c = p->t[p->i];
  }
  if (c != '}') return kerr(p, p->i, "expected '}'%s", c == ':' ? " (one type per field)" : "");
  p->i++;
  if (!(n == 1 && name[0] == '_') && add_name(p, name, n, at, &e.field)) return p->rc;
  if (hfg_buf_append(&p->els, &e, sizeof e)) return knomem(p);
  return 0;
}

/* How each text field finds its end; an ambiguous pattern is an error. */
static int plan_text_ends(kparser *p) {
  kelem *e = els(p);
  size_t n = nels(p);
  for (size_t i = 0; i < n; i++) {
    if (e[i].kind != K_TEXT) continue;
    size_t fixed = 0, k = i + 1;
    for (; k < n && e[k].kind != K_TEXT; k++) fixed += e[k].kind == K_LIT ? e[k].llen : e[k].width;
    if (i + 1 == n) {
      e[i].end = END_KEY;
    } else if (k == n) {
      e[i].end = END_SUFFIX;
      e[i].suffix = fixed;
    } else if (e[i + 1].kind == K_LIT) {
      e[i].end = END_LIT;
    } else {
      const kelem *x = &e[i + 1];
      return kerr(p, x->pos, "the text field at template position %u, of any length, is "
                  "directly followed by this field and the rest of the pattern is not of fixed "
                  "width: where it ends is unknown (put a literal separator between them, or give "
                  "it a width: {x:bytes:N})", e[i].pos + 1);
    }
  }
  return 0;
}

static int parse_pattern(kparser *p) {
  const char *t = p->t;
  int in_lit = 0;
  while (t[p->i]) {
    char c = t[p->i];
    if (c == '{' && t[p->i + 1] != '{') {
      in_lit = 0;
      size_t at = p->i;
      char advice[1024]; /* {Order Id}: say how to quote the name */
      if (parse_field(p) && p->rc == HFG_EPARSE && p->em && p->el &&
          scheme_quote_advice(p->t, at, p->err_at, NULL, 0, 0, advice, sizeof advice))
        snprintf(p->em + strlen(p->em), p->el - strlen(p->em), "; %s", advice);
      if (p->rc) return p->rc;
      continue;
    }
    if (c == '}' && t[p->i + 1] != '}')
      return kerr(p, p->i, "unmatched '}' (write }} for a literal brace)");
    size_t at = p->i;
    uint8_t b = 0;
    if (literal_byte(p, &b)) return p->rc;
    if (!in_lit) {
      kelem e;
      memset(&e, 0, sizeof e);
      e.kind = K_LIT;
      e.field = -1;
      e.pos = (uint32_t)at;
      e.lit = (uint32_t)p->pool.len;
      if (hfg_buf_append(&p->els, &e, sizeof e)) return knomem(p);
      in_lit = 1;
    }
    if (hfg_buf_put_u8(&p->pool, b)) return knomem(p);
    els(p)[nels(p) - 1].llen++;
  }
  if (nels(p) == 0) return kerr(p, 0, "empty pattern");
  size_t fields = 0;
  for (size_t i = 0; i < nels(p); i++) fields += els(p)[i].kind != K_LIT;
  if (fields == 0)
    return kerr(p, 0, "the pattern has no field: name the key's parts in braces, e.g. '{id}' or "
                "'{_}|{id}'");
  return plan_text_ends(p);
}

static void free_names(char **n, size_t k) {
  for (size_t i = 0; i < k; i++) hfg_free(n[i]);
  hfg_free(n);
}

int hfg_keyparse_compile(const char *pattern, hfg_keyparse **out, char *errmsg, size_t errlen) {
  *out = NULL;
  if (!pattern) {
    if (errmsg && errlen) snprintf(errmsg, errlen, "no old-key pattern");
    return HFG_EINVAL;
  }
  kparser p;
  memset(&p, 0, sizeof p);
  p.t = pattern;
  p.em = errmsg;
  p.el = errlen;
  if (hfg_buf_reserve(&p.pool, 1)) knomem(&p); /* never NULL, also without literals */
  if (!p.rc) parse_pattern(&p);
  hfg_buf_free(&p.qname);
  char *nul = NULL;
  /* the names array ends in NULL and exists with no name: a scheme compiled against it then
   * knows no column, where a NULL array would let it take any */
  if (!p.rc && hfg_buf_append(&p.names, &nul, sizeof nul)) knomem(&p);
  hfg_keyparse *kp = NULL;
  if (!p.rc) {
    kp = hfg_calloc(1, sizeof *kp);
    if (kp) kp->pattern = hfg_strdup(pattern);
    if (!kp || !kp->pattern) knomem(&p);
  }
  if (p.rc) {
    free_names(names(&p), nnames(&p));
    hfg_buf_free(&p.els);
    hfg_buf_free(&p.pool);
    if (kp) hfg_free(kp->pattern);
    hfg_free(kp);
    return p.rc;
  }
  kp->names = names(&p);
  kp->nnames = nnames(&p) - 1;
  kp->el = els(&p);
  kp->nel = nels(&p);
  kp->pool = p.pool.p;
  *out = kp;
  return 0;
}

void hfg_keyparse_free(hfg_keyparse *kp) {
  if (!kp) return;
  free_names(kp->names, kp->nnames);
  hfg_free(kp->el);
  hfg_free(kp->pool);
  hfg_free(kp->pattern);
  hfg_free(kp);
}

const char *hfg_keyparse_pattern(const hfg_keyparse *kp) { return kp->pattern; }
size_t hfg_keyparse_field_count(const hfg_keyparse *kp) { return kp->nnames; }
const char *const *hfg_keyparse_field_names(const hfg_keyparse *kp) {
  return (const char *const *)kp->names;
}

/* ---- parser ---- */

/* p[0..n) escaped (\\, \xNN), at most 40 bytes of it, then "...". */
static const char *show(const uint8_t *p, size_t n, char *buf, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; i < n && o + 8 < cap; i++) {
    if (i == 40) {
      memcpy(buf + o, "...", 3);
      o += 3;
      break;
    }
    uint8_t c = p[i];
    if (c == '\\') buf[o++] = '\\', buf[o++] = '\\';
    else if (c >= 0x20 && c <= 0x7e) buf[o++] = (char)c;
    else o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
  }
  buf[o] = '\0';
  return buf;
}

/* "field 'user'", or for a skipped one "the '_' field at template position 3". */
static const char *label(const hfg_keyparse *kp, const kelem *e, char *buf, size_t cap) {
  if (e->field >= 0) snprintf(buf, cap, "field '%s'", kp->names[e->field]);
  else snprintf(buf, cap, "the '_' field at template position %u", e->pos + 1);
  return buf;
}

static const char *type_name(const kelem *e) {
  if (e->kind == K_BYTES) return "bytes";
  return e->width == 8 ? "long" : e->width == 4 ? "int" : "short";
}

static int perr(char *em, size_t el, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int perr(char *em, size_t el, size_t off, const char *fmt, ...) {
  if (em && el) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(em, el, "byte offset %zu: %s", off, msg);
  }
  return HFG_EPARSE;
}

/* Decimal text of v into out (>= 21 bytes); its length. */
static size_t itoa64(int64_t v, char *out) {
  char tmp[24];
  size_t n = 0;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  size_t o = 0;
  if (v < 0) out[o++] = '-';
  while (n) out[o++] = tmp[--n];
  out[o] = '\0';
  return o;
}

/* First occurrence of needle (m >= 1 bytes) in h[0..n), or NULL. */
static const uint8_t *find(const uint8_t *h, size_t n, const uint8_t *needle, size_t m) {
  while (n >= m) {
    const uint8_t *c = memchr(h, needle[0], n - m + 1);
    if (!c) return NULL;
    if (!memcmp(c, needle, m)) return c;
    n -= (size_t)(c - h) + 1;
    h = c + 1;
  }
  return NULL;
}

int hfg_keyparse_parse(const hfg_keyparse *kp, const uint8_t *key, size_t len,
                       hfg_keyparse_result *r, char *errmsg, size_t errlen) {
  static const uint8_t none[1] = {0};
  if (!key) key = none; /* an empty key */
  size_t off = 0;
  char a[200], b[200];
  for (size_t i = 0; i < kp->nel; i++) {
    const kelem *e = &kp->el[i];
    size_t left = len - off;
    if (e->kind == K_LIT) {
      const uint8_t *lit = kp->pool + e->lit;
      if (left >= e->llen && !memcmp(key + off, lit, e->llen)) {
        off += e->llen;
        continue;
      }
      size_t k = left < e->llen ? left : e->llen; /* what is there instead */
      const char *end = left >= e->llen ? "" : k ? " and the end of the key" : "the end of the key";
      return perr(errmsg, errlen, off, "expected the literal '%s', found %s%s%s%s",
                  show(lit, e->llen, a, sizeof a), k ? "'" : "", show(key + off, k, b, sizeof b),
                  k ? "'" : "", end);
    }
    size_t w = e->width;
    if (e->kind == K_TEXT) {
      if (e->end == END_KEY) {
        w = left;
      } else if (e->end == END_SUFFIX) {
        if (left < e->suffix)
          return perr(errmsg, errlen, off, "%s is followed by %zu byte%s of fixed width to the "
                      "end of the pattern, the key has %zu left", label(kp, e, a, sizeof a),
                      e->suffix, e->suffix == 1 ? "" : "s", left);
        w = left - e->suffix;
      } else {
        const kelem *sep = &kp->el[i + 1];
        const uint8_t *at = find(key + off, left, kp->pool + sep->lit, sep->llen);
        if (!at)
          return perr(errmsg, errlen, off, "%s runs to the literal '%s' after it, which the rest "
                      "of the key does not hold", label(kp, e, a, sizeof a),
                      show(kp->pool + sep->lit, sep->llen, b, sizeof b));
        w = (size_t)(at - (key + off));
      }
    } else if (left < w) {
      return perr(errmsg, errlen, off, "%s (%s) needs %zu byte%s, the key has %zu left",
                  label(kp, e, a, sizeof a), type_name(e), w, w == 1 ? "" : "s", left);
    }
    if (e->field >= 0) {
      hfg_field *f = &r->fields[e->field];
      f->is_null = 0;
      if (e->kind == K_NUM) {
        const uint8_t *q = key + off;
        int64_t v = w == 8 ? (int64_t)hfg_get_be64(q)
                  : w == 4 ? (int64_t)(int32_t)hfg_get_be32(q) : (int64_t)(int16_t)hfg_get_be16(q);
        f->p = r->num[e->field];
        f->len = itoa64(v, r->num[e->field]);
      } else {
        f->p = (const char *)key + off;
        f->len = w;
      }
    }
    off += w;
  }
  if (off != len)
    return perr(errmsg, errlen, off, "the pattern ends, the key has %zu more byte%s ('%s')",
                len - off, len - off == 1 ? "" : "s", show(key + off, len - off, b, sizeof b));
  return 0;
}
