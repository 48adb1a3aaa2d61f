/*
 * Template compiler: parses a rowkey template (or expands a preset) into the
 * part and node arrays of scheme_internal.h and runs the per-part analysis.
 * Grammar and semantics: format-specs/rowkey-templates.md.
 *
 *   template := ( literal | '{' expr [ ':' ['0'] width ] '}' )*
 *   expr     := term [ '%' integer ]
 *   term     := column | integer | 'string' | name '(' expr {',' expr} ')'
 *   column   := name | '"' any '"' | '`' any '`'   (the quote doubled inside: names.c)
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scheme/scheme_internal.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/timefmt.h"

#define MAX_DEPTH 16

int scheme_errf(char *errmsg, size_t errlen, int code, const char *fmt, ...) {
  if (errmsg && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errmsg, errlen, fmt, ap);
    va_end(ap);
  }
  return code;
}

int scheme_digits(uint64_t v) {
  int d = 1;
  while (v >= 10) {
    v /= 10;
    d++;
  }
  return d;
}

/* name, min and max argument count. */
static const struct {
  const char *name;
  int min, max;
} FNS[F_COUNT_] = {
    [F_REVERSE] = {"reverse", 1, 1},   [F_LPAD] = {"lpad", 2, 3},
    [F_RPAD] = {"rpad", 2, 3},         [F_SUBSTR] = {"substr", 2, 3},
    [F_HEX] = {"hex", 1, 2},           [F_UPPER] = {"upper", 1, 1},
    [F_LOWER] = {"lower", 1, 1},       [F_CRC32] = {"crc32", 1, 1},
    [F_MD5] = {"md5", 1, 1},           [F_MURMUR3] = {"murmur3", 1, 1},
    [F_XXHASH64] = {"xxhash64", 1, 1}, [F_PHOENIX_SALT] = {"phoenix_salt", 1, 2},
    [F_DAY] = {"day", 1, 2},           [F_HOUR] = {"hour", 1, 2},
    [F_MONTH] = {"month", 1, 2},       [F_MILLIS] = {"millis", 2, 2},
    [F_DESC] = {"desc", 1, 1},         [F_LONG] = {"long", 1, 1},
    [F_INT] = {"int", 1, 1},
};

typedef struct parser {
  const char *t;
  size_t i;
  int discover; /* columns come from the template */
  hfg_buf nodes, parts, pool, cols; /* cols: char* array */
  hfg_buf qname;                    /* the current quoted name */
  char *em;
  size_t el;
  int rc;
  size_t err_at;                    /* template offset of the first error */
} parser;

static int perr(parser *p, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(parser *p, size_t pos, const char *fmt, ...) {
  if (p->rc) return p->rc;
  p->rc = HFG_EPARSE;
  p->err_at = pos;
  if (p->em && p->el) {
    char msg[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->em, p->el, "template position %zu: %s", pos + 1, msg);
  }
  return p->rc;
}

static int nomem(parser *p) {
  if (!p->rc) {
    p->rc = HFG_ENOMEM;
    scheme_errf(p->em, p->el, HFG_ENOMEM, "out of memory compiling the template");
  }
  return p->rc;
}

static snode *node_at(parser *p, int32_t i) { return (snode *)p->nodes.p + i; }
static size_t nnodes(parser *p) { return p->nodes.len / sizeof(snode); }

static int32_t new_node(parser *p, uint8_t kind, size_t pos) {
  snode n;
  memset(&n, 0, sizeof n);
  n.kind = kind;
  n.col = -1;
  n.pos = (uint32_t)pos;
  for (int k = 0; k < SNODE_MAXARGS; k++) n.arg[k] = -1;
  if (hfg_buf_append(&p->nodes, &n, sizeof n)) return nomem(p), -1;
  return (int32_t)(nnodes(p) - 1);
}

static void skip_ws(parser *p) {
  while (p->t[p->i] == ' ' || p->t[p->i] == '\t') p->i++;
}

static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Reads a backslash escape at p->i (\\, \', \{, \}, \xNN) into *b. */
static int read_escape(parser *p, uint8_t *b) {
  size_t at = p->i;
  char c = p->t[at + 1];
  if (c == '\\' || c == '\'' || c == '{' || c == '}') {
    *b = (uint8_t)c;
    p->i += 2;
    return 0;
  }
  int hi, lo;
  if (c == 'x' && (hi = hexv(p->t[at + 2])) >= 0 && (lo = hexv(p->t[at + 3])) >= 0) {
    *b = (uint8_t)(hi << 4 | lo);
    p->i += 4;
    return 0;
  }
  return perr(p, at, "bad escape (use \\\\, \\', \\{, \\} or \\xNN)");
}

static int32_t find_or_add_col(parser *p, const char *name, size_t n, size_t pos) {
  char **cols = (char **)p->cols.p;
  size_t nc = p->cols.len / sizeof(char *);
  for (size_t k = 0; k < nc; k++)
    if (strlen(cols[k]) == n && !memcmp(cols[k], name, n)) return (int32_t)k;
  if (!p->discover) {
    char hint[400];
    hfg_columns_hint(hint, sizeof hint, (const char *const *)cols, nc, name, n);
    perr(p, pos, "unknown column '%.*s'%s", (int)n, name, hint);
    return -1;
  }
  char *c = hfg_malloc(n + 1);
  if (!c) return nomem(p), -1;
  memcpy(c, name, n);
  c[n] = '\0';
  if (hfg_buf_append(&p->cols, &c, sizeof c)) {
    hfg_free(c);
    return nomem(p), -1;
  }
  return (int32_t)nc;
}

static int32_t parse_expr(parser *p, int depth);

static int32_t parse_term(parser *p, int depth) {
  skip_ws(p);
  size_t pos = p->i;
  char c = p->t[pos];
  if (depth > MAX_DEPTH) return perr(p, pos, "expression nested too deeply"), -1;
  if (c == '\'') { /* string literal */
    p->i++;
    uint32_t off = (uint32_t)p->pool.len;
    for (;;) {
      char d = p->t[p->i];
      if (!d) return perr(p, pos, "unterminated string"), -1;
      if (d == '\'') {
        p->i++;
        break;
      }
      uint8_t b = (uint8_t)d;
      if (d == '\\') {
        if (read_escape(p, &b)) return -1;
      } else {
        p->i++;
      }
      if (hfg_buf_put_u8(&p->pool, b)) return nomem(p), -1;
    }
    int32_t n = new_node(p, N_STR, pos);
    if (n < 0) return -1;
    node_at(p, n)->str = off;
    node_at(p, n)->slen = (uint32_t)(p->pool.len - off);
    return n;
  }
  if (isdigit((unsigned char)c) || (c == '-' && isdigit((unsigned char)p->t[pos + 1]))) {
    int neg = c == '-';
    if (neg) p->i++;
    uint64_t v = 0;
    while (isdigit((unsigned char)p->t[p->i])) {
      v = v * 10 + (uint64_t)(p->t[p->i++] - '0');
      if (v > (uint64_t)INT64_MAX) return perr(p, pos, "integer out of range"), -1;
    }
    int32_t n = new_node(p, N_INT, pos);
    if (n < 0) return -1;
    node_at(p, n)->ival = neg ? -(int64_t)v : (int64_t)v;
    return n;
  }
  const char *name;
  size_t nlen;
  if (c == '"' || c == '`') { /* a quoted column name */
    size_t end = 0;
    int qr = scheme_read_quoted(p->t, pos, &p->qname, &end);
    if (qr == HFG_ENOMEM) return nomem(p), -1;
    if (qr)
      return perr(p, pos, c == '"' ? "unterminated \"column name\" (a \" inside is written \"\")"
                                   : "unterminated `column name` (a ` inside is written ``)"), -1;
    p->i = end;
    int32_t col = find_or_add_col(p, (const char *)p->qname.p, p->qname.len, pos);
    if (col < 0) return -1;
    int32_t n = new_node(p, N_COL, pos);
    if (n >= 0) node_at(p, n)->col = col;
    return n;
  }
  if (!scheme_ident_start(c))
    return perr(p, pos, "expected a column, function, number or 'string' (a column name with "
                "other characters than letters, digits, _ . - is written in double quotes: "
                "{\"Order Id\"})"), -1;
  name = p->t + pos;
  while (scheme_ident_char(p->t[p->i])) p->i++;
  nlen = p->i - pos;
  size_t after = p->i;
  skip_ws(p);
  if (p->t[p->i] != '(') { /* a column */
    p->i = after;
    int32_t col = find_or_add_col(p, name, nlen, pos);
    if (col < 0) return -1;
    int32_t n = new_node(p, N_COL, pos);
    if (n >= 0) node_at(p, n)->col = col;
    return n;
  }
  int fn = -1;
  for (int k = 0; k < F_COUNT_; k++)
    if (strlen(FNS[k].name) == nlen && !memcmp(FNS[k].name, name, nlen)) fn = k;
  if (fn < 0) return perr(p, pos, "unknown function '%.*s'", (int)nlen, name), -1;
  p->i++; /* '(' */
  int32_t args[SNODE_MAXARGS];
  int nargs = 0;
  skip_ws(p);
  if (p->t[p->i] != ')') {
    for (;;) {
      if (nargs == SNODE_MAXARGS) return perr(p, p->i, "too many arguments to %s", FNS[fn].name), -1;
      int32_t a = parse_expr(p, depth + 1);
      if (a < 0) return -1;
      args[nargs++] = a;
      skip_ws(p);
      if (p->t[p->i] == ',') {
        p->i++;
        continue;
      }
      if (p->t[p->i] == ')') break;
      return perr(p, p->i, "expected ',' or ')' in %s(...)", FNS[fn].name), -1;
    }
  }
  p->i++; /* ')' */
  if (nargs < FNS[fn].min || nargs > FNS[fn].max) {
    if (FNS[fn].min == FNS[fn].max)
      return perr(p, pos, "%s takes %d argument%s", FNS[fn].name, FNS[fn].min,
                  FNS[fn].min == 1 ? "" : "s"), -1;
    return perr(p, pos, "%s takes %d to %d arguments", FNS[fn].name, FNS[fn].min, FNS[fn].max), -1;
  }
  int32_t n = new_node(p, N_CALL, pos);
  if (n < 0) return -1;
  snode *nd = node_at(p, n);
  nd->fn = (uint8_t)fn;
  nd->nargs = (uint8_t)nargs;
  for (int k = 0; k < nargs; k++) nd->arg[k] = args[k];
  return n;
}

static int32_t parse_expr(parser *p, int depth) {
  int32_t t = parse_term(p, depth);
  if (t < 0) return -1;
  skip_ws(p);
  if (p->t[p->i] != '%') return t;
  size_t pos = p->i++;
  skip_ws(p);
  if (!isdigit((unsigned char)p->t[p->i])) return perr(p, p->i, "expected a bucket count after '%%'"), -1;
  size_t npos = p->i; /* errors about the count point at it */
  uint64_t v = 0;
  while (isdigit((unsigned char)p->t[p->i])) {
    v = v * 10 + (uint64_t)(p->t[p->i++] - '0');
    if (v > (uint64_t)INT64_MAX) return perr(p, npos, "bucket count out of range"), -1;
  }
  if (v < 1) return perr(p, npos, "bucket count must be at least 1"), -1;
  int32_t n = new_node(p, N_MOD, pos);
  if (n < 0) return -1;
  node_at(p, n)->arg[0] = t;
  node_at(p, n)->nargs = 1;
  node_at(p, n)->ival = (int64_t)v;
  return n;
}

/* Argument `k` of call n must be an integer literal in [lo, hi]. */
static int want_int(parser *p, const snode *n, int k, int64_t lo, int64_t hi, const char *what) {
  const snode *a = node_at(p, n->arg[k]);
  if (a->kind != N_INT || a->ival < lo || a->ival > hi)
    return perr(p, a->pos, "%s of %s must be an integer %lld..%lld", what, FNS[n->fn].name,
                (long long)lo, (long long)hi);
  return 0;
}

static int want_str(parser *p, const snode *n, int k, const char *what) {
  const snode *a = node_at(p, n->arg[k]);
  if (a->kind != N_STR) return perr(p, a->pos, "%s of %s must be a 'string'", what, FNS[n->fn].name);
  return 0;
}

static int is_hash(const snode *n) {
  return n->kind == N_CALL && (n->fn == F_CRC32 || n->fn == F_MD5 || n->fn == F_MURMUR3 ||
                               n->fn == F_XXHASH64);
}

static int hash_hexlen(int fn) { return fn == F_MD5 ? 32 : fn == F_XXHASH64 ? 16 : 8; }

/* What a node makes when that is binary bytes (long, int, phoenix_salt),
 * else NULL: no text of digits, so no `:0W` pad and no integer reading. */
static const char *binary_value(const snode *a) {
  if (a->kind != N_CALL) return NULL;
  return a->fn == F_LONG ? "8 binary bytes" : a->fn == F_INT ? "4 binary bytes"
       : a->fn == F_PHOENIX_SALT ? "one binary byte" : NULL;
}

/* An argument read as a number (of %, long, int, desc, day, hour, month,
 * millis) that can never be one fails every record at build: refused here.
 * A hash is a number to % (its buckets) but to none of the others. */
static int check_number_arg(parser *p, const snode *n, const char *reader) {
  const snode *a = node_at(p, n->arg[0]);
  const char *bin = binary_value(a);
  if (bin)
    return perr(p, a->pos, "%s(...) makes %s, which %s cannot read as a number; apply it to the "
                "column itself (e.g. {id %% 4}, {long(id)})", FNS[a->fn].name, bin, reader);
  if (n->kind == N_CALL && is_hash(a))
    return perr(p, a->pos, "%s cannot read a hash (%s(...)) as a number; use {%s(x) %% N} "
                "for hash buckets or hex(%s(x), n) for its digits", reader, FNS[a->fn].name,
                FNS[a->fn].name, FNS[a->fn].name);
  return 0;
}

/* Checks literal arguments of every call (they must be constants), and that
 * what a call or % reads as a number can be one (check_number_arg). */
static int check_calls(parser *p) {
  for (size_t i = 0; i < nnodes(p); i++) {
    const snode *n = node_at(p, (int32_t)i);
    if (n->kind == N_MOD && check_number_arg(p, n, "%")) return p->rc;
    if (n->kind != N_CALL) continue;
    switch (n->fn) {
      case F_LPAD:
      case F_RPAD:
        if (want_int(p, n, 1, 1, 4096, "width")) return p->rc;
        if (n->nargs == 3) {
          if (want_str(p, n, 2, "pad character")) return p->rc;
          if (node_at(p, n->arg[2])->slen != 1)
            return perr(p, node_at(p, n->arg[2])->pos, "pad character must be one byte");
        }
        break;
      case F_SUBSTR:
        if (want_int(p, n, 1, 0, 4096, "start")) return p->rc;
        if (n->nargs == 3 && want_int(p, n, 2, 0, 4096, "length")) return p->rc;
        break;
      case F_HEX:
        if (n->nargs == 2) {
          int max = is_hash(node_at(p, n->arg[0])) ? hash_hexlen(node_at(p, n->arg[0])->fn) : 4096;
          if (want_int(p, n, 1, 1, max, "length")) return p->rc;
        }
        break;
      case F_PHOENIX_SALT:
        if (want_int(p, n, n->nargs - 1, 1, 256, "bucket count")) return p->rc;
        break;
      case F_LONG:
      case F_INT:
      case F_DESC:
        if (check_number_arg(p, n, FNS[n->fn].name)) return p->rc;
        break;
      case F_DAY:
      case F_HOUR:
      case F_MONTH:
      case F_MILLIS:
        if (check_number_arg(p, n, FNS[n->fn].name)) return p->rc;
        if (n->nargs == 2) {
          if (want_str(p, n, 1, "format")) return p->rc;
          const snode *f = node_at(p, n->arg[1]);
          char pat[128];
          if (f->slen >= sizeof pat) return perr(p, f->pos, "date format too long");
          memcpy(pat, p->pool.p + f->str, f->slen);
          pat[f->slen] = '\0';
          char why[256];
          if (hfg_time_pattern_explain(pat, why, sizeof why))
            return perr(p, f->pos, "bad date format '%s': %s", pat, why);
        }
        break;
      default:
        break;
    }
  }
  return 0;
}

static int add_part(parser *p, const spart *sp) {
  if (hfg_buf_append(&p->parts, sp, sizeof *sp)) return nomem(p);
  return 0;
}

static void part_init(spart *sp, size_t pos) {
  memset(sp, 0, sizeof *sp);
  sp->root = -1;
  sp->pos = (uint32_t)pos;
  sp->time_fn = -1;
  sp->order_col = -1;
  sp->reversed_col = -1;
  sp->time_fmt_node = -1;
}

/* One '{' expr [':' width] '}' part, its '{' at pos. */
static int parse_part(parser *p, size_t pos) {
  const char *t = p->t;
  p->i++;
  spart sp;
  part_init(&sp, pos);
  sp.root = parse_expr(p, 0);
  if (sp.root < 0) return p->rc;
  sp.expr_end = (uint32_t)p->i;
  skip_ws(p);
  size_t pad_pos = p->i;
  if (t[p->i] == ':') {
    p->i++;
    skip_ws(p);
    int w = 0;
    size_t wpos = p->i; /* errors about the width point at it, not at the part's '{' */
    if (!isdigit((unsigned char)t[p->i])) return perr(p, p->i, "expected a width after ':' (e.g. :02)");
    while (isdigit((unsigned char)t[p->i])) {
      w = w * 10 + (t[p->i++] - '0');
      if (w > 64) return perr(p, wpos, "pad width above 64");
    }
    skip_ws(p);
    if (t[p->i] != '}')
      return perr(p, p->i, "expected '}' after the pad width (':0N' pads with zeros to N "
                           "characters, e.g. :02)");
    if (w == 0) return perr(p, wpos, "pad width must be at least 1");
    sp.pad = w;
  }
  if (t[p->i] != '}') return perr(p, p->i, "expected '}'");
  p->i++;
  sp.end = (uint32_t)p->i;
  const snode *r = node_at(p, sp.root);
  if (sp.pad && binary_value(r))
    return perr(p, pad_pos, "%s(...) makes %s, not text: a ':0%d' pad would put '0' "
                "characters in front of it (pads are for digits and text)", FNS[r->fn].name,
                binary_value(r), sp.pad);
  if (r->kind == N_CALL && r->fn == F_PHOENIX_SALT && r->nargs == 1) sp.salt_rest = 1;
  if (add_part(p, &sp)) return p->rc;
  return 0;
}

/* A part that failed to compile may spell, bare, a column name that must be
 * quoted: say what to write (names.c), in place of the columns list. */
static int part_advice(parser *p, size_t pos) {
  char advice[1024];
  if (p->rc != HFG_EPARSE || !p->em || !p->el ||
      !scheme_quote_advice(p->t, pos, p->err_at, (const char *const *)p->cols.p,
                           p->cols.len / sizeof(char *), !p->discover, advice, sizeof advice))
    return p->rc;
  char *cut = strstr(p->em, "; ");
  if (cut) *cut = '\0';
  size_t n = strlen(p->em);
  snprintf(p->em + n, p->el - n, "; %s", advice);
  return p->rc;
}

static int parse_template(parser *p) {
  const char *t = p->t;
  spart lit;
  part_init(&lit, 0);
  int in_lit = 0;
  while (t[p->i]) {
    char c = t[p->i];
    if (c == '{' && t[p->i + 1] != '{') {
      if (in_lit) {
        if (add_part(p, &lit)) return p->rc;
        in_lit = 0;
      }
      size_t pos = p->i;
      if (parse_part(p, pos)) return part_advice(p, pos);
      continue;
    }
    if (c == '}' && t[p->i + 1] != '}') return perr(p, p->i, "unmatched '}' (write }} for a literal brace)");
    uint8_t b = (uint8_t)c;
    if (c == '{' || c == '}') {
      p->i += 2;
    } else if (c == '\\') {
      if (read_escape(p, &b)) return p->rc;
    } else {
      p->i++;
    }
    if (!in_lit) {
      part_init(&lit, p->i);
      lit.lit = (uint32_t)p->pool.len;
      in_lit = 1;
    }
    if (hfg_buf_put_u8(&p->pool, b)) return nomem(p);
    lit.llen++;
  }
  if (in_lit && add_part(p, &lit)) return p->rc;
  if (p->parts.len == 0) return perr(p, 0, "empty template");
  return check_calls(p);
}

/* ---- lifecycle ---- */

void scheme_analyze(hfg_scheme *s); /* analyze.c */

static void free_cols(char **cols, size_t n) {
  for (size_t i = 0; i < n; i++) hfg_free(cols[i]);
  hfg_free(cols);
}

/* The ops of eval.c's fast_key, when every part has an fkind and no
 * phoenix_salt(N) covers the rest of the key; s->fops stays NULL otherwise.
 * 0 or HFG_ENOMEM. */
static int make_fops(hfg_scheme *s) {
  if (s->salt_rest_part >= 0 || s->nparts == 0) return 0;
  for (size_t i = 0; i < s->nparts; i++)
    if (s->parts[i].fkind == FK_NONE) return 0;
  sfop *ops = hfg_calloc(s->nparts, sizeof *ops);
  if (!ops) return HFG_ENOMEM;
  for (size_t i = 0; i < s->nparts; i++) {
    const spart *sp = &s->parts[i];
    sfop *op = &ops[i];
    op->pad = (uint8_t)sp->pad;
    if (sp->fkind == FK_LIT) {
      op->len = sp->llen;
      if (sp->llen <= 8) {
        op->kind = FOP_WORD;
        memcpy(&op->v, s->pool + sp->lit, sp->llen);
      } else {
        op->kind = FOP_LIT;
        op->v = sp->lit;
      }
      continue;
    }
    op->col = (uint32_t)sp->fcol;
    if (op->col + 1 > s->fops_cols) s->fops_cols = op->col + 1;
    if (sp->fkind == FK_COL) {
      op->kind = FOP_COL;
    } else {
      op->v = (uint64_t)sp->fmod;
      op->kind = sp->fmod <= 10 && sp->pad <= 1 ? FOP_MOD1 : FOP_MOD;
    }
  }
  s->fops = ops;
  /* the salt presets' shape, {a % N}|{b} */
  s->fops_salt = s->nparts == 3 && (ops[0].kind == FOP_MOD1 || ops[0].kind == FOP_MOD) &&
                 ops[1].kind == FOP_WORD && ops[2].kind == FOP_COL && ops[2].pad == 0;
  return 0;
}

int hfg_scheme_compile(const char *tmpl, const char *const *columns, size_t ncolumns,
                       hfg_scheme **out, char *errmsg, size_t errlen) {
  *out = NULL;
  if (!tmpl || (!columns && ncolumns))
    return scheme_errf(errmsg, errlen, HFG_EINVAL, "no template");
  char expanded[1024];
  int pr = scheme_expand_preset(tmpl, expanded, sizeof expanded, errmsg, errlen);
  if (pr < 0) return pr;
  const char *src = pr == 0 ? expanded : tmpl;

  parser p;
  memset(&p, 0, sizeof p);
  p.t = src;
  p.em = errmsg;
  p.el = errlen;
  p.discover = columns == NULL;
  for (size_t i = 0; i < ncolumns && !p.rc; i++) {
    char *c = hfg_strdup(columns[i]);
    if (!c || hfg_buf_append(&p.cols, &c, sizeof c)) {
      hfg_free(c);
      nomem(&p);
    }
  }
  /* the string pool is never NULL: an empty string ('') is an offset into it too */
  if (!p.rc && hfg_buf_reserve(&p.pool, 1)) nomem(&p);
  if (!p.rc) parse_template(&p);
  hfg_buf_free(&p.qname);
  if (p.rc && pr == 0 && p.rc != HFG_ENOMEM && errmsg && errlen) {
    /* positions count in the expansion: show it */
    char inner[640];
    snprintf(inner, sizeof inner, "%s", errmsg);
    snprintf(errmsg, errlen, "preset %s is %s: %s", tmpl, src, inner);
  }

  hfg_scheme *s = NULL;
  if (!p.rc) {
    s = hfg_calloc(1, sizeof *s);
    if (s) s->tmpl = hfg_strdup(src);
    if (s) s->col_used = hfg_calloc(p.cols.len / sizeof(char *) + 1, 1);
    if (!s || !s->tmpl || !s->col_used) nomem(&p);
  }
  if (p.rc) {
    free_cols((char **)p.cols.p, p.cols.len / sizeof(char *));
    hfg_buf_free(&p.nodes);
    hfg_buf_free(&p.parts);
    hfg_buf_free(&p.pool);
    if (s) {
      hfg_free(s->tmpl);
      hfg_free(s->col_used);
      hfg_free(s);
    }
    return p.rc;
  }
  s->cols = (char **)p.cols.p;
  s->ncols = p.cols.len / sizeof(char *);
  s->nodes = (snode *)p.nodes.p;
  s->nnodes = p.nodes.len / sizeof(snode);
  s->parts = (spart *)p.parts.p;
  s->nparts = p.parts.len / sizeof(spart);
  s->pool = p.pool.p;
  s->pool_len = p.pool.len;
  s->salt_rest_part = -1;
  for (size_t i = 0; i < s->nnodes; i++)
    if (s->nodes[i].kind == N_COL) s->col_used[s->nodes[i].col] = 1;
  for (size_t i = 0; i < s->nparts; i++) {
    if (!s->parts[i].salt_rest) continue;
    if (s->salt_rest_part >= 0) {
      int rc = scheme_errf(errmsg, errlen, HFG_EPARSE,
                           "template position %u: only one phoenix_salt(N) over the rest of the key",
                           s->parts[i].pos + 1);
      hfg_scheme_free(s);
      return rc;
    }
    s->salt_rest_part = (int)i;
  }
  /* Nested phoenix_salt(N) (not a whole part) has no "rest of the key". */
  for (size_t i = 0; i < s->nnodes; i++) {
    const snode *n = &s->nodes[i];
    if (n->kind != N_CALL || n->fn != F_PHOENIX_SALT || n->nargs != 1) continue;
    int whole = 0;
    for (size_t k = 0; k < s->nparts; k++) whole |= s->parts[k].root == (int32_t)i;
    if (!whole) {
      int rc = scheme_errf(errmsg, errlen, HFG_EPARSE,
                           "template position %u: phoenix_salt(N) without a value must be a part "
                           "of its own ({phoenix_salt(N)})", n->pos + 1);
      hfg_scheme_free(s);
      return rc;
    }
  }
  scheme_analyze(s);
  for (size_t i = 0; i < s->nparts; i++) { /* what fast_part (eval.c) can render alone */
    spart *sp = &s->parts[i];
    const snode *rn = sp->root >= 0 ? &s->nodes[sp->root] : NULL;
    sp->fkind = FK_NONE;
    if (!rn) {
      sp->fkind = FK_LIT;
    } else if (rn->kind == N_COL) {
      sp->fkind = FK_COL;
      sp->fcol = rn->col;
    } else if (rn->kind == N_MOD && s->nodes[rn->arg[0]].kind == N_COL) {
      sp->fkind = FK_MOD;
      sp->fcol = s->nodes[rn->arg[0]].col;
      sp->fmod = rn->ival;
    }
  }
  if (make_fops(s)) {
    hfg_scheme_free(s);
    return scheme_errf(errmsg, errlen, HFG_ENOMEM, "out of memory compiling the template");
  }
  *out = s;
  return 0;
}

void hfg_scheme_free(hfg_scheme *s) {
  if (!s) return;
  hfg_free(s->fops);
  free_cols(s->cols, s->ncols);
  hfg_free(s->col_used);
  hfg_free(s->nodes);
  hfg_free(s->parts);
  hfg_free(s->pool);
  hfg_free(s->tmpl);
  hfg_free(s);
}

const char *hfg_scheme_template(const hfg_scheme *s) { return s->tmpl; }
size_t hfg_scheme_column_count(const hfg_scheme *s) { return s->ncols; }
const char *hfg_scheme_column_name(const hfg_scheme *s, size_t i) {
  return i < s->ncols ? s->cols[i] : NULL;
}
long hfg_scheme_column_index(const hfg_scheme *s, const char *name) {
  for (size_t i = 0; i < s->ncols; i++)
    if (!strcmp(s->cols[i], name)) return (long)i;
  return -1;
}
int hfg_scheme_uses_column(const hfg_scheme *s, size_t i) { return i < s->ncols && s->col_used[i]; }

