/* Fixtures of the store scan tests (test_store_scan*.c): small HFiles
 * written by the project's writer from a list of cells (sorted here), a run
 * of the scan over a set of them, and its output rendered as text:
 * "r1/a@6=v6 r1/b@3=v | r2/a@1=v" (rows split by " | ", markers carry their
 * type: "r1/@5 DF"). */
#ifndef HFG_TEST_STORE_SCAN_FIXTURE_H
#define HFG_TEST_STORE_SCAN_FIXTURE_H

#include <inttypes.h>

#include "hfilegen/reader.h"
#include "hfilegen/writer.h"
#include "input/store_scan.h"
#include "t.h"
#include "util/coding.h"

enum { P = HFG_TYPE_PUT, D = HFG_TYPE_DELETE, DC = HFG_TYPE_DELETE_COLUMN,
       DF = HFG_TYPE_DELETE_FAMILY, DFV = HFG_TYPE_DELETE_FAMILY_VERSION };

typedef struct tc {
  const char *row, *qual;
  int64_t ts;
  uint8_t type;
  const char *val;
  int64_t ttl_tag;  /* > 0: a TTL tag (type 8) of this many ms */
  const char *fam;  /* NULL: "f" */
} tc;

typedef struct tfile {
  uint8_t *p;
  size_t len;
  hfg_reader *r;
} tfile;

/* the test's own order: row, qualifier ascending; ts, type descending */
static inline int tc_cmp(const void *pa, const void *pb) {
  const tc *a = pa, *b = pb;
  int r = strcmp(a->row, b->row);
  if (r) return r;
  r = strcmp(a->qual, b->qual);
  if (r) return r;
  if (a->ts != b->ts) return a->ts > b->ts ? -1 : 1;
  return a->type > b->type ? -1 : a->type < b->type;
}

/* cells in any order; wo NULL: the writer's defaults (BULKLOAD_TIMESTAMP 1000 either way) */
static inline int tfile_make_wo(tfile *f, const tc *in, size_t n, const hfg_writer_options *wo) {
  tc *c = malloc((n ? n : 1) * sizeof *c);
  memcpy(c, in, n * sizeof *c);
  qsort(c, n, sizeof *c, tc_cmp);
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  if (wo) o = *wo;
  o.bulkload_timestamp = 1000;
  o.fsync = 0;
  hfg_writer *w = NULL;
  const char *fam = n && c[0].fam ? c[0].fam : "f";
  int rc = hfg_writer_open_mem(fam, &o, &w);
  for (size_t i = 0; !rc && i < n; i++) {
    uint8_t tag[11];
    hfg_cell x = {(const uint8_t *)c[i].row, strlen(c[i].row), (const uint8_t *)fam, strlen(fam),
                  (const uint8_t *)c[i].qual, strlen(c[i].qual), c[i].ts, c[i].type,
                  (const uint8_t *)c[i].val, c[i].val ? strlen(c[i].val) : 0, NULL, 0};
    if (c[i].ttl_tag > 0) {
      tag[0] = 0;
      tag[1] = 9;
      tag[2] = 8;
      hfg_put_be64(tag + 3, (uint64_t)c[i].ttl_tag);
      x.tags = tag;
      x.tags_len = 11;
    }
    rc = hfg_writer_append(w, &x);
  }
  if (!rc) rc = hfg_writer_finish(w);
  free(c);
  if (rc) {
    fprintf(stderr, "  writer: %s\n", w ? hfg_writer_errmsg(w) : "?");
    hfg_writer_free(w);
    return 0;
  }
  const uint8_t *d = hfg_writer_mem_data(w, &f->len);
  f->p = malloc(f->len);
  memcpy(f->p, d, f->len);
  hfg_writer_free(w);
  if (hfg_reader_open_mem(f->p, f->len, &f->r)) {
    fprintf(stderr, "  reader: %s\n", hfg_reader_errmsg(f->r));
    return 0;
  }
  return 1;
}

static inline int tfile_make(tfile *f, const tc *in, size_t n) {
  return tfile_make_wo(f, in, n, NULL);
}

static inline void tfile_drop(tfile *f) {
  hfg_reader_close(f->r);
  free(f->p);
  memset(f, 0, sizeof *f);
}

/* Re-opens the reader after the bytes were edited. */
static inline void tfile_reopen(tfile *f) {
  hfg_reader_close(f->r);
  if (hfg_reader_open_mem(f->p, f->len, &f->r))
    fprintf(stderr, "  reopen: %s\n", hfg_reader_errmsg(f->r));
}

/* A file handed to the scan: described from the reader and name, unless
 * manual (then the facts below are used as given). */
typedef struct fspec {
  tfile *f;
  const char *name;
  hfg_store_half half;
  const char *split;
  int manual;
  hfg_store_file facts;
} fspec;

static inline hfg_store_scan_options opts(void) {
  hfg_store_scan_options o = HFG_STORE_SCAN_OPTIONS_INIT;
  o.versions = 10;
  o.as_of_ms = 1000000;
  o.family = (const uint8_t *)"f";
  o.family_len = 1;
  return o;
}

static inline const char *tname(uint8_t t) {
  switch (t) {
    case D: return " D";
    case DC: return " DC";
    case DF: return " DF";
    case DFV: return " DFV";
    default: return "";
  }
}

typedef struct result {
  int rc;              /* last next_row / setup code */
  char out[4096];
  char err[1024];
  hfg_store_scan_counts k;
} result;

static inline void render(char *out, size_t cap, const hfg_cell *c, size_t n, int first_row) {
  size_t at = strlen(out);
  if (!first_row) at += (size_t)snprintf(out + at, cap - at, " | ");
  for (size_t i = 0; i < n && at < cap; i++) {
    at += (size_t)snprintf(out + at, cap - at, "%s%.*s/%.*s@%" PRId64 "%s", i ? " " : "",
                           (int)c[i].row_len, (const char *)c[i].row, (int)c[i].qualifier_len,
                           c[i].qualifier ? (const char *)c[i].qualifier : "", c[i].timestamp,
                           tname(c[i].type));
    if (c[i].value_len && at < cap)
      at += (size_t)snprintf(out + at, cap - at, "=%.*s", (int)c[i].value_len,
                             (const char *)c[i].value);
  }
}

static inline void run(result *res, const hfg_store_scan_options *o, fspec *fs, size_t nf) {
  memset(res, 0, sizeof *res);
  hfg_store_scan *s = NULL;
  res->rc = hfg_store_scan_create(o, &s);
  for (size_t i = 0; !res->rc && i < nf; i++) {
    hfg_store_file f = fs[i].manual ? fs[i].facts : (hfg_store_file){0};
    f.reader = fs[i].f->r;
    f.name = fs[i].name;
    f.half = fs[i].half;
    f.split_row = (const uint8_t *)fs[i].split;
    f.split_row_len = fs[i].split ? strlen(fs[i].split) : 0;
    if (!fs[i].manual) res->rc = hfg_store_scan_describe(s, &f);
    if (!res->rc) res->rc = hfg_store_scan_add(s, &f);
  }
  int rows = 0;
  while (!res->rc) {
    const hfg_cell *c;
    size_t n;
    int rc = hfg_store_scan_next_row(s, &c, &n);
    if (rc <= 0) {
      res->rc = rc;
      break;
    }
    render(res->out, sizeof res->out, c, n, rows++ == 0);
  }
  if (s) {
    snprintf(res->err, sizeof res->err, "%s", hfg_store_scan_errmsg(s));
    hfg_store_scan_counts_get(s, &res->k);
  }
  hfg_store_scan_free(s);
}

#define CHECK_OUT(res, want)                                                              \
  do {                                                                                    \
    if ((res).rc != 0 || strcmp((res).out, (want)) != 0) {                                \
      fprintf(stderr, "  %s:%d: rc %d (%s)\n    got  \"%s\"\n    want \"%s\"\n", __FILE__, \
              __LINE__, (res).rc, (res).err, (res).out, (want));                          \
      t_failed_now = 1;                                                                   \
    }                                                                                     \
  } while (0)

/* read = output + every dropped count */
static inline void check_identity(const hfg_store_scan_counts *k) {
  uint64_t sum = k->cells_output + k->dropped_marker + k->dropped_deleted + k->dropped_expired +
                 k->dropped_versions + k->dropped_duplicate + k->dropped_outside;
  CHECK_EQ_INT(k->cells_read, sum);
}

#define N(a) (sizeof(a) / sizeof *(a))

/* five rows r1..r5, one Put a@1 each */
#define ROWS5_CELLS                                                                       \
  {{"r1", "a", 1, P, "1", 0, NULL}, {"r2", "a", 1, P, "2", 0, NULL},                      \
   {"r3", "a", 1, P, "3", 0, NULL}, {"r4", "a", 1, P, "4", 0, NULL},                      \
   {"r5", "a", 1, P, "5", 0, NULL}}

#endif
