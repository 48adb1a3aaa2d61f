/*
 * hfilegen verify FILE|DIR... [--splits FILE] [--quiet]
 *
 * Verifies each HFile with hfg_verify (format-specs/reader-checks.md). A DIR is
 * a bulk-load directory walked as completebulkload does
 * (LoadIncrementalHFiles.visitBulkHFiles): <dir>/<family>/<file>; entries
 * whose names start with '_' or '.', files directly under <dir> (manifest.json,
 * _SUCCESS) and files without an HFile trailer are skipped. A file in a family
 * directory must hold cells of that family.
 *
 * --splits FILE (one escaped split key per line, blank lines ignored) adds the
 * region checks of the bulk loader: each file's [first row, last row] must lie
 * inside one region (else completebulkload splits it), and no region may get
 * more than 32 files of one family (hbase.mapreduce.bulkload.max.hfiles.
 * perRegion.perFamily). Without --splits or --table the region checks run
 * against the build's own splits when every DIR has a manifest.json with them
 * (and they agree), saying so; else a NOTE says that regions were not checked.
 * Exit 0 only when everything passes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_flags.h"
#include "cli/cli_util.h"
#include "cli/manifest_read.h"
#include "cli/verify_live.h"
#include "hfilegen/reader.h"
#include "build/splits.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/escape.h"

#define MAX_FILES_PER_REGION_FAMILY 32

typedef struct vfile {
  char *path;
  char *family_dir;     /* the <family> directory name, NULL for a FILE argument */
  int rc;
  int region;           /* -1 unknown */
  hfg_verify_report rep;
} vfile;

typedef struct vlist {
  vfile *v;
  size_t n, cap;
} vlist;

typedef struct splits {
  hfg_buf data;         /* all keys back to back */
  size_t *off, *len;
  size_t n;
} splits;

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen verify FILE|DIR... [--splits FILE] [--quiet]\n\n"
          "  FILE          an HFile\n"
          "  DIR           a bulk-load directory: DIR/<family>/<hfile>\n"
          "  --splits F    region split keys (one escaped key per line): check that each file\n"
          "                lies in one region and that no region gets more than 32 files per\n"
          "                family (without --splits or --table: the build's splits, from\n"
          "                DIR/manifest.json, when every DIR has them)\n"
          "  --quiet       print only failures and the summary\n"
          "  --table T     instead of --splits, right before the load: the live table's\n"
          "                regions (and the changes since the build, from manifest.json),\n"
          "                and each family's settings; connection: --zookeeper host:port[,...]\n"
          "                --znode-parent P, --hbase-site FILE or $HBASE_CONF_DIR,\n"
          "                --hbase-timeout MS\n"
          "exit: 0 all pass, 1 a check failed, 2 usage\n");
}

static char *dupstr(const char *s) { return hfg_strdup(s); }

static int add_file(vlist *l, const char *path, const char *family) {
  if (l->n == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 16;
    vfile *p = hfg_realloc(l->v, nc * sizeof *p);
    if (!p) return -1;
    l->v = p;
    l->cap = nc;
  }
  vfile *f = &l->v[l->n];
  memset(f, 0, sizeof *f);
  f->region = -1;
  f->path = dupstr(path);
  f->family_dir = family ? dupstr(family) : NULL;
  if (!f->path || (family && !f->family_dir)) {
    hfg_free(f->path);
    hfg_free(f->family_dir);
    return -1;
  }
  l->n++;
  return 0;
}


static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a directory, skipping '_' and '.' names. */
static char **list_dir(const char *dir, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **names = NULL;
  size_t cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '_' || e->d_name[0] == '.') continue;
    if (*n == cap) {
      size_t nc = cap ? cap * 2 : 16;
      char **p = hfg_realloc(names, nc * sizeof *p);
      if (!p) break;
      names = p;
      cap = nc;
    }
    if (!(names[*n] = dupstr(e->d_name))) break;
    (*n)++;
  }
  closedir(d);
  if (*n) qsort(names, *n, sizeof *names, cmp_str);
  if (!names) names = hfg_calloc(1, sizeof *names);
  return names;
}

static void free_names(char **names, size_t n) {
  for (size_t i = 0; i < n; i++) hfg_free(names[i]);
  hfg_free(names);
}

static char *join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *p = hfg_malloc(n);
  if (p) snprintf(p, n, "%s/%s", a, b);
  return p;
}

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 1 when dir is a finished hfilegen output that holds no HFile by design:
 * _SUCCESS is there and manifest.json lists no file and no written record
 * (a night of an incremental load with no new row, a table with no row). */
static int empty_build(const char *dir) {
  char *ok = join(dir, "_SUCCESS"), *mf = join(dir, "manifest.json");
  struct stat st;
  cli_manifest m;
  int empty = 0;
  if (ok && mf && stat(ok, &st) == 0 && S_ISREG(st.st_mode) && !cli_manifest_read(mf, &m)) {
    empty = m.nfiles == 0 && m.records_written == 0;
    cli_manifest_free(&m);
  }
  hfg_free(ok);
  hfg_free(mf);
  return empty;
}

/* Collects <dir>/<family>/<file>; returns the number of HFiles found or -1. */
static long walk_dir(vlist *l, const char *dir, int quiet) {
  size_t nf;
  char **fams = list_dir(dir, &nf);
  if (!fams) return -1;
  long found = 0;
  for (size_t i = 0; i < nf && found >= 0; i++) {
    char *fdir = join(dir, fams[i]);
    if (!fdir) {
      found = -1;
      break;
    }
    if (!is_dir(fdir)) {
      /* hfilegen's own manifest is expected there (completebulkload skips it too) */
      if (!quiet && strcmp(fams[i], "manifest.json"))
        printf("SKIP %s: not a family directory\n", fdir);
      hfg_free(fdir);
      continue;
    }
    size_t nh;
    char **files = list_dir(fdir, &nh);
    if (!files) {
      fprintf(stderr, "hfilegen verify: %s: cannot list: %s\n", fdir, strerror(errno));
      hfg_free(fdir);
      found = -1;
      break;
    }
    for (size_t j = 0; j < nh; j++) {
      char *p = join(fdir, files[j]);
      if (!p) {
        found = -1;
        break;
      }
      struct stat st;
      if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (!quiet) printf("SKIP %s: not a regular file\n", p);
      } else if (add_file(l, p, fams[i])) {
        /* A file without an HFile trailer is verified too, and fails: the bulk loader
         * would skip it with a warning and its rows would silently be missing. */
        found = -1;
      } else {
        found++;
      }
      hfg_free(p);
    }
    free_names(files, nh);
    hfg_free(fdir);
  }
  free_names(fams, nf);
  return found;
}

/* ---- splits ---- */

static void splits_free(splits *s) {
  hfg_buf_free(&s->data);
  hfg_free(s->off);
  hfg_free(s->len);
}

/* Room for n split keys in s (empty); 0 or -1 out of memory. */
static int splits_init(splits *s, size_t n) {
  memset(s, 0, sizeof *s);
  s->off = hfg_calloc(n + 1, sizeof *s->off);
  s->len = hfg_calloc(n + 1, sizeof *s->len);
  return s->off && s->len ? 0 : -1;
}

/* Appends one key (room made by splits_init); 0 or -1 out of memory. */
static int splits_add(splits *s, const uint8_t *key, size_t len) {
  s->off[s->n] = s->data.len;
  s->len[s->n] = len;
  if (hfg_buf_append(&s->data, key, len)) return -1;
  s->n++;
  return 0;
}

/* The splits file as build reads it (hfg_splits_load: comments, trailing
 * whitespace refused, ascending keys), copied into s. */
static int load_splits(const char *path, splits *s) {
  memset(s, 0, sizeof *s);
  hfg_splits sp;
  hfg_err e = {0};
  if (hfg_splits_load(path, &sp, &e)) {
    fprintf(stderr, "hfilegen verify: %s\n", e.msg);
    cli_splits_hint(stderr, "verify", path, e.msg);
    return -1;
  }
  if (sp.n == 0) fprintf(stderr, "hfilegen verify: warning: %s: no split points: one region\n", path);
  int rc = splits_init(s, sp.n);
  for (size_t i = 0; !rc && i < sp.n; i++) rc = splits_add(s, sp.key[i], sp.len[i]);
  hfg_splits_free(&sp);
  if (rc) {
    fprintf(stderr, "hfilegen verify: %s: out of memory\n", path);
    splits_free(s);
  }
  return rc;
}

/* The live table's start keys (but the first) as the split keys. */
static int splits_from_table(const hfg_hbase_table *t, splits *s) {
  size_t n = t->nregions ? t->nregions - 1 : 0;
  int rc = splits_init(s, n);
  for (size_t i = 0; !rc && i < n; i++)
    rc = splits_add(s, t->regions[i + 1].start, t->regions[i + 1].start_len);
  return rc;
}

/* The build's split keys (manifest.json) as the split keys. */
static int splits_from_keys(uint8_t *const *keys, const size_t *lens, size_t n, splits *s) {
  int rc = splits_init(s, n);
  for (size_t i = 0; !rc && i < n; i++) rc = splits_add(s, keys[i], lens[i]);
  return rc;
}

static int bytes_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t m = an < bn ? an : bn;
  int c = m ? memcmp(a, b, m) : 0;
  if (c) return c;
  return an < bn ? -1 : an > bn;
}

/* Region of a row: the number of split keys <= row. */
static size_t region_of(const splits *s, const uint8_t *row, size_t n) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (bytes_cmp(s->data.p + s->off[mid], s->len[mid], row, n) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void print_region(FILE *f, const splits *s, size_t r) {
  fprintf(f, "region %zu [", r);
  if (r == 0) fputs("-inf", f);
  else {
    fputc('"', f);
    hfg_escape_fputs(f, s->data.p + s->off[r - 1], s->len[r - 1]);
    fputc('"', f);
  }
  fputs(", ", f);
  if (r == s->n) fputs("+inf", f);
  else {
    fputc('"', f);
    hfg_escape_fputs(f, s->data.p + s->off[r], s->len[r]);
    fputc('"', f);
  }
  fputc(')', f);
}

static const uint8_t *file_family(const vfile *f, size_t *n) {
  if (f->family_dir) {
    *n = strlen(f->family_dir);
    return (const uint8_t *)f->family_dir;
  }
  *n = f->rep.family_len;
  return f->rep.family ? f->rep.family : (const uint8_t *)"";
}

typedef struct rf {
  size_t region;
  const uint8_t *fam;
  size_t fam_len;
} rf;

static int cmp_rf(const void *a, const void *b) {
  const rf *x = a, *y = b;
  if (x->region != y->region) return x->region < y->region ? -1 : 1;
  return bytes_cmp(x->fam, x->fam_len, y->fam, y->fam_len);
}

static int cmp_fam(const void *a, const void *b) {
  const rf *x = a, *y = b;
  return bytes_cmp(x->fam, x->fam_len, y->fam, y->fam_len);
}

/* ---- main ---- */

int cmd_verify(int argc, char **argv) {
  const char *splits_path = NULL;
  int quiet = 0, nargs = 0;
  verify_live live;
  memset(&live, 0, sizeof live);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int hk;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) quiet = 1;
    else if (!strcmp(a, "--splits") || !strncmp(a, "--splits=", 9)) {
      splits_path = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
      if (!splits_path || !*splits_path) {
        fprintf(stderr, "hfilegen verify: --splits needs a file\n");
        return 2;
      }
    } else if ((hk = cli_hbase_flag(&live.hb, argc, argv, &i, 1, "verify")) != 0) {
      if (hk < 0) return 2;
    } else if (a[0] == '-' && a[1]) {
      cli_flag_unknown("verify", a);
      usage(stderr);
      return 2;
    } else {
      nargs++;
    }
  }
  if (!nargs) {
    usage(stderr);
    return 2;
  }
  splits sp;
  memset(&sp, 0, sizeof sp);
  if (splits_path && load_splits(splits_path, &sp)) return 2;
  if (live.hb.table) {
    if (splits_path) {
      fprintf(stderr, "hfilegen verify: --splits and --table exclude each other\n");
      splits_free(&sp);
      return 2;
    }
    int lr = verify_live_fetch(&live, argc, argv, quiet);
    if (!lr && splits_from_table(&live.t, &sp)) {
      fprintf(stderr, "hfilegen verify: out of memory\n");
      lr = 1;
    }
    if (lr) {
      splits_free(&sp);
      verify_live_free(&live);
      return lr;
    }
    splits_path = live.hb.table; /* the region checks below run against the live regions */
  } else if (!splits_path) {
    /* neither: the build's own splits, from the manifest.json of every directory */
    char why[8192];
    if (!verify_build_splits(&live, argc, argv, 1, why, sizeof why)) {
      if (splits_from_keys(live.bkeys, live.blens, live.nb, &sp)) {
        fprintf(stderr, "hfilegen verify: out of memory\n");
        verify_live_free(&live);
        return 1;
      }
      splits_path = live.manifest;
      if (!quiet)
        printf("regions: the build's, from %s (right before the load, check against the "
               "table's: --table T)\n", live.manifest);
    } else if (!quiet) {
      printf("NOTE regions not checked: no --splits or --table, and %s\n", why);
    }
  }

  vlist l;
  memset(&l, 0, sizeof l);
  int failed = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--splits")) {
      i++;
      continue;
    }
    if (cli_hbase_flag_takes_value(a)) {
      i++;
      continue;
    }
    if (a[0] == '-' && a[1]) continue;
    if (is_dir(a)) {
      long n = walk_dir(&l, a, quiet);
      if (n < 0) {
        fprintf(stderr, "hfilegen verify: %s: cannot walk the directory\n", a);
        failed = 1;
      } else if (n == 0 && empty_build(a)) {
        printf("OK %s: no HFiles: the build wrote no rows (manifest.json), nothing to load\n", a);
      } else if (n == 0) {
        printf("FAIL %s: no HFiles found in the <dir>/<family>/<file> layout\n", a);
        failed = 1;
      }
    } else if (add_file(&l, a, NULL)) {
      fprintf(stderr, "hfilegen verify: out of memory\n");
      failed = 1;
    }
  }

  size_t nfail = 0, nspan = 0, nover = 0;
  for (size_t i = 0; i < l.n; i++) {
    vfile *f = &l.v[i];
    f->rc = hfg_verify_path(f->path, &f->rep);
    if (!f->rc && f->family_dir && f->rep.has_cells &&
        (f->rep.family_len != strlen(f->family_dir) ||
         memcmp(f->rep.family, f->family_dir, f->rep.family_len) != 0)) {
      hfg_buf fam = HFG_BUF_INIT;
      hfg_escape(&fam, f->rep.family, f->rep.family_len);
      snprintf(f->rep.message, sizeof f->rep.message,
               "cells are of family \"%.*s\" but the file lies in family directory \"%s\"",
               (int)fam.len, fam.p ? (const char *)fam.p : "", f->family_dir);
      hfg_buf_free(&fam);
      f->rc = HFG_EVERIFY;
    }
    if (f->rc) {
      nfail++;
      printf("FAIL %s: %s\n", f->path, f->rep.message);
      continue;
    }
    int span = 0;
    if (splits_path && f->rep.has_cells) {
      size_t r0 = region_of(&sp, f->rep.first_row, f->rep.first_row_len);
      size_t r1 = region_of(&sp, f->rep.last_row, f->rep.last_row_len);
      f->region = (int)r0;
      if (r1 != r0) {
        span = 1;
        nspan++;
        printf("FAIL %s: rows \"", f->path);
        hfg_escape_fputs(stdout, f->rep.first_row, f->rep.first_row_len);
        fputs("\"..\"", stdout);
        hfg_escape_fputs(stdout, f->rep.last_row, f->rep.last_row_len);
        printf("\" span regions %zu..%zu; completebulkload would split it at the end of ", r0, r1);
        print_region(stdout, &sp, r0);
        verify_live_cause(&live, stdout, f->rep.first_row, f->rep.first_row_len, f->rep.last_row,
                          f->rep.last_row_len);
        fputc('\n', stdout);
      }
    }
    if (live.active) {
      size_t fl;
      const uint8_t *fam = file_family(f, &fl);
      verify_live_family(&live, f->path, fam, fl);
    }
    if (!quiet && !span) {
      printf("OK %s: %" PRIu64 " cells, %" PRIu64 " rows, %" PRIu64 " blocks (%" PRIu64
             " data, %" PRIu64 " index, %" PRIu64 " bloom, %" PRIu64 " meta)",
             f->path, f->rep.cells, f->rep.rows, f->rep.blocks, f->rep.data_blocks,
             f->rep.index_blocks, f->rep.bloom_blocks, f->rep.meta_blocks);
      if (!f->rep.has_cells) fputs(", empty (the bulk loader skips it)", stdout);
      if (f->region >= 0) {
        fputs(", ", stdout);
        print_region(stdout, &sp, (size_t)f->region);
      }
      fputc('\n', stdout);
    }
  }

  /* families and files per region per family */
  rf *g = l.n ? hfg_calloc(l.n, sizeof *g) : NULL;
  size_t gn = 0, max_per = 0;
  if (l.n && !g) {
    fprintf(stderr, "hfilegen verify: out of memory\n");
    failed = 1;
  }
  for (size_t i = 0; g && i < l.n; i++) {
    if (l.v[i].rc) continue;
    g[gn].fam = file_family(&l.v[i], &g[gn].fam_len);
    g[gn].region = l.v[i].region >= 0 ? (size_t)l.v[i].region : 0;
    gn++;
  }
  if (gn && !quiet) {
    qsort(g, gn, sizeof *g, cmp_fam);
    fputs("families:", stdout);
    for (size_t i = 0; i < gn;) {
      size_t j = i;
      while (j < gn && !cmp_fam(&g[i], &g[j])) j++;
      fputs(i ? ", \"" : " \"", stdout);
      hfg_escape_fputs(stdout, g[i].fam, g[i].fam_len);
      printf("\" (%zu file%s)", j - i, j - i == 1 ? "" : "s");
      i = j;
    }
    fputc('\n', stdout);
  }
  if (splits_path && gn) {
    qsort(g, gn, sizeof *g, cmp_rf);
    for (size_t i = 0; i < gn;) {
      size_t j = i;
      while (j < gn && !cmp_rf(&g[i], &g[j])) j++;
      if (j - i > max_per) max_per = j - i;
      if (j - i > MAX_FILES_PER_REGION_FAMILY) {
        nover++;
        fputs("FAIL ", stdout);
        print_region(stdout, &sp, g[i].region);
        fputs(" family \"", stdout);
        hfg_escape_fputs(stdout, g[i].fam, g[i].fam_len);
        printf("\": %zu files; completebulkload refuses more than %d per region and family "
               "(hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily)\n",
               j - i, MAX_FILES_PER_REGION_FAMILY);
      }
      i = j;
    }
  }
  if (splits_path && !quiet)
    printf("regions: %zu from %zu split keys; at most %zu file%s per region and family\n",
           sp.n + 1, sp.n, max_per, max_per == 1 ? "" : "s");
  hfg_free(g);

  int ok = !failed && !nfail && !nspan && !nover;
  if (live.nbad) {
    printf("FAIL: %zu HFile%s do not match table '%s''s family settings\n", live.nbad,
           live.nbad == 1 ? "" : "s", live.hb.table);
    ok = 0;
  }
  if (ok) {
    printf("PASS: %zu HFile%s verified%s\n", l.n, l.n == 1 ? "" : "s",
           splits_path ? ", each inside one region" : "");
  } else {
    /* only the problems found, each counted in its own words */
    const char *sep = "";
    fputs("FAIL:", stdout);
    if (nfail) {
      printf(" %zu of %zu HFile%s failed verification", nfail, l.n, l.n == 1 ? "" : "s");
      sep = ";";
    }
    if (nspan) {
      printf("%s %zu of %zu HFile%s %s more than one region", sep, nspan, l.n,
             l.n == 1 ? "" : "s", nspan == 1 ? "spans" : "span");
      sep = ";";
    }
    if (nover) {
      printf("%s %zu region/family group%s %s more than %d files", sep, nover,
             nover == 1 ? "" : "s", nover == 1 ? "has" : "have", MAX_FILES_PER_REGION_FAMILY);
      sep = ";";
    }
    if (!*sep) fputs(" see the errors above", stdout);
    fputc('\n', stdout);
  }
  for (size_t i = 0; i < l.n; i++) {
    hfg_free(l.v[i].path);
    hfg_free(l.v[i].family_dir);
    hfg_verify_report_free(&l.v[i].rep);
  }
  hfg_free(l.v);
  splits_free(&sp);
  verify_live_free(&live);
  if (fflush(stdout) != 0) return 1;
  return ok ? 0 : 1;
}
