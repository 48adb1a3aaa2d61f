/*
 * The rowkey linter: the known red lines of HBase rowkey design, checked on
 * the template alone and, when sample records are added, on the keys they
 * produce. Each finding says what, why it matters and what to do.
 * format-specs/rowkey-templates.md, "Lint".
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheme/lists.h"
#include "scheme/scheme_internal.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/escape.h"
#include "util/hashes.h"

#define LINT_KEY_CAP 32768
#define SKEW_MAX_GROUPS 4096

struct hfg_lint {
  const hfg_scheme *s;
  uint64_t regions;
  size_t nrec, nbad;
  char first_bad[320];
  hfg_buf keys, offs;   /* every sample key, and size_t end offsets */
  size_t maxlen;
  /* monotonic prefix: the first non-literal part's previous value */
  hfg_buf prev;
  int have_prev;
  size_t pairs, ascending, descending;
  /* separators: hits per literal part, and bytes seen in variable parts */
  size_t *sep_hits;
  uint8_t seen[256];
  /* bucket distribution of the first bucket part */
  int bpart;
  uint64_t ngroups;
  uint64_t *groups;
  uint8_t *key;         /* eval buffer */
  size_t *part_end;     /* per-part end offsets in key */
  /* leading zeros: per column the key copies as text ({col}), sample values such
   * as 007 (counted) and the first one seen */
  uint8_t *raw_col, *num_col; /* per column: in a {col} part; read as an integer */
  size_t *lead0, *lead0_seen;
  char (*lead0_ex)[24];
};

static int first_expr_part(const hfg_scheme *s) {
  for (size_t i = 0; i < s->nparts; i++)
    if (s->parts[i].root >= 0) return (int)i;
  return -1;
}

int hfg_lint_new(const hfg_scheme *s, uint64_t regions, hfg_lint **out) {
  *out = NULL;
  hfg_lint *l = hfg_calloc(1, sizeof *l);
  if (!l) return HFG_ENOMEM;
  l->s = s;
  l->regions = regions;
  l->bpart = -1;
  for (size_t i = 0; i < s->nparts && l->bpart < 0; i++)
    if (s->parts[i].bkind != HFG_BUCKET_NONE && !s->parts[i].salt_rest) l->bpart = (int)i;
  if (l->bpart >= 0) {
    const spart *p = &s->parts[l->bpart];
    l->ngroups = p->bkind == HFG_BUCKET_HEX ? (p->bwidth >= 2 ? 256 : 16) : p->buckets;
    if (l->ngroups > SKEW_MAX_GROUPS) l->ngroups = 0;
  }
  l->sep_hits = hfg_calloc(s->nparts, sizeof *l->sep_hits);
  l->part_end = hfg_calloc(s->nparts, sizeof *l->part_end);
  l->key = hfg_malloc(LINT_KEY_CAP);
  if (l->ngroups) l->groups = hfg_calloc(l->ngroups, sizeof *l->groups);
  size_t nc = hfg_scheme_column_count(s);
  l->raw_col = hfg_calloc(nc + 1, 1);
  l->num_col = hfg_calloc(nc + 1, 1);
  l->lead0 = hfg_calloc(nc + 1, sizeof *l->lead0);
  l->lead0_seen = hfg_calloc(nc + 1, sizeof *l->lead0_seen);
  l->lead0_ex = hfg_calloc(nc + 1, sizeof *l->lead0_ex);
  if (!l->sep_hits || !l->part_end || !l->key || (l->ngroups && !l->groups) || !l->raw_col ||
      !l->num_col || !l->lead0 || !l->lead0_seen || !l->lead0_ex) {
    hfg_lint_free(l);
    return HFG_ENOMEM;
  }
  for (size_t i = 0; i < s->nparts; i++) {
    const spart *p = &s->parts[i];
    if (p->root >= 0 && s->nodes[p->root].kind == N_COL) l->raw_col[s->nodes[p->root].col] = 1;
  }
  for (size_t k = 0; k < s->nnodes; k++) { /* {col % N}, long(col), int(col) */
    const snode *n = &s->nodes[k];
    int numeric = n->kind == N_MOD || (n->kind == N_CALL && (n->fn == F_LONG || n->fn == F_INT));
    if (numeric && n->arg[0] >= 0 && s->nodes[n->arg[0]].kind == N_COL)
      l->num_col[s->nodes[n->arg[0]].col] = 1;
  }
  *out = l;
  return 0;
}

void hfg_lint_free(hfg_lint *l) {
  if (!l) return;
  hfg_buf_free(&l->keys);
  hfg_buf_free(&l->offs);
  hfg_buf_free(&l->prev);
  hfg_free(l->sep_hits);
  hfg_free(l->part_end);
  hfg_free(l->key);
  hfg_free(l->groups);
  hfg_free(l->raw_col);
  hfg_free(l->num_col);
  hfg_free(l->lead0);
  hfg_free(l->lead0_seen);
  hfg_free(l->lead0_ex);
  hfg_free(l);
}

static int all_digits(const uint8_t *p, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] < '0' || p[i] > '9') return 0;
  return 1;
}

/* A decimal integer written with a leading zero: 007, -07 (not 0 itself). */
static int leading_zero(const uint8_t *p, size_t n) {
  size_t i = n && p[0] == '-';
  return n - i >= 2 && p[i] == '0' && all_digits(p + i, n - i);
}

/* Compares two rendered values: numerically when both are plain decimal
 * numbers (unpadded ids grow in length), else as bytes. */
static int cmp_values(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  if (all_digits(a, an) && all_digits(b, bn) && an != bn) return an < bn ? -1 : 1;
  size_t n = an < bn ? an : bn;
  int c = memcmp(a, b, n);
  return c ? c : (an > bn) - (an < bn);
}

static int contains(const uint8_t *h, size_t hn, const uint8_t *n, size_t nn) {
  if (!nn || nn > hn) return 0;
  for (size_t i = 0; i + nn <= hn; i++)
    if (!memcmp(h + i, n, nn)) return 1;
  return 0;
}

static int hexv(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int hfg_lint_add(hfg_lint *l, const hfg_field *fields, size_t nfields) {
  const hfg_scheme *s = l->s;
  size_t n = 0, salt_at = 0;
  int rc = 0;
  char em[256];
  l->nrec++;
  for (size_t i = 0; i < s->nparts && !rc; i++) {
    if ((int)i == s->salt_rest_part) salt_at = n;
    rc = scheme_eval_part(s, i, fields, nfields, l->key, LINT_KEY_CAP, &n, em, sizeof em);
    l->part_end[i] = n;
  }
  if (rc) {
    if (!l->nbad++) snprintf(l->first_bad, sizeof l->first_bad, "record %zu: %.250s", l->nrec, em);
    return 0;
  }
  if (s->salt_rest_part >= 0) {
    const snode *r = &s->nodes[s->parts[s->salt_rest_part].root];
    l->key[salt_at] = hfg_phoenix_salt(l->key + salt_at + 1, n - salt_at - 1, (int)s->nodes[r->arg[0]].ival);
  }
  for (size_t c = 0; c < nfields && c < hfg_scheme_column_count(s); c++) {
    if (!l->raw_col[c] || !fields[c].p) continue;
    l->lead0_seen[c]++;
    if (!leading_zero((const uint8_t *)fields[c].p, fields[c].len)) continue;
    if (!l->lead0[c]++)
      snprintf(l->lead0_ex[c], sizeof l->lead0_ex[c], "%.*s",
               (int)(fields[c].len < 20 ? fields[c].len : 20), fields[c].p);
  }
  if (n > l->maxlen) l->maxlen = n;
  size_t end = l->keys.len + n;
  if (hfg_buf_append(&l->keys, l->key, n) || hfg_buf_append(&l->offs, &end, sizeof end))
    return HFG_ENOMEM;
  /* Per part: separator hits and the bytes variable parts contain. */
  for (size_t i = 0; i < s->nparts; i++) {
    const spart *p = &s->parts[i];
    size_t b = i ? l->part_end[i - 1] : 0, e = l->part_end[i];
    if (p->root < 0 || p->wmin == p->wmax) continue;
    for (size_t k = b; k < e; k++) l->seen[l->key[k]] = 1;
    size_t nb[2] = {i ? i - 1 : s->nparts, i + 1}; /* the literals before and after */
    for (int d = 0; d < 2; d++) {
      size_t j = nb[d];
      if (j >= s->nparts || s->parts[j].root >= 0) continue;
      if (contains(l->key + b, e - b, s->pool + s->parts[j].lit, s->parts[j].llen)) l->sep_hits[j]++;
    }
  }
  /* Monotonic prefix. */
  int fp = first_expr_part(s);
  if (fp >= 0) {
    size_t b = fp ? l->part_end[fp - 1] : 0, e = l->part_end[fp];
    if (l->have_prev) {
      int c = cmp_values(l->prev.p, l->prev.len, l->key + b, e - b);
      l->pairs++;
      if (c <= 0) l->ascending++;
      if (c >= 0) l->descending++;
    }
    hfg_buf_reset(&l->prev);
    if (hfg_buf_append(&l->prev, l->key + b, e - b)) return HFG_ENOMEM;
    l->have_prev = 1;
  }
  /* Bucket group. */
  if (l->ngroups) {
    const spart *p = &s->parts[l->bpart];
    size_t b = l->bpart ? l->part_end[l->bpart - 1] : 0, e = l->part_end[l->bpart];
    uint64_t g = 0;
    if (p->bkind == HFG_BUCKET_BYTE) {
      g = e > b ? l->key[b] : 0;
    } else if (p->bkind == HFG_BUCKET_HEX) {
      int w = l->ngroups == 256 ? 2 : 1;
      b += (size_t)p->blead; /* the digits after a `:0W` pad's zeros */
      for (int k = 0; k < w && b + (size_t)k < e; k++) g = g * 16 + (uint64_t)(hexv(l->key[b + (size_t)k]) & 15);
    } else {
      for (size_t k = b; k < e; k++) g = g * 10 + (uint64_t)(l->key[k] - '0');
    }
    if (g < l->ngroups) l->groups[g]++;
  }
  return 0;
}

static int time_like_name(const char *name) {
  char low[128];
  size_t n = strlen(name);
  if (n >= sizeof low) n = sizeof low - 1;
  for (size_t i = 0; i < n; i++) low[i] = (char)tolower((unsigned char)name[i]);
  low[n] = '\0';
  static const char *const exact[] = {"ts", "created", "updated", "modified", "epoch", "millis", NULL};
  for (int i = 0; exact[i]; i++)
    if (!strcmp(low, exact[i])) return 1;
  if (strstr(low, "time") || strstr(low, "date")) return 1;
  if (n > 2 && (!strcmp(low + n - 3, "_ts") || !strcmp(low + n - 3, "_at"))) return 1;
  if (n > 2 && name[n - 2] == 'A' && name[n - 1] == 't') return 1; /* createdAt */
  return 0;
}

static int sequence_like_name(const char *name) {
  char low[128];
  size_t n = strlen(name);
  if (n >= sizeof low) n = sizeof low - 1;
  for (size_t i = 0; i < n; i++) low[i] = (char)tolower((unsigned char)name[i]);
  low[n] = '\0';
  if (!strcmp(low, "id") || !strcmp(low, "rowid") || !strcmp(low, "auto_id")) return 1;
  return (n >= 3 && !strcmp(low + n - 3, "seq")) || strstr(low, "sequence") || strstr(low, "serial") ||
         strstr(low, "increment");
}

/* Renders the template text of a part for messages. */
static void part_text(const hfg_scheme *s, size_t i, char *out, size_t cap) {
  const char *t = s->tmpl + s->parts[i].pos;
  const char *e = strchr(t, '}');
  size_t n = e ? (size_t)(e - t) + 1 : strlen(t);
  if (n >= cap) n = cap - 1;
  memcpy(out, t, n);
  out[n] = '\0';
}

#define ADD(sev, code, why, fix, ...)                                  \
  do {                                                                 \
    if (findings_add(f, sev, code, why, fix, __VA_ARGS__)) goto oom;   \
  } while (0)

typedef struct keyref {
  const uint8_t *p;
  size_t n;
} keyref;

static int cmp_keyref(const void *a, const void *b) {
  const keyref *x = a, *y = b;
  size_t n = x->n < y->n ? x->n : y->n;
  int c = memcmp(x->p, y->p, n);
  return c ? c : (x->n > y->n) - (x->n < y->n);
}

int hfg_lint_finish(hfg_lint *l, hfg_findings **out) {
  const hfg_scheme *s = l->s;
  hfg_findings *f = findings_new();
  keyref *refs = NULL;
  char pt[160], pt2[160];
  if (!f) return HFG_ENOMEM;
  size_t good = l->nrec - l->nbad;

  /* 0. No column at all ('id' for '{id}'): every record gets the one rowkey, so a
   * build keeps one row of the whole input (--on-duplicate) or fails on it. */
  int uses_column = 0;
  for (size_t i = 0; i < hfg_scheme_column_count(s); i++)
    uses_column |= hfg_scheme_uses_column(s, i);
  if (!uses_column)
    ADD(HFG_SEV_ERROR, "constant-key",
        "every record gets this same rowkey: the whole input is one row (a build fails on the "
        "first duplicate, or keeps one record with --on-duplicate)",
        "name a column in braces: {id}, not id",
        "the template %s uses no column", s->tmpl);

  /* 1. Monotonically increasing (or decreasing) prefix. */
  int fp = first_expr_part(s);
  if (fp >= 0 && s->parts[fp].bkind == HFG_BUCKET_NONE) {
    const spart *p = &s->parts[fp];
    part_text(s, (size_t)fp, pt, sizeof pt);
    int next_bucket = 0;
    for (size_t i = (size_t)fp + 1; i < s->nparts; i++)
      if (s->parts[i].root >= 0) {
        next_bucket = s->parts[i].bkind != HFG_BUCKET_NONE;
        break;
      }
    int mono = 0;
    const char *how = "";
    if (p->time_fn >= 0) { /* a period of time only ever moves forward */
      mono = 1;
      how = "as a time bucket";
    } else if (p->order_col >= 0) {
      const char *col = s->cols[p->order_col];
      if (l->pairs >= 3) {
        mono = 10 * (p->order_desc ? l->descending : l->ascending) >= 9 * l->pairs;
        how = "in the sample";
      } else if (time_like_name(col) || sequence_like_name(col)) {
        mono = 1;
        how = "by its name";
      }
    }
    if (mono && p->time_fn >= 0 && next_bucket) {
      ADD(HFG_SEV_INFO, "time-bucket-prefix",
          "all writes of the current period go to the buckets of that period; older periods stop "
          "receiving writes, so their regions only serve reads",
          "pre-split each period per bucket (or accept that new periods split as they fill)",
          "the key starts with the time bucket %s followed by a hash bucket", pt);
    } else if (mono) {
      ADD(HFG_SEV_ERROR, "monotonic-prefix",
          "every new row sorts after (or before) all existing ones, so all writes hit the one "
          "region at the end of the key space: a hotspot no pre-split can fix",
          "put a bucket first ({x % N :0W}|..., {hex(md5(x), 4)}|...) or reverse a sequence id "
          "({reverse(id)}); keep the time part after it",
          "the key starts with %s, which %s %s (%s)", pt,
          p->order_desc ? "decreases monotonically" : "increases monotonically", how,
          p->order_desc ? "desc() of a growing value" : "a timestamp or a sequence number");
    }
  }

  /* 2. Key length: template bounds and the sample. */
  size_t wmin = 0, wmax = 0;
  int bounded = 1;
  for (size_t i = 0; i < s->nparts; i++) {
    wmin += s->parts[i].wmin;
    if (s->parts[i].wmax == SPART_UNBOUNDED) bounded = 0;
    else wmax += s->parts[i].wmax;
  }
  size_t worst = bounded ? wmax : wmin;
  if (good && l->maxlen > worst) worst = l->maxlen;
  if (worst > 100) {
    const char *src = good && l->maxlen == worst ? "in the sample" : bounded ? "by the template's widths" : "at least, by the template's widths";
    ADD(worst > 200 ? HFG_SEV_ERROR : HFG_SEV_WARNING, "key-length",
        "the rowkey is stored in every cell of the row (and in every block index entry): long keys "
        "multiply storage, memory and I/O",
        "shorten the key: hash long business keys (hex(md5(x), 8)), drop redundant parts, use "
        "binary long() instead of decimal text",
        "rowkeys are up to %zu bytes %s (limit %s 100 bytes, hard line 200)", worst, src,
        worst > 200 ? "well above" : "above");
  }

  /* 3. Variable-length parts without a separator. */
  for (size_t i = 0; i + 1 < s->nparts; i++) {
    const spart *a = &s->parts[i], *b = &s->parts[i + 1];
    if (a->root < 0 || b->root < 0 || a->wmin == a->wmax) continue;
    part_text(s, i, pt, sizeof pt);
    part_text(s, i + 1, pt2, sizeof pt2);
    ADD(HFG_SEV_ERROR, "no-separator",
        "a variable-length value followed directly by another is ambiguous ('ab'+'1' = 'a'+'b1') "
        "and breaks ordering and prefix scans on the first value",
        "put a separator between them ({a}|{b}) or give the first a fixed width (lpad)",
        "%s has a variable length and is followed directly by %s", pt, pt2);
  }

  /* 4. Separator occurring inside values (sample). */
  for (size_t j = 0; j < s->nparts; j++) {
    if (s->parts[j].root >= 0 || !l->sep_hits[j]) continue;
    /* One finding per distinct separator: fold later uses of the same one in. */
    int again = 0;
    for (size_t k = 0; k < j; k++)
      again |= s->parts[k].root < 0 && l->sep_hits[k] && s->parts[k].llen == s->parts[j].llen &&
               !memcmp(s->pool + s->parts[k].lit, s->pool + s->parts[j].lit, s->parts[j].llen);
    if (again) continue;
    static const char cand[] = "|#~:;_!^-";
    char alt = 0;
    for (const char *c = cand; *c && !alt; c++)
      if (!l->seen[(uint8_t)*c]) alt = *c;
    hfg_buf esc = HFG_BUF_INIT;
    if (hfg_escape(&esc, s->pool + s->parts[j].lit, s->parts[j].llen) || hfg_buf_put_u8(&esc, 0)) {
      hfg_buf_free(&esc);
      goto oom;
    }
    char fix[256];
    if (alt)
      snprintf(fix, sizeof fix, "use a separator that never occurs in the values ('%c' does not "
               "in this sample), give the parts fixed widths, or encode the values (hex)", alt);
    else
      snprintf(fix, sizeof fix, "give the parts fixed widths or encode the values (hex); every "
               "common separator occurs in this sample");
    int rc = findings_add(f, HFG_SEV_ERROR, "separator-in-values",
                          "a separator that also occurs inside a value makes keys ambiguous: a "
                          "prefix scan for one value also returns others, and parsing keys back fails",
                          fix, "the separator '%s' occurs inside neighbouring values in %zu of %zu "
                          "sample records", (char *)esc.p, l->sep_hits[j], good);
    hfg_buf_free(&esc);
    if (rc) goto oom;
  }

  /* 5. Buckets vs regions, and unpadded buckets. */
  for (size_t i = 0; i < s->nparts; i++) {
    const spart *p = &s->parts[i];
    if (p->bkind != HFG_BUCKET_DECIMAL) continue;
    part_text(s, i, pt, sizeof pt);
    if (p->bwidth == 0) {
      char fix[96];
      snprintf(fix, sizeof fix, "zero-pad the bucket to its %d digits ({x %% %llu :0%d})",
               scheme_digits(p->buckets - 1), (unsigned long long)p->buckets,
               scheme_digits(p->buckets - 1));
      ADD(HFG_SEV_WARNING, "unpadded-buckets",
          "unpadded bucket numbers sort '10' before '2': buckets are not contiguous in key order, "
          "so no split keys align to them",
          fix, "%s renders %llu buckets without zero padding", pt, (unsigned long long)p->buckets);
    }
    break;
  }
  if (l->regions && l->bpart >= 0) {
    const spart *p = &s->parts[l->bpart];
    uint64_t n = p->buckets, r = l->regions;
    part_text(s, (size_t)l->bpart, pt, sizeof pt);
    if (p->bkind == HFG_BUCKET_HEX) {
      /* a hex prefix is a uniform space: any region count up to its size is fine */
      if (r > n)
        ADD(HFG_SEV_WARNING, "buckets-vs-regions",
            "split keys cannot fall inside one hex prefix value without knowing the keys behind it",
            "use a longer hex prefix or fewer regions",
            "%s has %llu values, fewer than %llu regions", pt, (unsigned long long)n,
            (unsigned long long)r);
    } else if (r > n) {
      ADD(HFG_SEV_WARNING, "buckets-vs-regions",
          "regions beyond the bucket count either stay empty or must split inside a bucket, "
          "which the bucket alone cannot balance",
          "use at least as many buckets as regions (a multiple of the region count)",
          "%s has %llu buckets for %llu regions", pt, (unsigned long long)n, (unsigned long long)r);
    } else if (n % r) {
      ADD(HFG_SEV_WARNING, "buckets-vs-regions",
          "regions then hold different numbers of buckets, and take writes in that proportion",
          "make the bucket count a multiple of the region count",
          "%s has %llu buckets, not a multiple of %llu regions (regions get %llu or %llu)", pt,
          (unsigned long long)n, (unsigned long long)r, (unsigned long long)(n / r),
          (unsigned long long)(n / r + 1));
    }
  }

  /* 6. Non-uniform bucket distribution (sample). */
  if (l->ngroups && good >= 10 * l->ngroups) {
    uint64_t mx = 0, mn = UINT64_MAX;
    size_t at = 0;
    for (uint64_t g = 0; g < l->ngroups; g++) {
      if (l->groups[g] > mx) mx = l->groups[g], at = (size_t)g;
      if (l->groups[g] < mn) mn = l->groups[g];
    }
    double exp = (double)good / (double)l->ngroups;
    /* Beyond half again or half of the mean, and beyond what sampling alone
     * gives a uniform hash: a group's count varies by sqrt(exp) (Poisson), and
     * the fullest of 256 groups of a uniform sample lies about 3 of those above
     * the mean (mean 19.5, 5,000 records: 33 seen), so 5 of them. */
    double noise = 5.0 * sqrt(exp);
    double hi = 1.5 * exp > exp + noise ? 1.5 * exp : exp + noise;
    double lo = 0.5 * exp < exp - noise ? 0.5 * exp : exp - noise;
    if ((double)mx > hi || (double)mn < lo) {
      part_text(s, (size_t)l->bpart, pt, sizeof pt);
      ADD(HFG_SEV_WARNING, "bucket-skew",
          "buckets exist to spread writes evenly; a skewed bucket is a hot region",
          "bucket by a hash of a high-cardinality field ({murmur3(x) % N}) rather than the raw "
          "value, or a field whose values are spread",
          "%s is uneven on the sample: the fullest bucket group (%zu) holds %llu records, the "
          "emptiest %llu, %.1f expected", pt, at, (unsigned long long)mx, (unsigned long long)mn, exp);
    }
  }

  /* 7. Reversed time. */
  for (size_t i = 0; i < s->nnodes; i++) {
    const snode *n = &s->nodes[i];
    if (n->kind != N_CALL || n->fn != F_REVERSE) continue;
    const snode *a = &s->nodes[n->arg[0]];
    int timey = (a->kind == N_COL && time_like_name(s->cols[a->col])) ||
                (a->kind == N_CALL && (a->fn == F_DAY || a->fn == F_HOUR || a->fn == F_MONTH ||
                                       a->fn == F_MILLIS));
    if (!timey) continue;
    ADD(HFG_SEV_WARNING, "reversed-time",
        "reversing a time string scatters it (useful against hotspots) but does not sort newest "
        "first: reverse('1720695600000') and reverse('1720695600001') are far apart, so no range "
        "scan by time is possible",
        "for newest-first order use {desc(ts)} (Long.MAX_VALUE - ts, 19 digits) after a bucket",
        "template position %u reverses a time value", n->pos + 1);
  }

  /* 8. Duplicate keys (sample). */
  size_t nk = l->offs.len / sizeof(size_t);
  if (nk > 1) {
    refs = hfg_malloc(nk * sizeof *refs);
    if (!refs) goto oom;
    const size_t *o = (const size_t *)l->offs.p;
    for (size_t i = 0; i < nk; i++) {
      size_t b = i ? o[i - 1] : 0;
      refs[i] = (keyref){l->keys.p + b, o[i] - b};
    }
    qsort(refs, nk, sizeof *refs, cmp_keyref);
    size_t dups = 0, first = 0;
    for (size_t i = 1; i < nk; i++)
      if (!cmp_keyref(&refs[i - 1], &refs[i]) && !dups++) first = i;
    if (dups) {
      hfg_buf esc = HFG_BUF_INIT;
      if (hfg_escape(&esc, refs[first].p, refs[first].n) || hfg_buf_put_u8(&esc, 0)) {
        hfg_buf_free(&esc);
        goto oom;
      }
      int rc = findings_add(f, HFG_SEV_ERROR, "duplicate-keys",
                            "records with the same rowkey become one row: the later silently "
                            "overwrites the earlier's cells",
                            "add the field that makes records unique (an event id, a sequence) to "
                            "the key",
                            "%zu sample records repeat an earlier key (e.g. '%s')", dups, (char *)esc.p);
      hfg_buf_free(&esc);
      if (rc) goto oom;
    }
  }

  /* 9. Records the scheme cannot key. */
  if (l->nbad)
    ADD(HFG_SEV_ERROR, "eval-errors",
        "the build rejects these records (they count against --max-rejects)",
        "fix the data or the template (e.g. a non-integer in a column used with % or long())",
        "%zu of %zu sample records cannot be keyed; first: %s", l->nbad, l->nrec, l->first_bad);

  /* 9b. Integers written with leading zeros, copied into the key as text. */
  for (size_t c = 0; c < hfg_scheme_column_count(s); c++) {
    if (!l->lead0[c]) continue;
    if (l->num_col[c])
      ADD(HFG_SEV_WARNING, "leading-zeros",
          "the key copies the column's text as it is, while the template also reads it as an "
          "integer: 007 and 7 are two rows with one bucket, and a later export that writes "
          "the id without zeros adds rows instead of overwriting these",
          "export the column as the integer it is (databases print integers without leading "
          "zeros); if it is a zero-padded code, make every load pad it to the same width",
          "%zu of %zu sample values of column %s have leading zeros (first: %s)", l->lead0[c],
          l->lead0_seen[c], s->cols[c], l->lead0_ex[c]);
    else
      ADD(HFG_SEV_INFO, "leading-zeros",
          "the key copies the column's text as it is: 007 and 7 are two different rows",
          "nothing to do if the column is a zero-padded code; if it is an integer, export it "
          "without leading zeros, as every later load must",
          "%zu of %zu sample values of column %s have leading zeros (first: %s)", l->lead0[c],
          l->lead0_seen[c], s->cols[c], l->lead0_ex[c]);
  }

  /* 10. A fixed-width bucket prefix: a ROWPREFIX_FIXED_LENGTH bloom over it. The prefix is
   * the leading literals, the first expression when it is a bucket or hash of one
   * rendered width, and the literals after it (the separator); a bucket whose width
   * varies ({id % 16}: '3' and '12') has no fixed prefix length to give HBase. */
  size_t pfx = 0, i = 0;
  for (; i < s->nparts && s->parts[i].root < 0; i++) pfx += s->parts[i].llen;
  const spart *bp = i < s->nparts ? &s->parts[i] : NULL;
  if (bp && bp->bkind != HFG_BUCKET_NONE && bp->wmin == bp->wmax && bp->wmin > 0) {
    pfx += bp->wmin;
    for (i++; i < s->nparts && s->parts[i].root < 0; i++) pfx += s->parts[i].llen;
    if (i < s->nparts && pfx <= 32767) { /* else the prefix is the whole key: a ROW bloom */
      size_t tb = 0, te = s->parts[i].pos; /* the template text of the prefix */
      snprintf(pt, sizeof pt, "%.*s", (int)(te - tb), s->tmpl + tb);
      char fix[512];
      snprintf(fix, sizeof fix,
               "if reads are gets or scans within one prefix, build with --bloom rowprefix:%zu "
               "and create the family with BLOOMFILTER => 'ROWPREFIX_FIXED_LENGTH', "
               "CONFIGURATION => {'RowPrefixBloomFilter.prefix_length' => '%zu'}; keep ROW "
               "for gets by the whole key alone",
               pfx, pfx);
      ADD(HFG_SEV_INFO, "rowprefix-bloom",
          "a ROWPREFIX_FIXED_LENGTH bloom holds the first N bytes of each row: a get, or a scan "
          "whose start and stop rows share those N bytes (one bucket, one hash prefix), skips "
          "every store file without a row of that prefix, which a ROW bloom cannot do for a "
          "scan; it pays where a region's files hold some of the prefixes (more buckets than "
          "regions, incremental loads, flushes), not for scans across prefixes",
          fix, "every key starts with the %zu bytes of %s (a %s of fixed width)", pfx, pt,
          bp->bkind == HFG_BUCKET_DECIMAL ? "bucket" : bp->bkind == HFG_BUCKET_BYTE ? "salt byte"
                                                                              : "hash prefix");
    }
  }

  hfg_free(refs);
  *out = f;
  return 0;
oom:
  hfg_free(refs);
  hfg_findings_free(f);
  return HFG_ENOMEM;
}
