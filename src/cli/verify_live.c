/* verify --table: see verify_live.h. */
#include "cli/verify_live.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/manifest_read.h"
#include "hfilegen/reader.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/escape.h"

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The build's split keys from its manifest.json: 0, or -1 when it has none. */
static int read_manifest(verify_live *lv, const char *path) {
  cli_manifest m;
  if (cli_manifest_read(path, &m)) return -1;
  if (!m.has_splits) {
    cli_manifest_free(&m);
    return -1;
  }
  lv->bkeys = m.splits; /* taken over: free_build_keys frees them */
  lv->blens = m.split_lens;
  lv->nb = m.nsplits;
  return 0;
}

static int cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t m = an < bn ? an : bn;
  int c = m ? memcmp(a, b, m) : 0;
  return c ? c : an < bn ? -1 : an > bn;
}

static int in_build(const verify_live *lv, const uint8_t *k, size_t n) {
  for (size_t i = 0; i < lv->nb; i++)
    if (!cmp(lv->bkeys[i], lv->blens[i], k, n)) return 1;
  return 0;
}

static int in_table(const verify_live *lv, const uint8_t *k, size_t n) {
  for (size_t i = 1; i < lv->t.nregions; i++)
    if (!cmp(lv->t.regions[i].start, lv->t.regions[i].start_len, k, n)) return 1;
  return 0;
}

static void q(FILE *f, const uint8_t *k, size_t n) {
  fputc('"', f);
  hfg_escape_fputs(f, k, n);
  fputc('"', f);
}

/* The build's region around key k: [the build split <= k, the next one). */
static void build_region(const verify_live *lv, FILE *f, const uint8_t *k, size_t n, int strict) {
  size_t i = 0;
  while (i < lv->nb && (strict ? cmp(lv->bkeys[i], lv->blens[i], k, n) < 0
                               : cmp(lv->bkeys[i], lv->blens[i], k, n) <= 0))
    i++;
  fputc('[', f);
  if (i == 0) fputs("-inf", f);
  else q(f, lv->bkeys[i - 1], lv->blens[i - 1]);
  fputs(", ", f);
  size_t j = i;
  while (j < lv->nb && !cmp(lv->bkeys[j], lv->blens[j], k, n)) j++;
  if (j >= lv->nb) fputs("+inf", f);
  else q(f, lv->bkeys[j], lv->blens[j]);
  fputc(')', f);
}

static void free_build_keys(verify_live *lv) {
  for (size_t i = 0; i < lv->nb; i++) hfg_free(lv->bkeys[i]);
  hfg_free(lv->bkeys);
  hfg_free(lv->blens);
  lv->bkeys = NULL;
  lv->blens = NULL;
  lv->nb = 0;
  lv->have_manifest = 0;
}

int verify_build_splits(verify_live *lv, int argc, char **argv, int all, char *why,
                        size_t whylen) {
  snprintf(why, whylen, "no directory argument");
  int said_missing = 0; /* why names the first argument that does not exist */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '-') { /* the options' values are no inputs */
      if (!strcmp(a, "--splits") || !strcmp(a, "--table") || !strcmp(a, "--zookeeper") ||
          !strcmp(a, "--znode-parent") || !strcmp(a, "--hbase-site") ||
          !strcmp(a, "--hbase-timeout"))
        i++;
      continue;
    }
    if (!is_dir(a)) {
      struct stat st;
      if (!said_missing && stat(a, &st) != 0) {
        snprintf(why, whylen, "%s does not exist", a);
        said_missing = 1;
      }
      continue;
    }
    if (lv->have_manifest && !all) break;
    verify_live other;
    memset(&other, 0, sizeof other);
    verify_live *into = lv->have_manifest ? &other : lv;
    snprintf(into->manifest, sizeof into->manifest, "%s/manifest.json", a);
    if (read_manifest(into, into->manifest)) {
      snprintf(why, whylen, "%s has no manifest.json with \"splits\"", a);
      free_build_keys(into);
      if (into != lv) free_build_keys(lv);
      return -1;
    }
    into->have_manifest = 1;
    if (into == &other) {
      int same = other.nb == lv->nb;
      for (size_t k = 0; same && k < lv->nb; k++)
        same = !cmp(other.bkeys[k], other.blens[k], lv->bkeys[k], lv->blens[k]);
      if (!same) snprintf(why, whylen, "%s and %s come from builds with other splits",
                          lv->manifest, other.manifest);
      free_build_keys(&other);
      if (!same) {
        free_build_keys(lv);
        return -1;
      }
    }
  }
  return lv->have_manifest ? 0 : -1;
}

int verify_live_fetch(verify_live *lv, int argc, char **argv, int quiet) {
  int rc = cli_hbase_fetch(&lv->hb, 1, &lv->t, "verify");
  if (rc) return rc;
  lv->active = 1;
  char why[8192];
  (void)verify_build_splits(lv, argc, argv, 0, why, sizeof why);
  if (!quiet) printf("table: %s\n", lv->hb.source);
  if (!lv->have_manifest) {
    if (!quiet) printf("NOTE no manifest.json with \"splits\": region changes since the build "
                       "cannot be named\n");
    return 0;
  }
  /* boundaries the table has and the build had not: splits; the reverse: merges */
  for (size_t i = 1; i < lv->t.nregions; i++) {
    const hfg_hbase_region *r = &lv->t.regions[i];
    if (in_build(lv, r->start, r->start_len)) continue;
    printf("NOTE region change since the build (%s): the build's region ", lv->manifest);
    build_region(lv, stdout, r->start, r->start_len, 0);
    fputs(" was split at ", stdout);
    q(stdout, r->start, r->start_len);
    fputc('\n', stdout);
    lv->nnotes++;
  }
  for (size_t i = 0; i < lv->nb; i++) {
    if (in_table(lv, lv->bkeys[i], lv->blens[i])) continue;
    printf("NOTE region change since the build (%s): the regions meeting at ", lv->manifest);
    q(stdout, lv->bkeys[i], lv->blens[i]);
    fputs(" were merged (their files now load into one region: ", stdout);
    size_t r = hfg_hbase_region_of(&lv->t, lv->bkeys[i], lv->blens[i]);
    const hfg_hbase_region *g = &lv->t.regions[r];
    fputc('[', stdout);
    if (g->start_len) q(stdout, g->start, g->start_len);
    else fputs("-inf", stdout);
    fputs(", ", stdout);
    if (g->end_len) q(stdout, g->end, g->end_len);
    else fputs("+inf", stdout);
    fputs("))\n", stdout);
    lv->nnotes++;
  }
  if (!lv->nnotes && !quiet) printf("regions: unchanged since the build (%s)\n", lv->manifest);
  return 0;
}

void verify_live_cause(const verify_live *lv, FILE *f, const uint8_t *first, size_t first_len,
                       const uint8_t *last, size_t last_len) {
  if (!lv->active) return;
  for (size_t i = 1; i < lv->t.nregions; i++) {
    const hfg_hbase_region *r = &lv->t.regions[i];
    if (cmp(r->start, r->start_len, first, first_len) <= 0 ||
        cmp(r->start, r->start_len, last, last_len) > 0)
      continue;
    if (!lv->have_manifest) {
      fputs("; the table's regions now meet at ", f);
      q(f, r->start, r->start_len);
    } else if (!in_build(lv, r->start, r->start_len)) {
      fputs("; the build's region ", f);
      build_region(lv, f, r->start, r->start_len, 0);
      fputs(" was split at ", f);
      q(f, r->start, r->start_len);
      fputs(" since the build", f);
    } else {
      fputs("; the file crosses ", f);
      q(f, r->start, r->start_len);
      fputs(", a boundary already at build time", f);
    }
  }
}

/* Appends "; " (after the first) and one reason to why; a reason that does not fit is cut. */
static void why_add(char *why, size_t cap, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void why_add(char *why, size_t cap, size_t *n, const char *fmt, ...) {
  if (*n + 3 >= cap) return;
  if (*n) *n += (size_t)snprintf(why + *n, cap - *n, "; ");
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(why + *n, cap - *n, fmt, ap);
  va_end(ap);
  *n = k < 0 ? *n : *n + (size_t)k >= cap ? cap - 1 : *n + (size_t)k;
}

void verify_live_family(verify_live *lv, const char *path, const uint8_t *fam, size_t fam_len) {
  if (!lv->active) return;
  const hfg_hbase_family *tf = NULL;
  for (size_t i = 0; i < lv->t.nfamilies && !tf; i++)
    if (strlen(lv->t.families[i].name) == fam_len && !memcmp(lv->t.families[i].name, fam, fam_len))
      tf = &lv->t.families[i];
  if (!tf) {
    printf("FAIL %s: family \"", path);
    hfg_escape_fputs(stdout, fam, fam_len);
    printf("\" is not a family of table '%s' (completebulkload refuses unmatched family names)\n",
           lv->hb.table);
    lv->nbad++;
    return;
  }
  hfg_reader *r = NULL;
  if (hfg_reader_open(path, &r)) {
    hfg_reader_close(r);
    return; /* the file's own verification reports it */
  }
  const char *codec = hfg_compression_name(hfg_reader_trailer(r)->compression);
  const hfg_file_meta *m = hfg_reader_meta(r);
  const char *bloom = hfg_bloom_type_name(m->bloom_type);
  char why[1024] = "";
  size_t n = 0;
  if (!codec || strcasecmp(codec, tf->compression))
    why_add(why, sizeof why, &n, "compression %s, the table says %s", codec ? codec : "?",
            tf->compression);
  if (!bloom || strcasecmp(bloom, tf->bloom))
    why_add(why, sizeof why, &n, "bloom %s, the table says %s", bloom ? bloom : "?", tf->bloom);
  else if (m->bloom_type == HFG_BLOOM_ROWPREFIX &&
           m->bloom_prefix_length != cli_hbase_bloom_prefix_length(tf))
    why_add(why, sizeof why, &n,
            "bloom prefix length %u, the table says RowPrefixBloomFilter.prefix_length %s",
            m->bloom_prefix_length, tf->bloom_prefix_length ? tf->bloom_prefix_length : "(unset)");
  /* the file info's DATA_BLOCK_ENCODING names the blocks' encoding (absent: NONE) */
  const uint8_t *ev;
  size_t el;
  char enc[64] = "NONE";
  if (hfg_reader_fileinfo_get(r, "DATA_BLOCK_ENCODING", &ev, &el))
    snprintf(enc, sizeof enc, "%.*s", (int)(el < 63 ? el : 63), (const char *)ev);
  if (strcasecmp(enc, tf->encoding))
    why_add(why, sizeof why, &n,
            "data block encoding %s, the table says DATA_BLOCK_ENCODING %s (rebuild with "
            "--table; completebulkload would load the file as it is)",
            enc, tf->encoding);
  hfg_reader_close(r);
  if (why[0]) {
    printf("FAIL %s: family '%s': %s\n", path, tf->name, why);
    lv->nbad++;
  }
}

void verify_live_free(verify_live *lv) {
  free_build_keys(lv);
  hfg_hbase_table_free(&lv->t);
}
