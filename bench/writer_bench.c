/*
 * writer_bench: hfilegen's HFile writer (include/hfilegen/writer.h) on exactly
 * the loop that bench/java WriterBench runs on HBase's StoreFileWriter: one
 * region's cells, already sorted in memory, appended in a tight loop with the same
 * settings (HFile v3 with tags, ROW bloom, the codec, 64 KB blocks, CRC32C per
 * 16 KB). Like the Java side, files are not fsynced (HBase's writer closes
 * without a sync), so the two loops do the same work.
 *
 *   writer_bench --input REGION.tsv --columns HBASE_ROW_KEY,cf:a,... --timestamp MS
 *                --codecs lz4,gz,none [--encoding none|fast_diff|...] --reps 3 --out DIR
 *                [--gz-impl zlib|isal]
 *
 * Rows are appended with hfg_writer_append_puts, as hfilegen build does.
 * Loading, splitting and sorting the rows happen before the clock starts; each
 * codec gets one untimed warm-up run. Prints the same tab-separated lines as
 * WriterBench: codec run wall_s thread_cpu_s process_cpu_s rows cells file_bytes path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "hfilegen/types.h"
#include "hfilegen/writer.h"

#define MAX_COLS 64

typedef struct row {
  const uint8_t *key;
  size_t key_len;
  const uint8_t *val[MAX_COLS];
  size_t val_len[MAX_COLS];
} row;

static int ncols;                 /* value columns */
static char *qual[MAX_COLS];      /* qualifier of each value column */
static int qorder[MAX_COLS];      /* value columns in qualifier byte order */

static int cmp_rows(const void *a, const void *b) {
  const row *x = a, *y = b;
  size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
  int c = memcmp(x->key, y->key, n);
  return c ? c : (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

static int cmp_qual(const void *a, const void *b) {
  return strcmp(qual[*(const int *)a], qual[*(const int *)b]);
}

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(const char *what) {
  fprintf(stderr, "writer_bench: %s\n", what);
  exit(1);
}

int main(int argc, char **argv) {
  const char *input = NULL, *columns = NULL, *out = NULL, *codecs = "lz4", *encoding = "none";
  long long ts = -1;
  int reps = 3;
  int gz_impl = HFG_GZ_ZLIB;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--input")) input = argv[i + 1];
    else if (!strcmp(argv[i], "--columns")) columns = argv[i + 1];
    else if (!strcmp(argv[i], "--timestamp")) ts = atoll(argv[i + 1]);
    else if (!strcmp(argv[i], "--codecs")) codecs = argv[i + 1];
    else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--out")) out = argv[i + 1];
    else if (!strcmp(argv[i], "--gz-impl")) gz_impl = !strcmp(argv[i + 1], "isal") ? HFG_GZ_ISAL : HFG_GZ_ZLIB;
    else if (!strcmp(argv[i], "--encoding")) encoding = argv[i + 1];
    else fail("unknown option");
  }
  if (!input || !columns || !out || ts < 0) {
    fprintf(stderr, "usage: writer_bench --input TSV --columns HBASE_ROW_KEY,cf:q,... "
                    "--timestamp MS --codecs lz4,gz,none --reps N --out DIR [--gz-impl zlib|isal]\n");
    return 2;
  }

  /* columns: HBASE_ROW_KEY,cf:q1,cf:q2,... (one family) */
  char *cols = strdup(columns), *save = NULL, *family = NULL;
  int total = 0;
  for (char *t = strtok_r(cols, ",", &save); t; t = strtok_r(NULL, ",", &save), total++) {
    if (total == 0) {
      if (strcmp(t, "HBASE_ROW_KEY")) fail("the row key column comes first");
      continue;
    }
    char *colon = strchr(t, ':');
    if (!colon || ncols == MAX_COLS) fail("bad --columns");
    *colon = 0;
    family = t;
    qual[ncols] = colon + 1;
    qorder[ncols] = ncols;
    ncols++;
  }
  qsort(qorder, (size_t)ncols, sizeof *qorder, cmp_qual);

  FILE *f = fopen(input, "rb");
  if (!f) fail(strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st)) fail("stat");
  uint8_t *data = malloc((size_t)st.st_size + 1);
  if (!data || fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) fail("read");
  fclose(f);
  size_t nrows = 0, cap = 1024, ncells = 0;
  row *rows = malloc(cap * sizeof *rows);
  for (size_t pos = 0; pos < (size_t)st.st_size;) {
    uint8_t *eol = memchr(data + pos, '\n', (size_t)st.st_size - pos);
    size_t end = eol ? (size_t)(eol - data) : (size_t)st.st_size;
    if (end > pos) {
      if (nrows == cap) rows = realloc(rows, (cap *= 2) * sizeof *rows);
      if (!rows) fail("memory");
      row *r = &rows[nrows++];
      size_t s = pos;
      int field = 0;
      for (size_t k = pos; k <= end && field <= ncols; k++) {
        if (k == end || data[k] == '\t') {
          if (field == 0) r->key = data + s, r->key_len = k - s;
          else r->val[field - 1] = data + s, r->val_len[field - 1] = k - s;
          field++;
          s = k + 1;
        }
      }
      if (field != ncols + 1) fail("bad line");
      for (int c = 0; c < ncols; c++) ncells += r->val_len[c] > 0;
    }
    pos = end + 1;
  }
  qsort(rows, nrows, sizeof *rows, cmp_rows);
  fprintf(stderr, "writer_bench: %zu rows, %zu cells loaded and sorted\n", nrows, ncells);

  printf("codec\trun\twall_s\tthread_cpu_s\tprocess_cpu_s\trows\tcells\tfile_bytes\tpath\n");
  char *cl = strdup(codecs);
  save = NULL;
  for (char *name = strtok_r(cl, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
    hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
    if (hfg_codec_parse(name, &o.codec)) fail("unknown codec");
    o.gz_impl = gz_impl;
    if (hfg_encoding_parse(encoding, &o.encoding)) fail("unknown encoding");
    o.bloom = HFG_BLOOM_ROW;
    o.checksum = HFG_CHECKSUM_CRC32C;
    o.bytes_per_checksum = 16384;
    o.block_size = 65536;
    o.fsync = 0;
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/%s", out, name);
    mkdir(out, 0755);
    mkdir(dir, 0755);
    for (int run = 0; run <= reps; run++) {
      snprintf(path, sizeof path, "%s/run%d", dir, run);
      double w0 = clock_s(CLOCK_MONOTONIC), t0 = clock_s(CLOCK_THREAD_CPUTIME_ID),
             p0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
      hfg_writer *w = NULL;
      if (hfg_writer_open(path, family, &o, &w)) fail(w ? hfg_writer_errmsg(w) : "open");
      /* a row's Puts at once, as hfilegen build appends them */
      hfg_put puts[MAX_COLS];
      size_t qlen[MAX_COLS];
      for (int q = 0; q < ncols; q++) qlen[q] = strlen(qual[q]);
      for (size_t i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        size_t n = 0;
        for (int q = 0; q < ncols; q++) {
          int col = qorder[q];
          if (!r->val_len[col]) continue; /* empty fields are skipped, as by both loaders */
          puts[n++] = (hfg_put){(const uint8_t *)qual[col], qlen[col], r->val[col],
                                r->val_len[col]};
        }
        if (n && hfg_writer_append_puts(w, r->key, r->key_len, ts, puts, n))
          fail(hfg_writer_errmsg(w));
      }
      if (hfg_writer_finish(w)) fail(hfg_writer_errmsg(w));
      hfg_writer_free(w);
      double p1 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t1 = clock_s(CLOCK_THREAD_CPUTIME_ID),
             w1 = clock_s(CLOCK_MONOTONIC);
      struct stat fs;
      if (stat(path, &fs)) fail("stat output");
      if (run == 0) {
        remove(path); /* warm-up */
        continue;
      }
      printf("%s\t%d\t%.4f\t%.4f\t%.4f\t%zu\t%zu\t%lld\t%s\n", name, run, w1 - w0, t1 - t0, p1 - p0,
             nrows, ncells, (long long)fs.st_size, path);
      if (run < reps) remove(path);
    }
  }
  free(cl);
  free(cols);
  free(rows);
  free(data);
  return 0;
}
