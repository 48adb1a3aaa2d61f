/* Changes loads (src/build/changes.c, format-specs/nightly-loads.md): the
 * HFiles hfg_build_run writes are read back and their cells checked one by
 * one (type, timestamp, value); then two "nights" are merged by the store scan
 * (HBase's read path, format-specs/scan-semantics.md) and the visible table
 * must be the source's state after the second night, older versions still
 * there where nothing masked them. Bad input: a future timestamp, an unknown
 * operation, a deletes source without the key column. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hfilegen/build.h"
#include "hfilegen/plan.h"
#include "hfilegen/reader.h"
#include "input/store_scan.h"
#include "t.h"

static char base[256];

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static void path_in(char *out, size_t cap, const char *name) {
  snprintf(out, cap, "%s/%s", base, name);
}

/* Runs a build of one CSV input (header; ts column; NULL written \N). */
static int run(const char *csv_name, const char *out_name, hfg_build_options *o,
               hfg_build_summary *s) {
  static char in[512], out[512];
  path_in(in, sizeof in, csv_name);
  path_in(out, sizeof out, out_name);
  static const char *inputs[1];
  inputs[0] = in;
  o->inputs = inputs;
  o->ninputs = 1;
  o->out_dir = out;
  o->threads = 1;
  o->null_string = "\\N";
  int rc = hfg_build_run(o, s);
  if (rc) fprintf(stderr, "  build: %s\n", s->error);
  return rc;
}

/* plan over the job build just ran with o (its inputs and options); NULL after
 * printing why. The caller frees it. */
static hfg_plan *plan_job(hfg_build_options *o) {
  hfg_plan_options po;
  hfg_plan_options_init(&po);
  po.build = o;
  po.no_raw_key = 1;
  hfg_plan *pl = NULL;
  char err[512];
  if (hfg_plan_run(&po, &pl, err, sizeof err) == 0) return pl;
  fprintf(stderr, "  plan: %s\n", err);
  hfg_plan_free(pl);
  return NULL;
}

static void base_opts(hfg_build_options *o) {
  hfg_build_options_init(o);
  o->rowkey = "{id}";
  o->timestamp_column = "ts";
  o->job_timestamp = 1700000000000;
  static const char *maps[] = {"ts=-", "n=g:n:long"};
  o->mappings = maps;
  o->nmappings = 2;
}

/* Every cell of every HFile under dir/family, in file order, as
 * "row/qual@ts TYPE=value;" (TYPE P, DC, DF). */
static void cells_of(const char *out_name, const char *family, char *text, size_t cap,
                     int64_t *df_count) {
  char dir[600];
  snprintf(dir, sizeof dir, "%s/%s/%s", base, out_name, family);
  text[0] = '\0';
  *df_count = 0;
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  size_t at = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || e->d_name[0] == '_') continue;
    char p[900];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    hfg_reader *r = NULL;
    if (hfg_reader_open(p, &r)) {
      hfg_reader_close(r);
      continue;
    }
    const uint8_t *v;
    size_t vl;
    if (hfg_reader_fileinfo_get(r, "DELETE_FAMILY_COUNT", &v, &vl) == 1 && vl == 8)
      for (size_t i = 0; i < 8; i++) *df_count = (*df_count << 8) | v[i];
    hfg_scanner *s = NULL;
    hfg_scanner_new(r, &s);
    hfg_read_cell c;
    while (hfg_scanner_next(s, &c) == 1) {
      const hfg_cell *x = &c.cell;
      const char *t = x->type == HFG_TYPE_PUT ? "P" : x->type == HFG_TYPE_DELETE_COLUMN ? "DC"
                      : x->type == HFG_TYPE_DELETE_FAMILY ? "DF" : "?";
      char val[64] = "";
      if (x->value_len == 8 && !strcmp(family, "g")) /* the long column */
        snprintf(val, sizeof val, "#%lld",
                 (long long)(((uint64_t)x->value[0] << 56) | ((uint64_t)x->value[6] << 8) |
                             x->value[7]));
      else
        snprintf(val, sizeof val, "%.*s", (int)x->value_len, (const char *)x->value);
      at += (size_t)snprintf(text + at, cap - at, "%.*s/%.*s@%lld %s=%s;", (int)x->row_len,
                             (const char *)x->row, (int)x->qualifier_len,
                             (const char *)x->qualifier, (long long)x->timestamp, t, val);
    }
    hfg_scanner_free(s);
    hfg_reader_close(r);
  }
  closedir(d);
}

static void setup_base(void) {
  snprintf(base, sizeof base, "/tmp/hfg_test_changes_%d", (int)getpid());
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", base, base);
  if (system(cmd)) fprintf(stderr, "  cannot make %s\n", base);
}

/* Each record's whole state: a value is a Put, a NULL or an empty value a
 * DeleteColumn at the same timestamp (never a DeleteFamily: it would mask
 * the row's own Puts at T); op d and the soft-delete flag: DeleteFamily in
 * every family a column maps to; the control columns are no cells. */
TEST(cells_by_type) {
  setup_base();
  char p[600];
  path_in(p, sizeof p, "n1.csv");
  write_file(p, "id,op,gone,a,b,n,ts\n"
                "1,i,0,x,\\N,5,1700000000100\n"
                "2,u,f,,y,\\N,1700000000200\n"
                "3,d,0,q,q,1,1700000000300\n"
                "4,u,yes,q,q,1,1700000000400\n");
  hfg_build_options o;
  hfg_build_summary s;
  base_opts(&o);
  o.op_column = "op";
  o.delete_if = "gone";
  REQUIRE(run("n1.csv", "o1", &o, &s) == 0);
  char cf[2048], g[2048];
  int64_t dcf = -1, dg = -1;
  cells_of("o1", "cf", cf, sizeof cf, &dcf);
  cells_of("o1", "g", g, sizeof g, &dg);
  CHECK(!strcmp(cf, "1/a@1700000000100 P=x;1/b@1700000000100 DC=;"
                    "2/a@1700000000200 DC=;2/b@1700000000200 P=y;"
                    "3/@1700000000300 DF=;4/@1700000000400 DF=;"));
  CHECK(!strcmp(g, "1/n@1700000000100 P=#5;2/n@1700000000200 DC=;"
                   "3/@1700000000300 DF=;4/@1700000000400 DF=;"));
  if (t_failed_now) fprintf(stderr, "  cf: %s\n  g: %s\n", cf, g);
  CHECK_EQ_INT(dcf, 2); /* DELETE_FAMILY_COUNT, as StoreFileWriter counts them */
  CHECK_EQ_INT(dg, 2);
  CHECK_EQ_INT(s.put_cells, 3);
  CHECK_EQ_INT(s.column_deletes, 3);
  CHECK_EQ_INT(s.row_deletes, 2);
  CHECK_EQ_INT(s.family_deletes, 4);
  CHECK_EQ_INT(s.null_values, 2);
  CHECK_EQ_INT(s.records_read, 4);
  CHECK_EQ_INT(s.records_written, 4);
  /* plan counts the cells build wrote: Puts, DeleteColumns, DeleteFamily per family, no
   * control column */
  hfg_plan *pl = plan_job(&o);
  REQUIRE(pl != NULL);
  CHECK_EQ_INT(pl->after.rows, 4);
  CHECK_EQ_INT(pl->after.cells, s.cells);
  CHECK_EQ_INT(s.cells, 3 + 3 + 4);
  hfg_plan_free(pl);
  hfg_build_summary_free(&s);
}

/* With the table's families known (build --table), a deleted row is a DeleteFamily in
 * each of them, also one no column maps to (HBase's row delete: HRegion.prepareDelete);
 * live rows write nothing there; plan counts the same cells. */
TEST(table_families_get_row_deletes) {
  setup_base();
  char p[600];
  path_in(p, sizeof p, "t.csv");
  write_file(p, "id,gone,a,n,ts\n1,0,x,5,1700000000100\n2,1,y,6,1700000000200\n");
  hfg_build_options o;
  hfg_build_summary s;
  base_opts(&o);
  o.delete_if = "gone";
  static const hfg_build_family fams[] = {{.name = "cf"}, {.name = "g"}, {.name = "x"}};
  o.table_families = fams;
  o.ntable_families = 3;
  REQUIRE(run("t.csv", "t1", &o, &s) == 0);
  char cf[1024], g[1024], x[1024];
  int64_t d;
  cells_of("t1", "cf", cf, sizeof cf, &d);
  cells_of("t1", "g", g, sizeof g, &d);
  cells_of("t1", "x", x, sizeof x, &d);
  CHECK(!strcmp(cf, "1/a@1700000000100 P=x;2/@1700000000200 DF=;"));
  CHECK(!strcmp(g, "1/n@1700000000100 P=#5;2/@1700000000200 DF=;"));
  CHECK(!strcmp(x, "2/@1700000000200 DF=;"));
  CHECK_EQ_INT(d, 1);
  if (t_failed_now) fprintf(stderr, "  cf: %s\n  g: %s\n  x: %s\n", cf, g, x);
  CHECK_EQ_INT(s.family_deletes, 3);
  CHECK_EQ_INT(s.row_deletes, 1);
  hfg_plan *pl = plan_job(&o);
  REQUIRE(pl != NULL);
  CHECK_EQ_INT(pl->after.cells, s.cells);
  CHECK_EQ_INT(s.cells, 5);
  hfg_plan_free(pl);
  hfg_build_summary_free(&s);
}

/* The visible table (latest versions, VERSIONS 3) over the files of every
 * night in load order, as "row:qual=value" items. */
static void visible(const char *const *outs, size_t nouts, const char *family, int versions,
                    char *text, size_t cap) {
  hfg_store_scan_options so = HFG_STORE_SCAN_OPTIONS_INIT;
  so.versions = versions;
  so.as_of_ms = 1800000000000;
  so.family = (const uint8_t *)family;
  so.family_len = strlen(family);
  hfg_store_scan *sc = NULL;
  text[0] = '\0';
  if (hfg_store_scan_create(&so, &sc)) return;
  hfg_reader *rs[16];
  size_t nr = 0;
  for (size_t k = 0; k < nouts; k++) {
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s/%s", base, outs[k], family);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) && nr < 16) {
      if (e->d_name[0] == '.' || e->d_name[0] == '_') continue;
      char p[900];
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      if (hfg_reader_open(p, &rs[nr])) continue;
      char name[300];
      /* completebulkload names each load's files with a growing sequence id */
      snprintf(name, sizeof name, "%s_SeqId_%zu_", e->d_name, k + 1);
      hfg_store_file f;
      memset(&f, 0, sizeof f);
      f.reader = rs[nr++];
      f.name = name;
      hfg_store_scan_describe(sc, &f);
      hfg_store_scan_add(sc, &f);
    }
    if (d) closedir(d);
  }
  const hfg_cell *cells;
  size_t n, at = 0;
  while (hfg_store_scan_next_row(sc, &cells, &n) == 1)
    for (size_t i = 0; i < n; i++)
      at += (size_t)snprintf(text + at, cap - at, "%.*s:%.*s@%lld=%.*s;", (int)cells[i].row_len,
                             (const char *)cells[i].row, (int)cells[i].qualifier_len,
                             (const char *)cells[i].qualifier, (long long)cells[i].timestamp,
                             (int)cells[i].value_len, (const char *)cells[i].value);
  hfg_store_scan_free(sc);
  for (size_t i = 0; i < nr; i++) hfg_reader_close(rs[i]);
}

/* Night 1 loads everything; night 2 brings: row 1 a changed and b set NULL,
 * row 2 deleted (soft), row 3 a NULL column set, row 5 inserted and updated
 * the same day (two records: the last wins), row 4 hard-deleted, row 6 both
 * hard-deleted and live (deleted and re-inserted: the live row wins). */
TEST(two_nights_scan_equals_source) {
  setup_base();
  char p[600];
  path_in(p, sizeof p, "night1.csv");
  write_file(p, "id,gone,a,b,ts\n"
                "1,0,a1,b1,1700000001000\n"
                "2,0,a2,b2,1700000001000\n"
                "3,0,a3,\\N,1700000001000\n"
                "4,0,a4,b4,1700000001000\n"
                "6,0,a6,b6,1700000001000\n");
  path_in(p, sizeof p, "night2.csv");
  write_file(p, "id,gone,a,b,ts\n"
                "1,0,A1,\\N,1700000002000\n"
                "2,1,a2,b2,1700000002100\n"
                "3,0,a3,B3,1700000002200\n"
                "5,0,a5,b5,1700000002300\n"
                "5,0,A5,\\N,1700000002400\n"
                "6,0,A6,b6,1700000002500\n");
  path_in(p, sizeof p, "deleted.csv");
  write_file(p, "id,deleted_at\n4,x\n6,y\n");
  hfg_build_options o;
  hfg_build_summary s;
  base_opts(&o);
  static const char *maps[] = {"ts=-"};
  o.mappings = maps;
  o.nmappings = 1;
  o.delete_if = "gone";
  REQUIRE(run("night1.csv", "night1", &o, &s) == 0);
  hfg_build_summary_free(&s);
  char del[600];
  path_in(del, sizeof del, "deleted.csv");
  o.deletes = del;
  o.on_duplicate = HFG_DUP_LAST;
  o.timestamp = 1700000003000; /* the hard deletes' markers */
  o.job_timestamp = 1700000003000;
  REQUIRE(run("night2.csv", "night2", &o, &s) == 0);
  /* plan reads the deletes source too: its 2 records, each a DeleteFamily in cf; its
   * cells are the input's records' (duplicates not resolved) and the 2 markers */
  hfg_plan *pl = plan_job(&o);
  REQUIRE(pl != NULL);
  CHECK_EQ_INT(pl->deletes_read, 2);
  CHECK_EQ_INT(pl->records_read, 8);
  CHECK_EQ_INT(pl->after.rows, 8);
  /* 5 live records x 2 columns, row 2 (soft) 1 DF, the 2 tombstones' DFs */
  CHECK_EQ_INT(pl->after.cells, 5 * 2 + 1 + 2);
  hfg_plan_free(pl);
  CHECK_EQ_INT(s.deletes_read, 2);
  CHECK_EQ_INT(s.deletes_superseded, 1);
  CHECK_EQ_INT(s.row_deletes, 2); /* 2 (soft) and 4 (hard) */
  CHECK_EQ_INT(s.records_read, 8);
  CHECK_EQ_INT(s.duplicates_dropped, 2);
  CHECK_EQ_INT(s.records_written, 6);
  hfg_build_summary_free(&s);
  const char *outs[] = {"night1", "night2"};
  char v[4096];
  visible(outs, 2, "cf", 1, v, sizeof v);
  CHECK(!strcmp(v, "1:a@1700000002000=A1;3:a@1700000002200=a3;3:b@1700000002200=B3;"
                   "5:a@1700000002400=A5;6:a@1700000002500=A6;6:b@1700000002500=b6;"));
  if (t_failed_now) fprintf(stderr, "  visible: %s\n", v);
  /* VERSIONS 3: an updated column keeps its history, a NULLed or deleted one none */
  visible(outs, 2, "cf", 3, v, sizeof v);
  /* row 6, deleted and inserted again in the night, has no version of the old row left:
   * its DeleteFamily is at T - 1 (the hard delete's time, the job's, is later) */
  CHECK(!strcmp(v, "1:a@1700000002000=A1;1:a@1700000001000=a1;3:a@1700000002200=a3;"
                   "3:a@1700000001000=a3;3:b@1700000002200=B3;5:a@1700000002400=A5;"
                   "6:a@1700000002500=A6;6:b@1700000002500=b6;"));
  if (t_failed_now) fprintf(stderr, "  versions 3: %s\n", v);
  char c2[4096];
  int64_t d2;
  cells_of("night2", "cf", c2, sizeof c2, &d2);
  CHECK(strstr(c2, "6/@1700000002499 DF=;6/a@1700000002500 P=A6;6/b@1700000002500 P=b6;"));
  CHECK_EQ_INT(d2, 3); /* rows 2, 4 and 6 */
  if (t_failed_now) fprintf(stderr, "  night 2 cells: %s\n", c2);
  /* night 3: row 3 deleted at 2600 (--deletes-time) and inserted again at 2700: the marker
   * is at the deletion time, below the new row; the old row's values are gone at every
   * version, the new row's NULL column is a DeleteColumn */
  path_in(p, sizeof p, "night3.csv");
  write_file(p, "id,gone,a,b,ts\n3,0,N3,\\N,1700000002700\n");
  path_in(p, sizeof p, "deleted3.csv");
  write_file(p, "id,deleted_ms\n3,1700000002600\n");
  path_in(del, sizeof del, "deleted3.csv");
  o.deletes_time_column = "deleted_ms";
  REQUIRE(run("night3.csv", "night3", &o, &s) == 0);
  CHECK_EQ_INT(s.deletes_superseded, 1);
  CHECK_EQ_INT(s.row_deletes, 0); /* a live row, its old history masked */
  CHECK_EQ_INT(s.family_deletes, 1);
  CHECK_EQ_INT(s.records_read, 2);
  CHECK_EQ_INT(s.records_written + s.duplicates_dropped, 2);
  hfg_build_summary_free(&s);
  cells_of("night3", "cf", c2, sizeof c2, &d2);
  CHECK(!strcmp(c2, "3/@1700000002600 DF=;3/a@1700000002700 P=N3;3/b@1700000002700 DC=;"));
  if (t_failed_now) fprintf(stderr, "  night 3 cells: %s\n", c2);
  const char *outs3[] = {"night1", "night2", "night3"};
  visible(outs3, 3, "cf", 3, v, sizeof v);
  CHECK(strstr(v, "3:a@1700000002700=N3;5:") != NULL);
  CHECK(strstr(v, "=a3;") == NULL && strstr(v, "=B3;") == NULL);
  if (t_failed_now) fprintf(stderr, "  versions 3 after night 3: %s\n", v);
}

TEST(refusals) {
  setup_base();
  char p[600];
  path_in(p, sizeof p, "bad.csv");
  write_file(p, "id,op,a,ts\n1,i,x,1700000000000\n2,upsert,y,1700000000000\n");
  hfg_build_options o;
  hfg_build_summary s;
  base_opts(&o);
  static const char *maps[] = {"ts=-"};
  o.mappings = maps;
  o.nmappings = 1;
  o.op_column = "op";
  o.max_rejects = 5;
  REQUIRE(run("bad.csv", "b1", &o, &s) == 0);
  CHECK_EQ_INT(s.records_rejected, 1);
  hfg_build_summary_free(&s);
  char rj[700];
  path_in(rj, sizeof rj, "b1/_rejects.tsv");
  FILE *f = fopen(rj, "r");
  char line[600] = "";
  if (f) {
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    fclose(f);
  }
  CHECK(strstr(line, "op column 'op' holds 'upsert'") != NULL);
  /* a timestamp more than a day ahead of the clock fails the job: nothing published */
  path_in(p, sizeof p, "future.csv");
  write_file(p, "id,op,a,ts\n1,i,x,1700000000000\n2,u,y,99999999999999\n");
  CHECK(run("future.csv", "b2", &o, &s) != 0);
  CHECK(strstr(s.error, "more than a day after this machine's clock") != NULL);
  hfg_build_summary_free(&s);
  char mf[700];
  struct stat st;
  path_in(mf, sizeof mf, "b2/_SUCCESS");
  CHECK(stat(mf, &st) != 0);
  /* a deletes source without the rowkey's column */
  path_in(p, sizeof p, "keys.csv");
  write_file(p, "key\n1\n");
  char del[600];
  path_in(del, sizeof del, "keys.csv");
  o.deletes = del;
  CHECK(run("bad.csv", "b3", &o, &s) != 0);
  CHECK(strstr(s.error, "has no column 'id', which the rowkey reads (its columns: key)") != NULL);
  hfg_build_summary_free(&s);
  path_in(mf, sizeof mf, "b3/_SUCCESS");
  CHECK(stat(mf, &st) != 0);
  path_in(mf, sizeof mf, "b3/manifest.json");
  CHECK(stat(mf, &st) != 0);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf %s", base);
  if (system(cmd)) fprintf(stderr, "  cannot remove %s\n", base);
}

T_MAIN
