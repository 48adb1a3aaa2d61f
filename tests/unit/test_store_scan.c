/* The store scan (src/input/store_scan.h) against hand-worked expectations:
 * small HFiles written by the project's writer, merged and filtered, the
 * output rendered as text ("r1/a@6=v6 r1/b@3=v | r2/a@1=v", markers with their
 * type) and compared whole. Each rule of format-specs/scan-semantics.md has a
 * case; the comment above it gives the working. Part 1: delete markers,
 * versions, TTL, raw, refusals and errors (ordering, halves, clipping:
 * test_store_scan_order.c). */
#include "store_scan_fixture.h"
#include "util/alloc.h"

T_MAIN

static result R;

/* ---- delete markers (classic rules) ---- */

/* DeleteFamily@5 masks every column's cells with ts <= 5: a@5, a@4, b@3; a@6
 * is newer, row r2 is another row. */
TEST(delete_family) {
  tc c[] = {{"r1", "", 5, DF, NULL, 0, NULL}, {"r1", "a", 6, P, "v6", 0, NULL},
            {"r1", "a", 5, P, "v5", 0, NULL}, {"r1", "a", 4, P, "v4", 0, NULL},
            {"r1", "b", 3, P, "v3", 0, NULL}, {"r2", "a", 1, P, "w", 0, NULL}};
  tfile f;
  REQUIRE(tfile_make(&f, c, N(c)));
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@6=v6 | r2/a@1=w");
  CHECK_EQ_INT(R.k.cells_read, 6);
  CHECK_EQ_INT(R.k.cells_output, 2);
  CHECK_EQ_INT(R.k.rows_output, 2);
  CHECK_EQ_INT(R.k.markers_read, 1);
  CHECK_EQ_INT(R.k.dropped_marker, 1);
  CHECK_EQ_INT(R.k.dropped_deleted, 3);
  check_identity(&R.k);
  /* KEEP_DELETED_CELLS (TRUE or TTL) keeps deleted cells for time-range and raw
   * reads; a view at as_of shows none of them */
  o.keep_deleted = HFG_KEEP_DELETED_TRUE;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@6=v6 | r2/a@1=w");
  o.keep_deleted = HFG_KEEP_DELETED_TTL;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@6=v6 | r2/a@1=w");
  tfile_drop(&f);
}

/* DeleteFamilyVersion@5 masks exactly ts 5 in every column: a@5, b@5 */
TEST(delete_family_version) {
  tc c[] = {{"r1", "", 5, DFV, NULL, 0, NULL}, {"r1", "a", 6, P, "v6", 0, NULL},
            {"r1", "a", 5, P, "v5", 0, NULL}, {"r1", "b", 5, P, "b5", 0, NULL},
            {"r1", "b", 4, P, "b4", 0, NULL}};
  tfile f;
  REQUIRE(tfile_make(&f, c, N(c)));
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@6=v6 r1/b@4=b4");
  CHECK_EQ_INT(R.k.dropped_deleted, 2);
  check_identity(&R.k);
  tfile_drop(&f);
}

/* DeleteColumn a@5 masks a@5 and a@3 (ts <= 5), not a@6 nor column b */
TEST(delete_column) {
  tc c[] = {{"r1", "a", 5, DC, NULL, 0, NULL}, {"r1", "a", 6, P, "v6", 0, NULL},
            {"r1", "a", 5, P, "v5", 0, NULL}, {"r1", "a", 3, P, "v3", 0, NULL},
            {"r1", "b", 5, P, "b5", 0, NULL}};
  tfile f;
  REQUIRE(tfile_make(&f, c, N(c)));
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@6=v6 r1/b@5=b5");
  CHECK_EQ_INT(R.k.dropped_deleted, 2);
  check_identity(&R.k);
  tfile_drop(&f);
}

/* Delete a@5 masks a@5 only; a@3 stays. With VERSIONS=2, deleting the newest
 * version brings the third one in (a deleted put is no version). */
TEST(delete_version) {
  tc c[] = {{"r1", "a", 5, D, NULL, 0, NULL}, {"r1", "a", 6, P, "v6", 0, NULL},
            {"r1", "a", 5, P, "v5", 0, NULL}, {"r1", "a", 3, P, "v3", 0, NULL}};
  tfile f;
  REQUIRE(tfile_make(&f, c, N(c)));
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@6=v6 r1/a@3=v3");
  CHECK_EQ_INT(R.k.dropped_deleted, 1);
  tfile_drop(&f);

  tc d[] = {{"r1", "a", 6, D, NULL, 0, NULL}, {"r1", "a", 6, P, "v6", 0, NULL},
            {"r1", "a", 5, P, "v5", 0, NULL}, {"r1", "a", 4, P, "v4", 0, NULL},
            {"r1", "a", 3, P, "v3", 0, NULL}};
  REQUIRE(tfile_make(&f, d, N(d)));
  fs[0].f = &f;
  o.versions = 2;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@5=v5 r1/a@4=v4");
  CHECK_EQ_INT(R.k.dropped_deleted, 1);
  CHECK_EQ_INT(R.k.dropped_versions, 1);
  check_identity(&R.k);
  tfile_drop(&f);
}

/* Classic behaviour: a marker masks puts whatever their sequence id. The
 * DeleteColumn a@5 sits in a file of seq 20; a@4 was bulk-loaded later (seq
 * 30) and a@3 earlier (seq 10): both stay masked. */
TEST(delete_ignores_sequence_ids) {
  tc a[] = {{"r1", "a", 3, P, "old", 0, NULL}};
  tc b[] = {{"r1", "a", 5, DC, NULL, 0, NULL}};
  tc c[] = {{"r1", "a", 4, P, "late", 0, NULL}, {"r1", "b", 4, P, "b", 0, NULL}};
  tfile fa, fb, fc;
  REQUIRE(tfile_make(&fa, a, N(a)) && tfile_make(&fb, b, N(b)) && tfile_make(&fc, c, N(c)));
  fspec fs[] = {{&fa, "aa_SeqId_10_", HFG_HALF_WHOLE, NULL, 0, {0}},
                {&fb, "bb_SeqId_20_", HFG_HALF_WHOLE, NULL, 0, {0}},
                {&fc, "cc_SeqId_30_", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  run(&R, &o, fs, 3);
  CHECK_OUT(R, "r1/b@4=b");
  CHECK_EQ_INT(R.k.dropped_deleted, 2);
  check_identity(&R.k);
  tfile_drop(&fa);
  tfile_drop(&fb);
  tfile_drop(&fc);
}

/* An empty-qualifier column with more puts than VERSIONS=1, then a
 * DeleteFamily@7 in that same column: HBase seeks only past the current key
 * there (HBASE-18471), so the marker is still seen and masks a@6. */
TEST(delete_family_after_empty_qualifier_versions) {
  tc c[] = {{"r1", "", 9, P, "e9", 0, NULL}, {"r1", "", 8, P, "e8", 0, NULL},
            {"r1", "", 7, DF, NULL, 0, NULL}, {"r1", "a", 6, P, "a6", 0, NULL},
            {"r1", "a", 8, P, "a8", 0, NULL}};
  tfile f;
  REQUIRE(tfile_make(&f, c, N(c)));
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  o.versions = 1;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/@9=e9 r1/a@8=a8");
  CHECK_EQ_INT(R.k.dropped_versions, 1);
  CHECK_EQ_INT(R.k.dropped_deleted, 1);
  check_identity(&R.k);
  tfile_drop(&f);
}

/* ---- versions, TTL ---- */

/* VERSIONS=2: a@3 is the third version; b has one */
TEST(versions) {
  tc c[] = {{"r1", "a", 5, P, "v5", 0, NULL}, {"r1", "a", 4, P, "v4", 0, NULL},
            {"r1", "a", 3, P, "v3", 0, NULL}, {"r1", "b", 9, P, "b9", 0, NULL}};
  tfile f;
  REQUIRE(tfile_make(&f, c, N(c)));
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  o.versions = 2;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@5=v5 r1/a@4=v4 r1/b@9=b9");
  CHECK_EQ_INT(R.k.dropped_versions, 1);
  check_identity(&R.k);
  tfile_drop(&f);
}

/* TTL 10 s at as_of 100000 ms: cells with ts < 90000 have expired, unless
 * they are among the first MIN_VERSIONS versions of their column. */
TEST(ttl_min_versions) {
  tc c[] = {{"r1", "a", 95000, P, "a1", 0, NULL}, {"r1", "a", 85000, P, "a2", 0, NULL},
            {"r1", "a", 80000, P, "a3", 0, NULL}, {"r1", "b", 80000, P, "b1", 0, NULL},
            {"r1", "b", 70000, P, "b2", 0, NULL}, {"r1", "c", 90000, P, "c1", 0, NULL},
            {"r1", "c", 89999, P, "c2", 0, NULL}};
  tfile f;
  REQUIRE(tfile_make(&f, c, N(c)));
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  o.as_of_ms = 100000;
  o.ttl_seconds = 10;
  o.versions = 3;
  /* MIN_VERSIONS 0: only a@95000 and c@90000 (the boundary is not expired) */
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@95000=a1 r1/c@90000=c1");
  CHECK_EQ_INT(R.k.dropped_expired, 5);
  check_identity(&R.k);
  /* MIN_VERSIONS 1: the newest of each column stays */
  o.min_versions = 1;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@95000=a1 r1/b@80000=b1 r1/c@90000=c1");
  CHECK_EQ_INT(R.k.dropped_expired, 4);
  /* MIN_VERSIONS 2 */
  o.min_versions = 2;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@95000=a1 r1/a@85000=a2 r1/b@80000=b1 r1/b@70000=b2 r1/c@90000=c1 "
               "r1/c@89999=c2");
  CHECK_EQ_INT(R.k.dropped_expired, 1);
  check_identity(&R.k);
  /* no TTL: everything */
  o.ttl_seconds = HFG_TTL_FOREVER;
  o.min_versions = 0;
  run(&R, &o, fs, 1);
  CHECK_EQ_INT(R.k.cells_output, 7);
  o.ttl_seconds = -1;
  run(&R, &o, fs, 1);
  CHECK_EQ_INT(R.k.cells_output, 7);
  tfile_drop(&f);
}

/* A TTL tag (ms) expires a cell when ts + ttl < as_of: a@1000+500 < 2000 yes,
 * b@1000+1000 = 2000 no, b@999+1000 yes. An expired cell is no version: a@900
 * follows as the column's first. */
TEST(cell_ttl_tag) {
  tc c[] = {{"r1", "a", 1000, P, "a1", 500, NULL}, {"r1", "a", 900, P, "a2", 0, NULL},
            {"r1", "b", 1000, P, "b1", 1000, NULL}, {"r1", "b", 999, P, "b2", 1000, NULL}};
  tfile f;
  REQUIRE(tfile_make(&f, c, N(c)));
  fspec fs[] = {{&f, "f1", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  o.as_of_ms = 2000;
  o.versions = 1;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@900=a2 r1/b@1000=b1");
  CHECK_EQ_INT(R.k.dropped_expired, 2);
  CHECK_EQ_INT(R.k.dropped_versions, 0);
  check_identity(&R.k);
  tfile_drop(&f);

  /* a TTL tag cannot outlive the family TTL (1 s at 5000: ts < 4000 expired) */
  tc d[] = {{"r1", "c", 4500, P, "c1", 100000, NULL}, {"r1", "c", 3000, P, "c2", 100000, NULL}};
  REQUIRE(tfile_make(&f, d, N(d)));
  fs[0].f = &f;
  o.as_of_ms = 5000;
  o.ttl_seconds = 1;
  o.versions = 3;
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/c@4500=c1");
  CHECK_EQ_INT(R.k.dropped_expired, 1);
  tfile_drop(&f);
}

/* Two cells of one key, the merge's first one expired by its TTL tag: HBase
 * skips it without recording it, so the other one is shown. */
TEST(cell_ttl_tag_on_merge_winner) {
  tc x[] = {{"r1", "a", 1000, P, "x", 500, NULL}};
  tc y[] = {{"r1", "a", 1000, P, "y", 0, NULL}};
  tfile fx, fy;
  REQUIRE(tfile_make(&fx, x, 1) && tfile_make(&fy, y, 1));
  fspec fs[] = {{&fx, "x_SeqId_9_", HFG_HALF_WHOLE, NULL, 0, {0}},
                {&fy, "y_SeqId_5_", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  o.as_of_ms = 2000;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@1000=y");
  CHECK_EQ_INT(R.k.dropped_expired, 1);
  CHECK_EQ_INT(R.k.dropped_duplicate, 0);
  tfile_drop(&fx);
  tfile_drop(&fy);
}

/* ---- raw ---- */

/* Raw: markers, deleted, beyond-VERSIONS and expired cells all come out; only
 * the duplicate a@4 (lower seq id) is collapsed. */
TEST(raw_mode) {
  tc a[] = {{"r1", "", 5, DF, NULL, 0, NULL}, {"r1", "a", 6, P, "a6", 0, NULL},
            {"r1", "a", 5, P, "a5", 0, NULL}, {"r1", "a", 4, P, "a4-new", 0, NULL},
            {"r1", "b", 10, P, "b10", 1, NULL}, {"r1", "b", 10, DC, NULL, 0, NULL}};
  tc b[] = {{"r1", "a", 4, P, "a4-old", 0, NULL}, {"r1", "", 5, DF, NULL, 0, NULL}};
  tfile fa, fb;
  REQUIRE(tfile_make(&fa, a, N(a)) && tfile_make(&fb, b, N(b)));
  fspec fs[] = {{&fa, "a_SeqId_20_", HFG_HALF_WHOLE, NULL, 0, {0}},
                {&fb, "b_SeqId_10_", HFG_HALF_WHOLE, NULL, 0, {0}}};
  hfg_store_scan_options o = opts();
  o.raw = 1;
  o.versions = 1;
  o.ttl_seconds = 1;
  o.as_of_ms = 1000000;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/@5 DF r1/a@6=a6 r1/a@5=a5 r1/a@4=a4-new r1/b@10 DC r1/b@10=b10");
  CHECK_EQ_INT(R.k.dropped_duplicate, 2); /* a@4 and the second DF@5 */
  CHECK_EQ_INT(R.k.markers_read, 3);
  CHECK_EQ_INT(R.k.dropped_marker, 0);
  check_identity(&R.k);
  /* the same files, visible: DF@5 masks a@5, a@4; DC@10 masks b@10 */
  o.raw = 0;
  o.ttl_seconds = HFG_TTL_FOREVER;
  run(&R, &o, fs, 2);
  CHECK_OUT(R, "r1/a@6=a6");
  CHECK_EQ_INT(R.k.dropped_marker, 3);
  check_identity(&R.k);
  tfile_drop(&fa);
  tfile_drop(&fb);
}

/* ---- refusals and errors ---- */

TEST(new_version_behavior_refused) {
  hfg_store_scan_options o = opts();
  o.new_version_behavior = 1;
  for (int raw = 0; raw < 2; raw++) {
    o.raw = raw;
    hfg_store_scan *s = NULL;
    int rc = hfg_store_scan_create(&o, &s);
    CHECK_EQ_INT(rc, HFG_EUNSUPPORTED);
    CHECK(s && strstr(hfg_store_scan_errmsg(s), "NEW_VERSION_BEHAVIOR"));
    hfg_store_scan_free(s);
  }
  o = opts();
  o.versions = 0;
  hfg_store_scan *s = NULL;
  CHECK_EQ_INT(hfg_store_scan_create(&o, &s), HFG_EINVAL);
  hfg_store_scan_free(s);
  o = opts();
  o.min_versions = 11;
  CHECK_EQ_INT(hfg_store_scan_create(&o, &s), HFG_EINVAL);
  CHECK(strstr(hfg_store_scan_errmsg(s), "MIN_VERSIONS"));
  hfg_store_scan_free(s);
}

TEST(errors) {
  /* a cell of another family names the file and the cell */
  tc g[] = {{"r1", "a", 1, P, "x", 0, "g"}};
  tfile f;
  REQUIRE(tfile_make(&f, g, 1));
  hfg_store_scan_options o = opts();
  fspec fs[] = {{&f, "wrongfam", HFG_HALF_WHOLE, NULL, 0, {0}}};
  run(&R, &o, fs, 1);
  CHECK(R.rc == HFG_ECORRUPT && strstr(R.err, "store file wrongfam") &&
        strstr(R.err, "r1/g:a/1/Put") && strstr(R.err, "family"));
  tfile_drop(&f);

  /* a TTL tag of 4 bytes (tfile_make writes 8-byte ones only) */
  fs[0].name = "badtag";
  {
    hfg_writer_options wo = HFG_WRITER_OPTIONS_INIT;
    wo.bulkload_timestamp = 1;
    hfg_writer *w = NULL;
    REQUIRE(hfg_writer_open_mem("f", &wo, &w) == 0);
    uint8_t tag[] = {0, 5, 8, 0, 0, 0, 1};
    hfg_cell x = {(const uint8_t *)"r1", 2, (const uint8_t *)"f", 1, (const uint8_t *)"a", 1, 7,
                  P, (const uint8_t *)"v", 1, tag, sizeof tag};
    REQUIRE(hfg_writer_append(w, &x) == 0 && hfg_writer_finish(w) == 0);
    const uint8_t *d = hfg_writer_mem_data(w, &f.len);
    f.p = malloc(f.len);
    memcpy(f.p, d, f.len);
    hfg_writer_free(w);
    REQUIRE(hfg_reader_open_mem(f.p, f.len, &f.r) == 0);
  }
  fs[0].f = &f;
  run(&R, &o, fs, 1);
  CHECK(R.rc == HFG_ECORRUPT && strstr(R.err, "store file badtag") && strstr(R.err, "TTL tag"));
  o.raw = 1; /* raw reads no tag */
  run(&R, &o, fs, 1);
  CHECK_OUT(R, "r1/a@7=v");
  o.raw = 0;

  /* a malformed _SeqId_ in the name (of a good file) */
  tfile good;
  tc rows5[] = ROWS5_CELLS;
  REQUIRE(tfile_make(&good, rows5, 1));
  fspec gs[] = {{&good, "x_SeqId_12_", HFG_HALF_WHOLE, NULL, 0, {0}}};
  run(&R, &o, gs, 1);
  CHECK_OUT(R, "r1/a@1=1");
  gs[0].name = "x_SeqId_12";
  run(&R, &o, gs, 1);
  CHECK(R.rc == HFG_ECORRUPT && strstr(R.err, "store file x_SeqId_12: the name holds _SeqId_"));
  gs[0].name = "x_SeqId_1a_";
  run(&R, &o, gs, 1);
  CHECK(R.rc == HFG_ECORRUPT && strstr(R.err, "_SeqId_ without a number"));
  tfile_drop(&good);

  /* add after the first next_row */
  hfg_store_scan *s = NULL;
  REQUIRE(hfg_store_scan_create(&o, &s) == 0);
  hfg_store_file sf = {0};
  sf.reader = f.r;
  sf.name = "n";
  REQUIRE(hfg_store_scan_describe(s, &sf) == 0 && hfg_store_scan_add(s, &sf) == 0);
  CHECK_EQ_INT(sf.size, f.len);
  CHECK(sf.has_bulkload_time && sf.bulkload_time == 1 && !sf.has_max_seq_id &&
        !sf.has_bulkload_seq_id);
  const hfg_cell *c;
  size_t n;
  CHECK_EQ_INT(hfg_store_scan_next_row(s, &c, &n), HFG_ECORRUPT);
  CHECK_EQ_INT(hfg_store_scan_add(s, &sf), HFG_ECORRUPT); /* sticky */
  hfg_store_scan_free(s);
  REQUIRE(hfg_store_scan_create(&o, &s) == 0);
  CHECK_EQ_INT(hfg_store_scan_next_row(s, &c, &n), 0); /* no files: no rows */
  CHECK_EQ_INT(hfg_store_scan_add(s, &sf), HFG_ESTATE);
  hfg_store_scan_free(s);
  tfile_drop(&f);
}


/* Every allocation of a scan, failed in turn: the run either gives the full
 * answer or fails with HFG_ENOMEM, never a partial or wrong one (and, under
 * the sanitizers, leaks nothing). */
TEST(out_of_memory) {
  tc a[] = {{"r1", "", 5, DF, NULL, 0, NULL}, {"r1", "a", 6, P, "a6", 0, NULL},
            {"r1", "a", 5, P, "a5", 0, NULL}, {"r2", "b", 4, DFV, NULL, 0, NULL},
            {"r2", "b", 4, P, "b4", 0, NULL}, {"r2", "c", 3, P, "c3", 0, NULL}};
  tc b[] = {{"r1", "a", 6, P, "dup", 0, NULL}, {"r3", "a", 1, D, NULL, 0, NULL}};
  tfile fa, fb;
  REQUIRE(tfile_make(&fa, a, N(a)) && tfile_make(&fb, b, N(b)));
  fspec fs[] = {{&fa, "a_SeqId_2_", HFG_HALF_TOP, "r1", 0, {0}},
                {&fb, "b_SeqId_1_", HFG_HALF_WHOLE, NULL, 0, {0}}};
  for (int raw = 0; raw < 2; raw++) {
    hfg_store_scan_options o = opts();
    o.raw = raw;
    const char *want = raw ? "r1/@5 DF r1/a@6=a6 r1/a@5=a5 | r2/b@4 DFV r2/b@4=b4 r2/c@3=c3 | r3/a@1 D"
                           : "r1/a@6=a6 | r2/c@3=c3";
    run(&R, &o, fs, 2);
    CHECK_OUT(R, want);
    int fired = 1, n;
    for (n = 1; fired && n < 1000; n++) {
      hfg_fault_alloc_arm(n);
      run(&R, &o, fs, 2);
      fired = hfg_fault_alloc_fired();
      hfg_fault_alloc_arm(0);
      if (fired) {
        if (R.rc != HFG_ENOMEM) {
          fprintf(stderr, "  allocation %d: rc %d (%s), out \"%s\"\n", n, R.rc, R.err, R.out);
          CHECK(0);
        }
      } else {
        CHECK_OUT(R, want);
      }
    }
    CHECK(n > 5 && !fired);
  }
  tfile_drop(&fa);
  tfile_drop(&fb);
}
