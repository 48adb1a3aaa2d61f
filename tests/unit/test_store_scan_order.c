/* The store scan (src/input/store_scan.h), part 2: which of two cells with
 * one key wins (sequence ids from _SeqId_ names, MAX_SEQ_ID_KEY and planted
 * mvccs; StoreFileComparators.SEQ_ID's ties), Reference halves, region
 * clipping, and a many-row, many-block merge of three files. Each case's
 * comment gives the working (format-specs/scan-semantics.md). */
#include "store_scan_fixture.h"
#include "util/crc.h"

T_MAIN

static result R;

/* ---- which of two identical keys wins ---- */

/* Bulk-loaded files: every cell takes the file's _SeqId_; the higher wins,
 * in whatever order the files are added. */
TEST(same_key_bulk_seq_id) {
  tc x[] = {{"r1", "a", 5, P, "old", 0, NULL}};
  tc y[] = {{"r1", "a", 5, P, "new", 0, NULL}};
  tfile fx, fy;
  REQUIRE(tfile_make(&fx, x, 1) && tfile_make(&fy, y, 1));
  fspec fs[] = {{&fx, "x_SeqId_5_", HFG_HALF_WHOLE, NULL, 0, {0}},
                {&fy, "y_SeqId_9_", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=new");
  CHECK_EQ_INT(R.k.dropped_duplicate, 1);
  check_identity(&R.k);
  fspec rev[] = {fs[1], fs[0]};
  run(&R, &o, rev, 2);
  CHECK_OUT(R, "r1/a@5=new");
  o.raw = 1;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=new");
  CHECK_EQ_INT(R.k.dropped_duplicate, 1);
  /* the other way round */
  fs[0].name = "x_SeqId_12_";
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=old");
  tfile_drop(&fx);
  tfile_drop(&fy);
}

static hfg_store_file facts(int64_t max_seq, int has_bulk_time, int64_t bulk_time) {
  hfg_store_file f = {0};
  f.has_max_seq_id = 1;
  f.max_seq_id = max_seq;
  f.has_bulkload_time = has_bulk_time;
  f.bulkload_time = bulk_time;
  return f;
}

/* Equal sequence ids: StoreFileComparators.SEQ_ID puts the larger file first,
 * so the smaller one is newer (wins); equal sizes: the later bulk-load time;
 * then the name. */
TEST(same_key_seq_id_ties) {
  tc x[] = {{"r1", "a", 5, P, "AAA", 0, NULL}, {"r9", "z", 1, P, "padding", 0, NULL}};
  tc y[] = {{"r1", "a", 5, P, "BBB", 0, NULL}};
  tc z[] = {{"r1", "a", 5, P, "CCC", 0, NULL}};
  tfile fx, fy, fz;
  REQUIRE(tfile_make(&fx, x, 2) && tfile_make(&fy, y, 1) && tfile_make(&fz, z, 1));
  REQUIRE(fy.len == fz.len && fx.len > fy.len);
  hfg_store_scan_options o = opts();
  /* not bulk-loaded, mvcc 0 everywhere, max seq 7 both: the smaller file wins */
  fspec fs[] = {{&fx, "b", HFG_HALF_WHOLE, NULL, 1, facts(7, 0, 0)},
                {&fy, "a", HFG_HALF_WHOLE, NULL, 1, facts(7, 0, 0)}};
  fs[0].facts.size = fx.len;
  fs[1].facts.size = fy.len;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=BBB | r9/z@1=padding");
  /* equal sizes, bulk-loaded (seq 7 from MAX_SEQ_ID_KEY): the later load wins */
  fspec gs[] = {{&fy, "a", HFG_HALF_WHOLE, NULL, 1, facts(7, 1, 200)},
                {&fz, "b", HFG_HALF_WHOLE, NULL, 1, facts(7, 1, 100)}};
  gs[0].facts.size = gs[1].facts.size = fy.len;
  run(&R, &o, gs, 2);
  CHECK_OUT(R, "r1/a@5=BBB");
  gs[0].facts.bulkload_time = 50;
  run(&R, &o, gs, 2);
  CHECK_OUT(R, "r1/a@5=CCC");
  /* equal times: the name that sorts last wins */
  gs[0].facts.bulkload_time = 100;
  run(&R, &o, gs, 2);
  CHECK_OUT(R, "r1/a@5=CCC");
  gs[0].name = "c";
  run(&R, &o, gs, 2);
  CHECK_OUT(R, "r1/a@5=BBB");
  /* a higher MAX_SEQ_ID_KEY beats all of those */
  gs[1].facts.max_seq_id = 8;
  run(&R, &o, gs, 2);
  CHECK_OUT(R, "r1/a@5=CCC");
  tfile_drop(&fx);
  tfile_drop(&fy);
  tfile_drop(&fz);
}

/* Recomputes the CRC32C checksums of the block at off. */
static void rechecksum(uint8_t *p, size_t off) {
  uint8_t *b = p + off;
  uint32_t d = hfg_get_be32(b + 29), bpc = hfg_get_be32(b + 25);
  for (uint32_t i = 0, at = 0; at < d; i++, at += bpc) {
    uint32_t n = d - at < bpc ? d - at : bpc;
    hfg_put_be32(b + d + 4 * i, hfg_crc32c(0, b + at, n));
  }
}

static uint8_t *find(tfile *f, const char *needle, size_t from) {
  size_t n = strlen(needle);
  for (size_t i = from; i + n <= f->len; i++)
    if (!memcmp(f->p + i, needle, n)) return f->p + i;
  return NULL;
}

/* start of the block holding byte at */
static size_t block_at(tfile *f, const uint8_t *at) {
  size_t off = 0, res = 0;
  while (off + 4096 < f->len) {
    hfg_block_info b;
    if (hfg_reader_block_header(f->r, off, &b)) break;
    if ((size_t)(at - f->p) >= off) res = off;
    off += b.on_disk_size_with_header;
  }
  return res;
}

/* The writer writes mvcc 0 only; plant one: the cell's mvcc byte (after the
 * value and the 2-byte tags length) and MAX_MEMSTORE_TS_KEY > 0 so that
 * readers decode it. */
static int plant_mvcc(tfile *f, const char *value, uint8_t mvcc) {
  uint8_t *v = find(f, value, 0);
  if (!v) return 0;
  uint8_t *m = v + strlen(value) + 2;
  if (m[0] != 0 || m[-1] != 0 || m[-2] != 0) return 0;
  m[0] = mvcc;
  rechecksum(f->p, block_at(f, m));
  uint8_t *fi = find(f, "FILEINF2", 0);
  uint8_t *k = fi ? find(f, "MAX_MEMSTORE_TS_KEY", (size_t)(fi - f->p)) : NULL;
  if (!k) return 0;
  uint8_t *val = k + strlen("MAX_MEMSTORE_TS_KEY");
  if (val[0] != 0x12 || val[1] != 8) return 0;
  val[2 + 7] = 0x7f;
  rechecksum(f->p, (size_t)(fi - f->p));
  tfile_reopen(f);
  return hfg_reader_meta(f->r)->decode_mvcc;
}

/* Files that are not bulk loads: the cell's own mvcc decides, before the file
 * order (q@mvcc 8 beats p@mvcc 3 although p's file has the higher sequence
 * id). Bulk-loaded files replace every mvcc by the file's sequence id. */
TEST(same_key_mvcc) {
  tc p[] = {{"r1", "a", 5, P, "from-p", 0, NULL}};
  tc q[] = {{"r1", "a", 5, P, "from-q", 0, NULL}};
  tfile fp, fq;
  REQUIRE(tfile_make(&fp, p, 1) && tfile_make(&fq, q, 1));
  REQUIRE(plant_mvcc(&fp, "from-p", 3) && plant_mvcc(&fq, "from-q", 8));
  hfg_scanner *sc;
  hfg_read_cell rc;
  REQUIRE(hfg_scanner_new(fq.r, &sc) == 0);
  CHECK(hfg_scanner_next(sc, &rc) == 1 && rc.mvcc == 8);
  hfg_scanner_free(sc);
  hfg_store_scan_options o = opts();
  fspec fs[] = {{&fp, "p", HFG_HALF_WHOLE, NULL, 1, facts(100, 0, 0)},
                {&fq, "q", HFG_HALF_WHOLE, NULL, 1, facts(50, 0, 0)}};
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=from-q");
  /* as bulk loads (BULKLOAD_TIMESTAMP): the mvcc is replaced, seq 100 wins */
  fs[0].facts.has_bulkload_time = fs[1].facts.has_bulkload_time = 1;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=from-p");
  /* ... unless SKIP_RESET_SEQ_ID keeps the cells' own */
  fs[0].facts.skip_reset_seq_id = fs[1].facts.skip_reset_seq_id = 1;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=from-q");
  tfile_drop(&fp);
  tfile_drop(&fq);
}

/* ---- Reference halves, region clipping ---- */


/* bottom = rows < split, top = rows >= split (the split row is in the top) */
TEST(reference_halves) {
  tfile f;
  tc rows5[] = ROWS5_CELLS;
  REQUIRE(tfile_make(&f, rows5, 5));
  hfg_store_scan_options o = opts();
  fspec fs[] = {{&f, "h.parent", HFG_HALF_BOTTOM, "r3", 0, {0}}};
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@1=1 | r2/a@1=2");
  CHECK_EQ_INT(R.k.cells_read, 2);
  check_identity(&R.k);
  fs[0].half = HFG_HALF_TOP;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r3/a@1=3 | r4/a@1=4 | r5/a@1=5");
  CHECK_EQ_INT(R.k.cells_read, 3);
  /* a split row no cell has */
  fs[0].split = "r25";
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r3/a@1=3 | r4/a@1=4 | r5/a@1=5");
  fs[0].half = HFG_HALF_BOTTOM;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@1=1 | r2/a@1=2");
  /* a merge's top reference to the first region: empty split row, whole file */
  fs[0].split = "";
  fs[0].half = HFG_HALF_TOP;
  run(&R, &o, fs, 1);
  CHECK_EQ_INT(R.k.cells_output, 5);
  fs[0].half = HFG_HALF_BOTTOM;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "");
  CHECK_EQ_INT(R.k.cells_read, 0);
  /* both halves of one reader at once */
  fspec two[] = {{&f, "h.p1", HFG_HALF_BOTTOM, "r3", 0, {0}},
                 {&f, "h.p2", HFG_HALF_TOP, "r4", 0, {0}}};
  run(&R, &o, two, 2);
  CHECK_OUT(R, "r1/a@1=1 | r2/a@1=2 | r4/a@1=4 | r5/a@1=5");
  tfile_drop(&f);
}

/* HStoreFile.open: a top half's sequence id is its file's + 1. Top half T of a
 * file with MAX_SEQ_ID 10 against a whole file W with 11: equal, so the
 * smaller file (T) wins; without the + 1, W would. */
TEST(reference_top_seq_id) {
  tc t[] = {{"r1", "a", 5, P, "t", 0, NULL}};
  tc w[] = {{"r1", "a", 5, P, "w", 0, NULL}, {"r2", "a", 5, P, "pad", 0, NULL}};
  tfile ft, fw;
  REQUIRE(tfile_make(&ft, t, 1) && tfile_make(&fw, w, 2));
  hfg_store_scan_options o = opts();
  fspec fs[] = {{&ft, "t.parent", HFG_HALF_TOP, "", 1, facts(10, 0, 0)},
                {&fw, "w", HFG_HALF_WHOLE, NULL, 1, facts(11, 0, 0)}};
  fs[0].facts.size = ft.len;
  fs[1].facts.size = fw.len;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=t | r2/a@5=pad");
  fs[0].half = HFG_HALF_WHOLE;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@5=w | r2/a@5=pad");
  tfile_drop(&ft);
  tfile_drop(&fw);
}

/* region [r2, r4): r1, r4, r5 are outside, dropped and counted */
TEST(region_clipping) {
  tfile f;
  tc rows5[] = ROWS5_CELLS;
  REQUIRE(tfile_make(&f, rows5, 5));
  hfg_store_scan_options o = opts();
  o.start_row = (const uint8_t *)"r2";
  o.start_row_len = 2;
  o.end_row = (const uint8_t *)"r4";
  o.end_row_len = 2;
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r2/a@1=2 | r3/a@1=3");
  CHECK_EQ_INT(R.k.dropped_outside, 3);
  check_identity(&R.k);
  /* first region (empty start) up to r3; last region from r4 */
  o.start_row_len = 0;
  o.end_row = (const uint8_t *)"r3";
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@1=1 | r2/a@1=2");
  o.start_row = (const uint8_t *)"r4";
  o.start_row_len = 2;
  o.end_row_len = 0;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r4/a@1=4 | r5/a@1=5");
  CHECK_EQ_INT(R.k.dropped_outside, 3);
  /* clipped in raw mode too, and a row of deleted cells is no row */
  o.raw = 1;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r4/a@1=4 | r5/a@1=5");
  tfile_drop(&f);
}

/* ---- many rows, many blocks, three files ---- */

/* Random cells in three files of small blocks (one compressed and encoded,
 * one encoded): every row comes out once, in order, each call one row; raw
 * output has no two equal keys in a row and drops only the duplicates; the
 * counts add up in both views. */
TEST(streaming_rows) {
  static char rows[300][8], quals[4][2] = {"", "a", "b", "c"}, vals[3][900][12];
  static tc cells[3][900];
  size_t nc[3] = {0, 0, 0};
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  static const uint8_t types[] = {P, P, P, P, P, D, DC, DF, DFV};
  for (int r = 0; r < 300; r++) snprintf(rows[r], sizeof rows[r], "k%04d", r * 7 % 300);
  for (int fi = 0; fi < 3; fi++)
    for (int r = 0; r < 300; r++) {
      int k = (int)(t_rand(&seed) % 4);
      for (int j = 0; j < k && nc[fi] < 900; j++) {
        tc *c = &cells[fi][nc[fi]];
        uint8_t ty = types[t_rand(&seed) % sizeof types];
        int q = ty == DF || ty == DFV ? 0 : (int)(t_rand(&seed) % 4);
        snprintf(vals[fi][nc[fi]], 12, "v%d.%zu", fi, nc[fi]);
        *c = (tc){rows[r], quals[q], (int64_t)(t_rand(&seed) % 6), ty,
                  ty == P ? vals[fi][nc[fi]] : NULL, 0, NULL};
        /* the writer wants distinct keys in one file */
        int dup = 0;
        for (size_t i = 0; i < nc[fi]; i++)
          if (!tc_cmp(&cells[fi][i], c)) dup = 1;
        if (!dup) nc[fi]++;
      }
    }
  /* small blocks; GZ + FAST_DIFF, PREFIX, plain */
  tfile f[3];
  hfg_writer_options wo[3] = {HFG_WRITER_OPTIONS_INIT, HFG_WRITER_OPTIONS_INIT,
                              HFG_WRITER_OPTIONS_INIT};
  wo[0].codec = HFG_CODEC_GZ;
  wo[0].encoding = HFG_ENCODING_FAST_DIFF;
  wo[1].encoding = HFG_ENCODING_PREFIX;
  for (int i = 0; i < 3; i++) {
    wo[i].block_size = 256;
    REQUIRE(tfile_make_wo(&f[i], cells[i], nc[i], &wo[i]));
    REQUIRE(hfg_reader_trailer(f[i].r)->data_index_count > 3);
  }
  fspec fs[] = {{&f[0], "a_SeqId_3_", HFG_HALF_WHOLE, NULL, 0, {0}},
                {&f[1], "b_SeqId_2_", HFG_HALF_WHOLE, NULL, 0, {0}},
                {&f[2], "c_SeqId_1_", HFG_HALF_WHOLE, NULL, 0, {0}}};
  for (int raw = 0; raw < 2; raw++) {
    hfg_store_scan_options o = opts();
    o.raw = raw;
    o.versions = 2;
    hfg_store_scan *s = NULL;
    REQUIRE(hfg_store_scan_create(&o, &s) == 0);
    for (int i = 0; i < 3; i++) {
      hfg_store_file sf = {0};
      sf.reader = f[i].r;
      sf.name = fs[i].name;
      REQUIRE(hfg_store_scan_describe(s, &sf) == 0 && hfg_store_scan_add(s, &sf) == 0);
    }
    char prev[16] = "";
    int nrows = 0, bad = 0;
    const hfg_cell *c;
    size_t n;
    int rc;
    while ((rc = hfg_store_scan_next_row(s, &c, &n)) == 1) {
      char row[16];
      snprintf(row, sizeof row, "%.*s", (int)c[0].row_len, (const char *)c[0].row);
      if (strcmp(row, prev) <= 0) bad++;
      snprintf(prev, sizeof prev, "%s", row);
      nrows++;
      for (size_t i = 0; i < n; i++) {
        if (c[i].row_len != strlen(row) || memcmp(c[i].row, row, c[i].row_len)) bad++;
        if (!raw && c[i].type != P) bad++;
        if (i) {
          char q[2][4];
          for (int j = 0; j < 2; j++) {
            const hfg_cell *x = &c[i - 1 + (size_t)j];
            snprintf(q[j], sizeof q[j], "%.*s", (int)x->qualifier_len,
                     x->qualifier ? (const char *)x->qualifier : "");
          }
          tc a = {row, q[0], c[i - 1].timestamp, c[i - 1].type, NULL, 0, NULL};
          tc b = {row, q[1], c[i].timestamp, c[i].type, NULL, 0, NULL};
          if (tc_cmp(&a, &b) >= 0) bad++; /* in order, and no two equal keys in either view */
        }
      }
    }
    CHECK_EQ_INT(rc, 0);
    CHECK_EQ_INT(bad, 0);
    hfg_store_scan_counts k;
    hfg_store_scan_counts_get(s, &k);
    CHECK_EQ_INT(k.cells_read, nc[0] + nc[1] + nc[2]);
    CHECK_EQ_INT(k.rows_output, nrows);
    check_identity(&k);
    if (raw) CHECK_EQ_INT(k.cells_read - k.dropped_duplicate, k.cells_output);
    else CHECK(k.dropped_deleted > 0 && k.dropped_versions > 0 && k.dropped_marker > 0);
    hfg_store_scan_free(s);
  }
  for (int i = 0; i < 3; i++) tfile_drop(&f[i]);
}
