/* build/rekey over family folders of HFiles (hfg_rekey_run without a
 * snapshot): typed cells — Put, Delete, DeleteColumn, DeleteFamily,
 * DeleteFamilyVersion, tags, timestamps — go through ingest, the sort and
 * emit under the new rowkey. Raw keeps every cell as written (markers too,
 * DELETE_FAMILY_COUNT counted); the visible view applies the markers; two
 * families of one old row meet in one new row; an old key that does not
 * parse is rejected and counted; a re-keying that merges two old rows fails,
 * publishing nothing. The output is read back with the project's reader. */
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hfilegen/plan.h"
#include "hfilegen/reader.h"
#include "hfilegen/rekey.h"
#include "hfilegen/writer.h"
#include "t.h"
#include "scheme/lists.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/coding.h"

typedef struct kc {
  const char *row, *qual;
  int64_t ts;
  uint8_t type;
  const char *val;
  int tagged;
} kc;

static void rm_rf(const char *p) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", p);
  CHECK(system(cmd) == 0);
}

/* cells in HBase order, as given */
static void write_file(const char *dir, const char *fam, const char *name, const kc *c, size_t n) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, fam);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/%s/%s", dir, fam, name);
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.fsync = 0;
  hfg_writer *w = NULL;
  CHECK_EQ_INT(hfg_writer_open(path, fam, &o, &w), 0);
  static const uint8_t tag[] = {0, 4, 0x42, 'a', 'c', 'l'}; /* one tag, type 0x42 */
  for (size_t i = 0; i < n; i++) {
    hfg_cell x = {(const uint8_t *)c[i].row, strlen(c[i].row), (const uint8_t *)fam, strlen(fam),
                  (const uint8_t *)c[i].qual, strlen(c[i].qual), c[i].ts, c[i].type,
                  (const uint8_t *)c[i].val, strlen(c[i].val), c[i].tagged ? tag : NULL,
                  c[i].tagged ? sizeof tag : 0};
    CHECK_EQ_INT(hfg_writer_append(w, &x), 0);
  }
  CHECK_EQ_INT(hfg_writer_finish(w), 0);
  hfg_writer_free(w);
}

static const char *type_name(uint8_t t) {
  return t == HFG_TYPE_PUT ? "P" : t == HFG_TYPE_DELETE ? "D" : t == HFG_TYPE_DELETE_COLUMN ? "DC"
         : t == HFG_TYPE_DELETE_FAMILY ? "DF" : t == HFG_TYPE_DELETE_FAMILY_VERSION ? "DFV" : "?";
}

/* every cell of every file under out/<fam>/, one "row fam:qual@ts TYPE=value[+tags]" a line,
 * files in name order (the rows of one region per file here); *dfc: DELETE_FAMILY_COUNT sum */
static void render(const char *out, const char *fam, hfg_buf *b, int64_t *dfc) {
  char d[1200];
  snprintf(d, sizeof d, "%s/%s", out, fam);
  struct dirent **names;
  int n = scandir(d, &names, NULL, alphasort);
  for (int i = 0; i < n; i++) {
    if (names[i]->d_name[0] != '.') {
      char p[1500];
      snprintf(p, sizeof p, "%s/%s", d, names[i]->d_name);
      hfg_reader *r = NULL;
      CHECK_EQ_INT(hfg_reader_open(p, &r), 0);
      const uint8_t *v;
      size_t vl;
      if (dfc && hfg_reader_fileinfo_get(r, "DELETE_FAMILY_COUNT", &v, &vl) == 1 && vl == 8)
        *dfc += (int64_t)hfg_get_be64(v);
      hfg_scanner *s = NULL;
      CHECK_EQ_INT(hfg_scanner_new(r, &s), 0);
      hfg_read_cell c;
      while (hfg_scanner_next(s, &c) == 1) {
        char line[512];
        int k = snprintf(line, sizeof line, "%.*s %.*s:%.*s@%lld %s=%.*s%s\n", (int)c.cell.row_len,
                         c.cell.row, (int)c.cell.family_len, c.cell.family,
                         (int)c.cell.qualifier_len, c.cell.qualifier, (long long)c.cell.timestamp,
                         type_name(c.cell.type), (int)c.cell.value_len, c.cell.value,
                         c.cell.tags_len == 6 && !memcmp(c.cell.tags, "\0\4\x42" "acl", 6)
                             ? "+acl" : c.cell.tags_len ? "+?" : "");
        hfg_buf_append(b, line, (size_t)k);
      }
      hfg_scanner_free(s);
      hfg_reader_close(r);
    }
    free(names[i]);
  }
  if (n >= 0) free(names);
}

static const char *old_dir(void) {
  const char *d = t_tmp_path("test_rekey", "old");
  rm_rf(d);
  mkdir(d, 0755);
  /* family a: row 12 (Put x2, DeleteColumn, a tagged Put), row 5 (DeleteFamily over a Put),
   * row 7 (DeleteFamilyVersion masking ts 20 only; a Delete of b@9) */
  const kc a[] = {
      {"12", "q", 30, HFG_TYPE_PUT, "new", 0},      {"12", "q", 20, HFG_TYPE_DELETE_COLUMN, "", 0},
      {"12", "q", 20, HFG_TYPE_PUT, "old", 0},      {"12", "t", 5, HFG_TYPE_PUT, "tagged", 1},
      {"5", "", 40, HFG_TYPE_DELETE_FAMILY, "", 0}, {"5", "q", 10, HFG_TYPE_PUT, "gone", 0},
      {"7", "", 20, HFG_TYPE_DELETE_FAMILY_VERSION, "", 0},
      {"7", "a", 20, HFG_TYPE_PUT, "masked", 0},    {"7", "a", 19, HFG_TYPE_PUT, "kept", 0},
      {"7", "b", 9, HFG_TYPE_DELETE, "", 0},        {"7", "b", 9, HFG_TYPE_PUT, "deleted", 0},
      {"7", "b", 8, HFG_TYPE_PUT, "b8", 0}};
  write_file(d, "a", "f1", a, sizeof a / sizeof *a);
  /* family b: rows 12 and 9 (9 has no cell in a) */
  const kc b[] = {{"12", "z", 1, HFG_TYPE_PUT, "bz", 0}, {"9", "y", 2, HFG_TYPE_PUT, "by", 0}};
  write_file(d, "b", "f1", b, sizeof b / sizeof *b);
  return d;
}

static const hfg_build_family *run_table_families; /* build --table's, for the next run */
static size_t run_ntable_families;

static int run(const char *from, const char *out, const char *old_key, const char *rowkey,
               int raw, hfg_rekey_summary *s) {
  rm_rf(out);
  hfg_rekey_options o;
  hfg_rekey_options_init(&o);
  o.from_dir = from;
  o.old_key = old_key;
  o.raw = raw;
  o.as_of = 1000;
  o.build.rowkey = rowkey;
  o.build.out_dir = out;
  o.build.job_timestamp = 1720695600000;
  o.build.memory = 4 << 20;
  o.build.hfile.fsync = 0;
  static const uint8_t k5[] = {'5'};
  static const uint8_t *keys[] = {k5};
  static const size_t lens[] = {1};
  o.build.split_keys = keys;
  o.build.split_key_lens = lens;
  o.build.nsplit_keys = 1;
  o.build.table_families = run_table_families;
  o.build.ntable_families = run_ntable_families;
  return hfg_rekey_run(&o, s);
}

TEST(raw_keeps_every_cell_under_the_new_key) {
  const char *from = old_dir(), *out = t_tmp_path("test_rekey", "raw");
  hfg_rekey_summary s;
  CHECK_EQ_INT(run(from, out, "{id}", "{id % 10}|{id}", 1, &s), 0);
  hfg_buf b = HFG_BUF_INIT;
  int64_t dfc = 0;
  render(out, "a", &b, &dfc);
  hfg_buf_append(&b, "", 1);
  /* region 0: '2|12' (< '5'); region 1: '5|5', '7|7' */
  const char *want =
      "2|12 a:q@30 P=new\n2|12 a:q@20 DC=\n2|12 a:q@20 P=old\n2|12 a:t@5 P=tagged+acl\n"
      "5|5 a:@40 DF=\n5|5 a:q@10 P=gone\n"
      "7|7 a:@20 DFV=\n7|7 a:a@20 P=masked\n7|7 a:a@19 P=kept\n7|7 a:b@9 D=\n"
      "7|7 a:b@9 P=deleted\n7|7 a:b@8 P=b8\n";
  if (strcmp((char *)b.p, want)) fprintf(stderr, "got:\n%s", (char *)b.p);
  CHECK(!strcmp((char *)b.p, want));
  CHECK_EQ_INT(dfc, 2); /* DeleteFamily + DeleteFamilyVersion, in region 1's file */
  hfg_buf_reset(&b);
  render(out, "b", &b, NULL);
  hfg_buf_append(&b, "", 1);
  CHECK(!strcmp((char *)b.p, "2|12 b:z@1 P=bz\n9|9 b:y@2 P=by\n"));
  CHECK_EQ_INT(s.build.records_read, 4);  /* old rows 12, 5, 7, 9 */
  CHECK_EQ_INT(s.build.records_written, 4);
  CHECK_EQ_INT(s.cells_read, 14);
  CHECK_EQ_INT(s.build.cells, 14);
  CHECK_EQ_INT(s.markers_read, 4);
  hfg_rekey_summary_free(&s);
  hfg_buf_free(&b);
}

TEST(visible_applies_the_markers) {
  const char *from = old_dir(), *out = t_tmp_path("test_rekey", "visible");
  hfg_rekey_summary s;
  CHECK_EQ_INT(run(from, out, "{id}", "{id % 10}|{id}", 0, &s), 0);
  hfg_buf b = HFG_BUF_INIT;
  int64_t dfc = 0;
  render(out, "a", &b, &dfc);
  hfg_buf_append(&b, "", 1);
  const char *want = "2|12 a:q@30 P=new\n2|12 a:t@5 P=tagged+acl\n7|7 a:a@19 P=kept\n"
                     "7|7 a:b@8 P=b8\n";
  if (strcmp((char *)b.p, want)) fprintf(stderr, "got:\n%s", (char *)b.p);
  CHECK(!strcmp((char *)b.p, want));
  CHECK_EQ_INT(dfc, 0);
  /* old row 5 has no visible cell: read, no new row (read = written + rejected + without) */
  CHECK_EQ_INT(s.build.records_written, 3);
  CHECK_EQ_INT(s.build.records_read, 4);
  CHECK_EQ_INT(s.build.records_without_cells, 1);
  CHECK_EQ_INT(s.build.records_rejected, 0);
  CHECK_EQ_INT(s.cells_read, 14);
  CHECK_EQ_INT(s.build.cells + s.dropped_markers + s.dropped_deleted + s.dropped_expired +
                   s.dropped_versions + s.dropped_duplicate + s.dropped_outside,
               14);
  hfg_rekey_summary_free(&s);
  hfg_buf_free(&b);
}

TEST(unparsable_old_keys_are_rejected_and_counted) {
  const char *from = old_dir(), *out = t_tmp_path("test_rekey", "rejects");
  hfg_rekey_summary s;
  /* {id:short} needs 2 bytes: "12" parses (as 0x3132 = 12594), "5" "7" "9" do not */
  hfg_rekey_options o;
  (void)o;
  int rc = run(from, out, "{id:short}", "{id}", 1, &s);
  CHECK_EQ_INT(rc, HFG_EREJECT); /* --max-rejects 0 */
  CHECK_EQ_INT(s.build.records_rejected, 1);
  char p[1200];
  snprintf(p, sizeof p, "%s/_SUCCESS", out);
  CHECK(access(p, F_OK) != 0);
  hfg_rekey_summary_free(&s);
}

TEST(a_rekeying_that_merges_rows_fails) {
  const char *from = old_dir(), *out = t_tmp_path("test_rekey", "dup");
  hfg_rekey_summary s;
  /* 12 % 5 = 2 and 7 % 5 = 2: one new key for two old rows */
  int rc = run(from, out, "{id}", "{id % 5}", 1, &s);
  CHECK_EQ_INT(rc, HFG_EDUP);
  CHECK(strstr(s.build.error, "duplicate new rowkey '2'") != NULL);
  CHECK(s.warning[0] != 0);
  char p[1200];
  snprintf(p, sizeof p, "%s/_SUCCESS", out);
  CHECK(access(p, F_OK) != 0);
  hfg_rekey_summary_free(&s);
}

/* plan over the old table (hfg_plan_options.rekey): per new region exactly the rows
 * and cells rekey writes there, visible (deletes applied: old row 5 has no visible
 * cell, two of row 7's are masked) and raw; the before side is the old rowkey. */
TEST(plan_over_the_old_table_counts_what_rekey_writes) {
  const char *from = old_dir(), *out = t_tmp_path("test_rekey", "plan");
  for (int raw = 0; raw <= 1; raw++) {
    hfg_rekey_summary s;
    CHECK_EQ_INT(run(from, out, "{id}", "{id % 10}|{id}", raw, &s), 0);
    hfg_rekey_options o;
    hfg_rekey_options_init(&o);
    o.from_dir = from;
    o.old_key = "{id}";
    o.raw = raw;
    o.as_of = 1000;
    o.build.rowkey = "{id % 10}|{id}";
    hfg_keylist *l = keylist_new();
    CHECK(l && keylist_add(l, "5", 1) == 0);
    hfg_plan_options po;
    hfg_plan_options_init(&po);
    po.build = &o.build;
    po.rekey = &o;
    po.splits = l;
    hfg_plan *p = NULL;
    char err[512];
    CHECK_EQ_INT(hfg_plan_run(&po, &p, err, sizeof err), 0);
    CHECK_EQ_INT(p->nregions, 2);
    CHECK_EQ_INT(s.build.nregions, 2);
    uint64_t rows = 0;
    for (size_t r = 0; r < 2; r++) {
      CHECK_EQ_INT(p->after.regions[r].rows, s.build.regions[r].rows);
      CHECK_EQ_INT(p->after.regions[r].cells, s.build.regions[r].cells);
      rows += s.build.regions[r].rows;
    }
    CHECK_EQ_INT(rows, raw ? 4 : 3);
    CHECK_EQ_INT(p->records_read, s.build.records_read);
    CHECK(!strcmp(p->before.key, "{id}"));
    /* before: old keys 12 < 5 | 5, 7, 9 */
    CHECK_EQ_INT(p->before.regions[0].rows, 1);
    hfg_plan_free(p);
    hfg_keylist_free(l);
    hfg_rekey_summary_free(&s);
  }
}

/* Fault injection: the Nth allocation of a re-key (and of a plan over the old table)
 * fails, for every N until one run needs no more: each failing run returns an error,
 * publishes nothing and leaves no --out behind (the sanitizer build checks that
 * nothing leaks); the run with no failure left writes the expected cells. */
TEST(every_allocation_failure_fails_cleanly) {
  const char *from = old_dir(), *out = t_tmp_path("test_rekey", "fault");
  char success[1200];
  snprintf(success, sizeof success, "%s/_SUCCESS", out);
  long n = 1;
  for (;; n++) {
    hfg_rekey_summary s;
    hfg_fault_alloc_arm(n);
    int rc = run(from, out, "{id}", "{id % 10}|{id}", 0, &s);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    hfg_rekey_summary_free(&s);
    if (!fired) {
      CHECK_EQ_INT(rc, 0);
      break;
    }
    if (rc == 0) continue; /* a failure the job works around (checked below: the cells) */
    if (access(success, F_OK) == 0 || access(out, F_OK) == 0) {
      fprintf(stderr, "  allocation %ld: rc %d, yet %s exists\n", n, rc, out);
      CHECK(0);
      break;
    }
  }
  CHECK(n > 50);
  hfg_buf b = HFG_BUF_INIT;
  render(out, "a", &b, NULL);
  hfg_buf_append(&b, "", 1);
  CHECK(!strcmp((char *)b.p, "2|12 a:q@30 P=new\n2|12 a:t@5 P=tagged+acl\n7|7 a:a@19 P=kept\n"
                             "7|7 a:b@8 P=b8\n"));
  hfg_buf_free(&b);
  /* the plan over the same rows */
  hfg_rekey_options o;
  hfg_rekey_options_init(&o);
  o.from_dir = from;
  o.old_key = "{id}";
  o.as_of = 1000;
  o.build.rowkey = "{id % 10}|{id}";
  hfg_plan_options po;
  hfg_plan_options_init(&po);
  po.build = &o.build;
  po.rekey = &o;
  po.regions = 2;
  for (n = 1;; n++) {
    hfg_plan *p = NULL;
    char err[512];
    hfg_fault_alloc_arm(n);
    int rc = hfg_plan_run(&po, &p, err, sizeof err);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (!fired) {
      CHECK_EQ_INT(rc, 0);
      CHECK(p && p->after.rows == 3);
      hfg_plan_free(p);
      break;
    }
    if (rc) CHECK(p == NULL);
    hfg_plan_free(p);
  }
  CHECK(n > 20);
  /* lint over the same rows */
  for (n = 1;; n++) {
    hfg_lint *l = NULL;
    hfg_scheme *sc = NULL;
    uint64_t rows, rejected;
    char err[512];
    hfg_fault_alloc_arm(n);
    int rc = hfg_rekey_lint(&o, 2, 1000, NULL, NULL, &l, &sc, &rows, &rejected, err, sizeof err);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (rc) CHECK(l == NULL && sc == NULL);
    hfg_lint_free(l);
    hfg_scheme_free(sc);
    if (!fired) {
      CHECK_EQ_INT(rc, 0);
      CHECK_EQ_INT(rows, 3); /* old row 5 has no visible cell */
      break;
    }
  }
}

/* --table: the new table's families give the HFile settings; a family of the old
 * table the new one lacks fails before anything is written (completebulkload would
 * refuse the output). */
TEST(the_new_tables_families) {
  const char *from = old_dir(), *out = t_tmp_path("test_rekey", "table");
  hfg_build_family fams[2];
  memset(fams, 0, sizeof fams);
  fams[0].name = "a";
  fams[0].has_codec = 1;
  fams[0].codec = HFG_CODEC_GZ;
  fams[1].name = "b";
  run_table_families = fams;
  run_ntable_families = 2;
  hfg_rekey_summary s;
  CHECK_EQ_INT(run(from, out, "{id}", "{id % 10}|{id}", 1, &s), 0);
  hfg_rekey_summary_free(&s);
  char d[1200];
  snprintf(d, sizeof d, "%s/a", out);
  struct dirent **names;
  int n = scandir(d, &names, NULL, alphasort), seen = 0;
  for (int i = 0; i < n; i++) {
    if (names[i]->d_name[0] != '.') {
      char p[1500];
      snprintf(p, sizeof p, "%s/%s", d, names[i]->d_name);
      hfg_reader *r = NULL;
      CHECK_EQ_INT(hfg_reader_open(p, &r), 0);
      CHECK_EQ_INT(hfg_reader_trailer(r)->compression, 1); /* GZ's Algorithm ordinal */
      hfg_reader_close(r);
      seen++;
    }
    free(names[i]);
  }
  if (n >= 0) free(names);
  CHECK(seen > 0);
  run_ntable_families = 1; /* the new table lacks b */
  CHECK_EQ_INT(run(from, out, "{id}", "{id % 10}|{id}", 1, &s), HFG_EINVAL);
  CHECK(strstr(s.build.error, "family 'b' of the old table is not a family of the new table "
                              "(its families: a)") != NULL);
  CHECK_EQ_INT(s.build.records_read, 0);
  CHECK(access(out, F_OK) != 0);
  hfg_rekey_summary_free(&s);
  run_table_families = NULL;
  run_ntable_families = 0;
}

T_MAIN
