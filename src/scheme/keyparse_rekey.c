/*
 * The new rowkey of a re-keying (include/hfilegen/keyparse.h): compiling it
 * against the old key's fields, with an error that lists them for a name the
 * old key lacks, and the injectivity guard (which old-key fields the new
 * template uses, and whether it keeps each one whole).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hfilegen/keyparse.h"
#include "scheme/keyparse_internal.h"
#include "scheme/scheme_internal.h"

typedef struct msg {
  char *p;
  size_t cap, len;
} msg;

static void add(msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(msg *m, const char *fmt, ...) {
  if (!m->p || m->len + 1 >= m->cap) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(m->p + m->len, m->cap - m->len, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  m->len += (size_t)k;
  if (m->len >= m->cap) m->len = m->cap - 1;
}

/* "the old key's fields are 'a', 'b' (2)" */
static void add_fields(msg *m, const hfg_keyparse *kp) {
  if (kp->nnames == 0) {
    add(m, "the old key has no named field (its '_' parts are skipped)");
    return;
  }
  add(m, "the old key's field%s %s ", kp->nnames == 1 ? "" : "s", kp->nnames == 1 ? "is" : "are");
  for (size_t i = 0; i < kp->nnames; i++) add(m, "%s'%s'", i ? ", " : "", kp->names[i]);
  add(m, " (%zu)", kp->nnames);
}

static long field_index(const hfg_keyparse *kp, const char *name) {
  for (size_t i = 0; i < kp->nnames; i++)
    if (!strcmp(kp->names[i], name)) return (long)i;
  return -1;
}

int hfg_keyparse_rowkey(const hfg_keyparse *kp, const char *tmpl, hfg_scheme **out,
                        char *errmsg, size_t errlen) {
  *out = NULL;
  hfg_scheme *d;
  int rc = hfg_scheme_compile(tmpl, NULL, 0, &d, errmsg, errlen); /* the columns it names */
  if (rc) return rc;
  for (size_t c = 0; c < d->ncols; c++) {
    const char *name = d->cols[c];
    if (field_index(kp, name) >= 0) continue;
    uint32_t pos = 0;
    for (size_t k = 0; k < d->nnodes; k++)
      if (d->nodes[k].kind == N_COL && d->nodes[k].col == (int32_t)c) {
        pos = d->nodes[k].pos;
        break;
      }
    msg m = {errmsg, errlen, 0};
    if (errmsg && errlen) errmsg[0] = '\0';
    if (strcmp(d->tmpl, tmpl)) add(&m, "preset %s is %s: ", tmpl, d->tmpl);
    if (!strcmp(name, "_"))
      add(&m, "template position %u: '_' is no field: the old key's '_' parts are skipped when "
          "it is read; ", pos + 1);
    else
      add(&m, "template position %u: unknown column '%s': not a field of the old key; ", pos + 1,
          name);
    add_fields(&m, kp);
    for (size_t i = 0; i < kp->nnames; i++)
      if (!strcasecmp(kp->names[i], name)) {
        add(&m, "; did you mean '%s'?", kp->names[i]);
        break;
      }
    hfg_scheme_free(d);
    return HFG_EPARSE;
  }
  hfg_scheme_free(d);
  return hfg_scheme_compile(tmpl, (const char *const *)kp->names, kp->nnames, out, errmsg, errlen);
}

/* 1 when node n renders column c so that different values of c give different
 * bytes: the column itself, or it through reverse, pads, long, int, desc,
 * millis or hex of all its bytes. */
static int keeps(const hfg_scheme *s, int32_t n, int32_t c) {
  const snode *x = &s->nodes[n];
  if (x->kind == N_COL) return x->col == c;
  if (x->kind != N_CALL) return 0;
  switch (x->fn) {
    case F_REVERSE:
    case F_LPAD:
    case F_RPAD:
    case F_LONG:
    case F_INT:
    case F_DESC:
    case F_MILLIS:
      return keeps(s, x->arg[0], c);
    case F_HEX:
      return x->nargs == 1 && keeps(s, x->arg[0], c);
    default:
      return 0;
  }
}

/* The function (outermost first) through which node n reads column c without
 * keeping it whole, or NULL when n does not read c. */
static const char *lossy_via(const hfg_scheme *s, int32_t n, int32_t c) {
  static const char *const NAMES[F_COUNT_] = {
      [F_SUBSTR] = "substr()", [F_HEX] = "hex(x, n)", [F_UPPER] = "upper()",
      [F_LOWER] = "lower()", [F_CRC32] = "crc32()", [F_MD5] = "md5()",
      [F_MURMUR3] = "murmur3()", [F_XXHASH64] = "xxhash64()", [F_PHOENIX_SALT] = "phoenix_salt()",
      [F_DAY] = "day()", [F_HOUR] = "hour()", [F_MONTH] = "month()"};
  const snode *x = &s->nodes[n];
  if (x->kind == N_COL) return x->col == c ? "" : NULL;
  if (x->kind != N_CALL && x->kind != N_MOD) return NULL;
  const char *inner = NULL;
  for (int k = 0; k < x->nargs && !inner; k++) inner = lossy_via(s, x->arg[k], c);
  if (!inner) return NULL;
  if (x->kind == N_MOD) return "%";
  if (x->fn == F_HEX && x->nargs == 1) return inner; /* all the bytes */
  return NAMES[x->fn] ? NAMES[x->fn] : inner;
}

int hfg_keyparse_check_rekey(const hfg_keyparse *kp, const hfg_scheme *s, char *warn,
                             size_t warnlen, char *errmsg, size_t errlen) {
  if (warn && warnlen) warn[0] = '\0';
  if (errmsg && errlen) errmsg[0] = '\0';
  msg e = {errmsg, errlen, 0};
  int same = s->ncols == kp->nnames;
  for (size_t i = 0; same && i < kp->nnames; i++) same = !strcmp(s->cols[i], kp->names[i]);
  if (!same) {
    add(&e, "the new rowkey was not compiled against the old key's fields (hfg_keyparse_rowkey)");
    return HFG_EINVAL;
  }
  size_t used = 0;
  for (size_t i = 0; i < kp->nnames; i++) used += s->col_used[i] != 0;
  if (used == 0) {
    add(&e, "the new rowkey '%s' uses no field of the old key '%s': every old key would get this "
        "one new key; ", s->tmpl, kp->pattern);
    add_fields(&e, kp);
    return HFG_EINVAL;
  }
  if (used < kp->nnames) {
    add(&e, "the new rowkey '%s' does not use the old key's field%s ", s->tmpl,
        kp->nnames - used == 1 ? "" : "s");
    for (size_t i = 0, k = 0; i < kp->nnames; i++)
      if (!s->col_used[i]) add(&e, "%s'%s'", k++ ? ", " : "", kp->names[i]);
    add(&e, ": old keys that differ only there would get one new key (the re-keying would not "
        "be one-to-one). Use every field in the new rowkey, or name the part '_' in the old-key "
        "pattern to drop it knowingly (the job then catches the duplicate new keys)");
    return HFG_EINVAL;
  }
  msg w = {warn, warnlen, 0};
  size_t lossy = 0;
  for (size_t i = 0; i < kp->nnames; i++) {
    int kept = 0;
    const char *via = NULL;
    for (size_t p = 0; p < s->nparts && !kept; p++) {
      int32_t root = s->parts[p].root;
      if (root < 0) continue;
      kept = keeps(s, root, (int32_t)i);
      if (!via) via = lossy_via(s, root, (int32_t)i);
    }
    if (kept) continue;
    add(&w, "%sfield '%s' reaches the new key only through %s", lossy++ ? "; " : "",
        kp->names[i], via && *via ? via : "a function");
  }
  if (lossy)
    add(&w, ", which can map different values to one: old keys that differ only there may get "
        "one new key (the job catches the duplicates)");
  return 0;
}
