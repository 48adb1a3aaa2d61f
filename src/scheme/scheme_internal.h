/*
 * Internal layout of a compiled rowkey scheme (format-specs/rowkey-templates.md).
 *
 * A template compiles to a list of parts (literal bytes or one `{...}`
 * expression each) and a flat array of expression nodes; node arguments are
 * indexes into that array, so evaluation walks a small tree without
 * allocating. Each part also carries what compile-time analysis found
 * (widths, bucket space, the column whose order it preserves), which splits,
 * lint and scan ranges read.
 */
#ifndef HFG_SCHEME_INTERNAL_H
#define HFG_SCHEME_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/scheme.h"
#include "util/buf.h"

enum snode_kind { N_COL, N_STR, N_INT, N_MOD, N_CALL };

enum sfn {
  F_REVERSE, F_LPAD, F_RPAD, F_SUBSTR, F_HEX, F_UPPER, F_LOWER,
  F_CRC32, F_MD5, F_MURMUR3, F_XXHASH64, F_PHOENIX_SALT,
  F_DAY, F_HOUR, F_MONTH, F_MILLIS, F_DESC, F_LONG, F_INT,
  F_COUNT_
};

#define SNODE_MAXARGS 3

typedef struct snode {
  uint8_t kind;   /* snode_kind */
  uint8_t fn;     /* N_CALL: sfn */
  uint8_t nargs;
  int32_t arg[SNODE_MAXARGS]; /* node indexes (N_CALL, N_MOD: arg[0]) */
  int32_t col;    /* N_COL: column index */
  int64_t ival;   /* N_INT: value; N_MOD: modulus */
  uint32_t str, slen; /* N_STR: bytes in the pool */
  uint32_t pos;   /* offset in the template, for messages */
} snode;

#define SPART_MAXCOLS 8
#define SPART_UNBOUNDED ((size_t)-1)

typedef struct spart {
  int32_t root;          /* -1 for a literal part */
  uint32_t lit, llen;    /* literal: bytes in the pool */
  int pad;               /* `:0N` zero-pad width, 0 none */
  int salt_rest;         /* phoenix_salt(N): hash of the key bytes after this part */
  uint32_t pos;          /* template offset of the part */
  uint32_t expr_end;     /* offset just after its expression (before ':' or '}') */
  uint32_t end;          /* offset just after its '}' */
  /* analysis */
  size_t wmin, wmax;     /* rendered width bounds (wmax SPART_UNBOUNDED: unknown) */
  int ncols;
  int32_t cols[SPART_MAXCOLS]; /* columns the part reads */
  hfg_bucket_kind bkind; /* bounded bucket space of this part, if any */
  uint64_t buckets;
  int bwidth, bupper;
  int blead;             /* HFG_BUCKET_HEX: zeros of a `:0W` pad before its bwidth digits */
  int time_fn;           /* F_DAY/F_HOUR/F_MONTH of one column, else -1 */
  int32_t order_col;     /* column whose order this part follows, else -1 */
  int order_desc;        /* 1: follows it in reverse (desc()) */
  int reversed_col;      /* reverse() of a raw column: that column, else -1 */
  int time_fmt_node;     /* time parts on a datetime column: N_STR node of the format, else -1 */
  /* the evaluator's shortcut (eval.c fast_part), classified once at compile */
  uint8_t fkind;         /* FK_LIT a literal, FK_COL {col}, FK_MOD {col % N}, FK_NONE: the tree walk */
  int32_t fcol;          /* FK_COL, FK_MOD: the column */
  int64_t fmod;          /* FK_MOD: N */
} spart;

enum { FK_NONE, FK_LIT, FK_COL, FK_MOD };

/* The shortcut of a whole key (eval.c fast_key): one op per part, made at
 * compile when every part has an fkind (hfg_scheme.fops, else NULL). */
enum {
  FOP_WORD, /* a literal of <= 8 bytes: one 8-byte store of v (zero past len), len on */
  FOP_LIT,  /* a longer literal: len bytes of the pool at v */
  FOP_COL,  /* {col}, zero padded to pad */
  FOP_MOD1, /* {col % N}, N = v <= 10 and pad <= 1: one digit */
  FOP_MOD   /* {col % N}, N = v, zero padded to pad */
};

typedef struct sfop {
  uint8_t kind;
  uint8_t pad;  /* `:0W` (<= 64), 0 none */
  uint32_t len; /* FOP_WORD, FOP_LIT: bytes */
  uint32_t col; /* FOP_COL, FOP_MOD*: the column */
  uint64_t v;
} sfop;

struct hfg_scheme {
  char *tmpl;            /* expanded template */
  char **cols;
  size_t ncols;
  uint8_t *col_used;
  snode *nodes;
  size_t nnodes;
  spart *parts;
  size_t nparts;
  uint8_t *pool;
  size_t pool_len;
  int salt_rest_part;    /* index of the phoenix_salt(N) part, -1 none */
  sfop *fops;            /* one per part when every part has an fkind (so no salt_rest), else NULL */
  uint32_t fops_cols;    /* 1 + the largest column the ops read (0: none) */
  int fops_salt;         /* the ops are {a % N}, a literal of <= 8 bytes, {b} (eval.c fast_salt) */
};

/* Evaluates one part for the record fields (columns the part does not read
 * may be absent: fields[c].p == NULL, or c >= nfields). Appends the part's
 * bytes at out[*len..cap) and advances *len. Literal parts copy their bytes;
 * a salt_rest part writes a placeholder byte 0. Returns 0, HFG_ETOOBIG or
 * HFG_EPARSE (message in errmsg). */
int scheme_eval_part(const hfg_scheme *s, size_t part, const hfg_field *fields, size_t nfields,
                     uint8_t *out, size_t cap, size_t *len, char *errmsg, size_t errlen);

/* Renders bucket number b of a bucket part into out (>= SCHEME_BUCKET_MAX
 * bytes: a `:0W` pad is at most 64, hex digits at most 16 after its zeros);
 * returns the length. */
#define SCHEME_BUCKET_MAX 80
size_t scheme_render_bucket(const spart *p, uint64_t b, uint8_t *out);

/* Decimal digits of v (>= 1). */
int scheme_digits(uint64_t v);

/* printf into errmsg if errmsg is non-NULL; returns code. */
int scheme_errf(char *errmsg, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Maps named values onto a per-column field array of s->ncols + 1 entries
 * (p == NULL: not given; hfg_free it). HFG_EINVAL for a name the template
 * does not use. */
int scheme_bind(const hfg_scheme *s, const hfg_named_value *vals, size_t n, hfg_field **out,
                char *errmsg, size_t errlen);

/* ---- column names (names.c) ----
 * A template names a column bare, [A-Za-z_][A-Za-z0-9_.-]*, or quoted:
 * "Order Id" or `Order Id`, byte for byte, the quote character doubled
 * inside ("a ""b"""). Old-key patterns name their fields the same way. */
int scheme_ident_start(char c);
int scheme_ident_char(char c);
/* 1 when name[0..n) can be written bare. */
int scheme_name_is_bare(const char *name, size_t n);
/* Reads the quoted name whose opening quote is t[at] into out (reset first,
 * NUL-terminated past out->len) and the offset just past its closing quote
 * into *end: 0, 1 when it has no closing quote, or HFG_ENOMEM. */
int scheme_read_quoted(const char *t, size_t at, hfg_buf *out, size_t *end);
/* Advice for the part of template t starting at its '{' (offset part) that
 * failed to compile at err_pos: when a term of it spells a column name that
 * must be quoted (one of cols, or, with have_cols 0, text that can only be
 * one name), writes "the column 'Order Id' holds a space, so a template
 * quotes it: write {"Order Id"}" to buf and returns 1; else 0. */
int scheme_quote_advice(const char *t, size_t part, size_t err_pos, const char *const *cols,
                        size_t ncols, int have_cols, char *buf, size_t cap);

/* Expands a preset (presets.c) into out; 1 when tmpl is not one, 0 done, < 0 error. */
int scheme_expand_preset(const char *tmpl, char *out, size_t cap, char *em, size_t el);

/* Node helpers for analysis. */
static inline const snode *scheme_node(const hfg_scheme *s, int32_t i) { return &s->nodes[i]; }

#endif
