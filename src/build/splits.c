#include "build/splits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/coding.h"
#include "util/escape.h"

int hfg_splits_add(hfg_splits *s, const uint8_t *key, size_t len) {
  if (len == 0) return HFG_EINVAL;
  if (s->n && hfg_bytes_cmp(s->key[s->n - 1], s->len[s->n - 1], key, len) >= 0) return HFG_EINVAL;
  uint8_t **k = hfg_realloc(s->key, (s->n + 1) * sizeof *k);
  if (!k) return HFG_ENOMEM;
  s->key = k;
  size_t *l = hfg_realloc(s->len, (s->n + 1) * sizeof *l);
  if (!l) return HFG_ENOMEM;
  s->len = l;
  uint64_t *pf = hfg_realloc(s->prefix, (s->n + 1) * sizeof *pf);
  if (!pf) return HFG_ENOMEM;
  s->prefix = pf;
  if (s->n >= UINT32_MAX) return HFG_ENOMEM;
  if (!s->by_first && !(s->by_first = hfg_calloc(256, sizeof *s->by_first))) return HFG_ENOMEM;
  pf[s->n] = hfg_be_prefix8(key, len);
  s->key[s->n] = hfg_memdup(key, len);
  if (!s->key[s->n]) return HFG_ENOMEM;
  s->len[s->n] = len;
  s->n++;
  /* ascending order: no key added so far starts with a byte above key[0],
   * and the one-byte key key[0] comes before the longer ones starting so */
  if (len == 1)
    s->by_first[key[0]].le++;
  else
    s->by_first[key[0]].rest++;
  for (size_t b = (size_t)key[0] + 1; b < 256; b++) s->by_first[b].le++;
  return 0;
}

/* Why key (of line lineno) cannot follow the last key taken (of line prev_line):
 * empty, a repeat, or before it in HBase's order, naming both. */
static int not_ascending(hfg_err *err, const char *path, unsigned long lineno,
                         const hfg_splits *s, const hfg_buf *key, unsigned long prev_line) {
  if (key->len == 0 || s->n == 0)
    return hfg_err_set(err, HFG_EINVAL, "%s line %lu: split keys must be strictly ascending "
                                        "(unsigned bytes) and non-empty: the key is empty",
                       path, lineno);
  hfg_buf a = HFG_BUF_INIT, b = HFG_BUF_INIT;
  const uint8_t *pk = s->key[s->n - 1];
  size_t pl = s->len[s->n - 1];
  int same = pl == key->len && !memcmp(pk, key->p, pl);
  int oom = hfg_escape(&a, key->p, key->len > 100 ? 100 : key->len) ||
            hfg_escape(&b, pk, pl > 100 ? 100 : pl);
  int rc = oom ? hfg_err_set(err, HFG_ENOMEM, "%s: out of memory", path)
           : same ? hfg_err_set(err, HFG_EINVAL,
                                "%s line %lu: split keys must be strictly ascending (unsigned "
                                "bytes) and non-empty: '%.*s' repeats the key of line %lu",
                                path, lineno, (int)a.len, (const char *)a.p, prev_line)
                  : hfg_err_set(err, HFG_EINVAL,
                                "%s line %lu: split keys must be strictly ascending (unsigned "
                                "bytes) and non-empty: '%.*s' sorts before '%.*s' of line %lu",
                                path, lineno, (int)a.len, (const char *)a.p, (int)b.len,
                                (const char *)b.p, prev_line);
  hfg_buf_free(&a);
  hfg_buf_free(&b);
  return rc;
}

int hfg_splits_load(const char *path, hfg_splits *out, hfg_err *err) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "r");
  if (!f) return hfg_err_set(err, HFG_EIO, "%s: %s", path, strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  unsigned long lineno = 0;
  int rc = 0;
  hfg_buf key = HFG_BUF_INIT;
  unsigned long prev_line = 0; /* the line of the last key taken */
  while (!rc && (n = getline(&line, &cap, f)) >= 0) {
    lineno++;
    if (lineno == 1 && n >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) {
      /* an editor's byte order mark would silently become the first key's first bytes */
      rc = hfg_err_set(err, HFG_EPARSE,
                       "%s starts with a UTF-8 byte order mark (ef bb bf), which would be read "
                       "as line 1's key's first bytes: save the file without one (or write "
                       "\\xef\\xbb\\xbf if the key really starts with those bytes)",
                       path);
      break;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
    if (n == 0) continue;
    if (line[0] == '#') continue; /* a comment; a key starting with '#' is written \x23 */
    if (line[n - 1] == ' ' || line[n - 1] == '\t') {
      /* almost always a copy-paste accident that would end up in the key */
      rc = hfg_err_set(err, HFG_EPARSE,
                       "%s line %lu: the key ends in a %s; write it as %s if it is meant "
                       "(trailing whitespace is refused)",
                       path, lineno, line[n - 1] == ' ' ? "space" : "TAB",
                       line[n - 1] == ' ' ? "\\x20" : "\\x09");
      break;
    }
    hfg_buf_reset(&key);
    size_t bad;
    rc = hfg_unescape(&key, line, (size_t)n, &bad);
    if (rc == HFG_EPARSE) {
      rc = hfg_err_set(err, HFG_EPARSE, "%s line %lu: bad escape at column %zu", path, lineno,
                       bad + 1);
    } else if (rc) {
      rc = hfg_err_set(err, rc, "%s: out of memory", path);
    } else if ((rc = hfg_splits_add(out, key.p, key.len)) == HFG_ENOMEM) {
      rc = hfg_err_set(err, rc, "%s: out of memory", path);
    } else if (rc) {
      rc = not_ascending(err, path, lineno, out, &key, prev_line);
    } else {
      prev_line = lineno;
    }
  }
  free(line);
  hfg_buf_free(&key);
  if (!rc && ferror(f)) rc = hfg_err_set(err, HFG_EIO, "%s: read error", path);
  fclose(f);
  if (rc) hfg_splits_free(out);
  return rc;
}

/* Binary search without a data-dependent branch: the regions of random or
 * salted keys make every step a coin toss, which a branch mispredicts half
 * the time. base moves by half or not by arithmetic on the comparison; only
 * a prefix equal to the row's (rare unless split keys share 8 bytes with
 * rows) takes the whole-key compare. */
__attribute__((noinline, cold)) static size_t split_le_whole(const hfg_splits *s, size_t i,
                                                             const uint8_t *row, size_t len) {
  return hfg_bytes_cmp(s->key[i], s->len[i], row, len) <= 0;
}

static inline size_t split_le(const hfg_splits *s, size_t i, uint64_t rp, const uint8_t *row,
                              size_t len) {
  const uint64_t p = s->prefix[i];
  if (__builtin_expect(p == rp, 0)) return split_le_whole(s, i, row, len);
  return p < rp;
}

/* The region of a row among the n keys from base on (all starting with the
 * row's first byte), those before base being <= row. */
__attribute__((noinline)) static size_t region_among(const hfg_splits *s, size_t base, size_t n,
                                                     const uint8_t *row, size_t len) {
  const uint64_t rp = hfg_be_prefix8(row, len);
  /* invariant: keys before base are <= row; the answer is in [base, base + n] */
  while (n > 1) {
    size_t half = n / 2;
    base += half & (0 - split_le(s, base + half - 1, rp, row, len));
    n -= half;
  }
  return base + split_le(s, base, rp, row, len);
}

size_t hfg_splits_region(const hfg_splits *s, const uint8_t *row, size_t len) {
  /* the answer: how many keys are <= row; the empty row sorts before every key */
  if (s->n == 0 || len == 0) return 0;
  /* the row's first byte narrows it to the keys starting with the same byte,
   * mostly none (salted keys against splits of one byte each): then no search,
   * and no registers to save */
  const struct hfg_splits_first e = s->by_first[row[0]];
  if (e.rest == 0) return e.le;
  return region_among(s, e.le, e.rest, row, len);
}

void hfg_splits_free(hfg_splits *s) {
  for (size_t i = 0; i < s->n; i++) hfg_free(s->key[i]);
  hfg_free(s->key);
  hfg_free(s->len);
  hfg_free(s->prefix);
  hfg_free(s->by_first);
  memset(s, 0, sizeof *s);
}

int hfg_splits_line(hfg_buf *out, const uint8_t *key, size_t len) {
  size_t from = out->len;
  int rc = hfg_escape(out, key, len);
  if (rc) return rc;
  /* the escaped form writes '#', ' ' and TAB as they are: escape a leading '#'
   * (a comment line) and a trailing space or TAB (refused) so the line reads
   * back as the same key */
  if (out->len > from && out->p[from] == '#') {
    if (hfg_buf_reserve(out, 3)) return HFG_ENOMEM;
    memmove(out->p + from + 4, out->p + from + 1, out->len - from - 1);
    memcpy(out->p + from, "\\x23", 4);
    out->len += 3;
  }
  if (out->len > from && (out->p[out->len - 1] == ' ' || out->p[out->len - 1] == '\t')) {
    const char *e = out->p[out->len - 1] == ' ' ? "\\x20" : "\\x09";
    out->len--;
    if (hfg_buf_append(out, e, 4)) return HFG_ENOMEM;
  }
  return 0;
}
