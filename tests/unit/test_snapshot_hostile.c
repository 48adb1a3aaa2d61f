/*
 * The snapshot reader's refusals (src/input/snapshot.h): each names the file
 * and the reason. Missing, in-progress, failed and pre-0.96 snapshots; MOB and
 * encrypted families; store files and reference parents found nowhere (every
 * place looked named); sizes that differ from the manifest; regions that do
 * not tile; hostile names; every truncation of every decoded file; byte flips
 * and failed allocations, which must end in an error, never a crash or a leak.
 */
#include <dirent.h>

#include "input/snapshot_int.h"
#include "t.h"
#include "snapshot_build.h"
#include "util/alloc.h"
#include "util/buf.h"

#define H1 "0123456789abcdef0123456789abcde1"
#define H2 "0123456789abcdef0123456789abcde2"

/* Opens, expects rc and every `want` substring in the message. */
static void expect_fail(const char *root, const char *name, int rc, const char *w1, const char *w2,
                        const char *w3) {
  hfg_snapshot *s;
  int got = hfg_snapshot_open(root, name, &s);
  const char *m = hfg_snapshot_errmsg(s);
  if (got != rc || (w1 && !strstr(m, w1)) || (w2 && !strstr(m, w2)) || (w3 && !strstr(m, w3)))
    fprintf(stderr, "  rc %d (want %d): %s\n", got, rc, m);
  CHECK_EQ_INT(got, rc);
  if (w1) CHECK(strstr(m, w1) != NULL);
  if (w2) CHECK(strstr(m, w2) != NULL);
  if (w3) CHECK(strstr(m, w3) != NULL);
  CHECK(hfg_snapshot_nregions(s) == 0 && hfg_snapshot_info(s) == NULL);
  hfg_snapshot_free(s);
}

/* table default:t, one family f, regions as given */
static void simple(const char *root, const char *name, const sb_region *r, size_t nr,
                   const char *const *fkv) {
  Hfg__Snap__ColumnFamilySchema *fams[] = {sb_family("f", fkv, NULL)};
  sb_snapshotinfo(root, name, "t", 2);
  sb_data_manifest(root, name, sb_schema("default", "t", fams, 1, NULL), "default", "t", r, nr);
}

static const sb_region WHOLE = {"", "", 1, 0, 0, NULL, 0};

TEST(missing_and_unreadable_snapshots) {
  const char *root = sb_root("where");
  expect_fail(root, "s", HFG_EIO, "no .hbase-snapshot", root, NULL);
  expect_fail("/nonexistent/hfg", "s", HFG_EIO, "no such directory", NULL, NULL);
  sb_mkdirs(t_tmp_path("snapshot", "where/.hbase-snapshot/.tmp/s"));
  expect_fail(root, "s", HFG_EUNSUPPORTED, "still being taken", ".tmp/s", NULL);
  expect_fail(root, "other", HFG_EIO, "no snapshot other", ".hbase-snapshot/other", NULL);
  expect_fail(root, "../where", HFG_EINVAL, "not a legal snapshot name", NULL, NULL);
  expect_fail(root, ".tmp", HFG_EINVAL, "not a legal snapshot name", NULL, NULL);
  simple(root, "c", &WHOLE, 1, NULL);
  sb_puts(root, ".hbase-snapshot/c/_CORRUPTED", "");
  expect_fail(root, "c", HFG_ECORRUPT, "_CORRUPTED", "failed", NULL);
  sb_mkdirs(t_tmp_path("snapshot", "where/.hbase-snapshot/noinfo"));
  expect_fail(root, "noinfo", HFG_ECORRUPT, "noinfo/.snapshotinfo", "missing", NULL);
  /* version 2 lists its regions in data.manifest; version 0 needs its .tabledesc */
  sb_snapshotinfo(root, "v0", "t", -1);
  expect_fail(root, "v0", HFG_ECORRUPT, "v0/.snapshotinfo: version 0", ".tabledesc (its table schema) is missing", NULL);
  sb_snapshotinfo(root, "v7", "t", 7);
  expect_fail(root, "v7", HFG_EUNSUPPORTED, "version 7", "v7/.snapshotinfo", NULL);
  const char *old = sb_root("pre096");
  sb_mkdirs(t_tmp_path("snapshot", "pre096/.snapshot/s"));
  expect_fail(old, "s", HFG_EUNSUPPORTED, "pre-0.96", NULL, NULL);
  sb_reset();
}

TEST(mob_and_encrypted_families_refused) {
  const char *root = sb_root("mob");
  simple(root, "m", &WHOLE, 1, (const char *[]){"IS_MOB", "TRUE", NULL});
  expect_fail(root, "m", HFG_EUNSUPPORTED, "family f is a MOB family", "m/data.manifest", NULL);
  simple(root, "e", &WHOLE, 1, (const char *[]){"ENCRYPTION", "AES", NULL});
  expect_fail(root, "e", HFG_EUNSUPPORTED, "family f is encrypted", "e/data.manifest", NULL);
  /* IS_MOB=false and an emptied ENCRYPTION (setValue removes it) are fine */
  simple(root, "ok", &WHOLE, 1, (const char *[]){"IS_MOB", "false", "ENCRYPTION", "", NULL});
  hfg_snapshot *s;
  CHECK_EQ_INT(hfg_snapshot_open(root, "ok", &s), 0);
  hfg_snapshot_free(s);
  simple(root, "bad", &WHOLE, 1, (const char *[]){"VERSIONS", "three", NULL});
  expect_fail(root, "bad", HFG_ECORRUPT, "VERSIONS 'three'", "family f", NULL);
  simple(root, "bad2", &WHOLE, 1, (const char *[]){"COMPRESSION", "LZ5", NULL});
  expect_fail(root, "bad2", HFG_ECORRUPT, "unknown COMPRESSION 'LZ5'", NULL, NULL);
  sb_reset();
}

TEST(missing_store_files_named) {
  const char *root = sb_root("missing");
  const char *E = sb_encoded("default", "t", "", 1), *P = "0000000000000000000000000000cafe";
  sb_region r = {"", "", 1, 0, 0, (const sb_file[]){{"f", H1, 0, 0, -1}}, 1};
  simple(root, "s", &r, 1, NULL);
  char want[1024];
  snprintf(want, sizeof want, "{data,archive/data,.tmp/data,mobdir/data}/default/t/%s/f/%s", E, H1);
  expect_fail(root, "s", HFG_ECORRUPT, "the HFile not found", want, root);
  /* a reference whose parent is gone */
  char ref[128];
  snprintf(ref, sizeof ref, "%s.%s", H2, P);
  sb_region r2 = {"", "", 1, 0, 0, (const sb_file[]){{"f", ref, 1, "m", -1}}, 1};
  simple(root, "r", &r2, 1, NULL);
  snprintf(want, sizeof want, "/default/t/%s/f/%s", P, H2);
  expect_fail(root, "r", HFG_ECORRUPT, "the reference's parent file not found", want, ref);
  /* a reference without its Reference, found nowhere */
  sb_region r3 = {"", "", 1, 0, 0, (const sb_file[]){{"f", ref, 0, 0, -1}}, 1};
  simple(root, "q", &r3, 1, NULL);
  sb_hfile(root, "archive/data", "default", "t", P, "f", H2);
  expect_fail(root, "q", HFG_ECORRUPT, "no reference file exists", ".hbase-snapshot/q/", ref);
  /* the size the manifest recorded */
  long n = sb_hfile(root, "data", "default", "t", E, "f", H1);
  sb_region r4 = {"", "", 1, 0, 0, (const sb_file[]){{"f", H1, 0, 0, n + 1}}, 1};
  simple(root, "z", &r4, 1, NULL);
  expect_fail(root, "z", HFG_ECORRUPT, "the manifest says", H1, NULL);
  /* a family the schema lacks */
  sb_region r5 = {"", "", 1, 0, 0, (const sb_file[]){{"g", H1, 0, 0, -1}}, 1};
  simple(root, "g", &r5, 1, NULL);
  expect_fail(root, "g", HFG_ECORRUPT, "lists family g", "does not have", NULL);
  sb_reset();
}

TEST(regions_must_tile) {
  const char *root = sb_root("tile");
  sb_region gap[] = {{"", "b", 1, 0, 0, NULL, 0}, {"c", "", 1, 0, 0, NULL, 0}};
  simple(root, "gap", gap, 2, NULL);
  expect_fail(root, "gap", HFG_ECORRUPT, "gap or an overlap", "next region starts at c", NULL);
  /* a split parent that is not marked offline is read, and overlaps its daughters */
  sb_region ov[] = {{"", "", 1, 0, 1, NULL, 0}, {"", "m", 2, 0, 0, NULL, 0},
                    {"m", "", 2, 0, 0, NULL, 0}};
  simple(root, "ov", ov, 3, NULL);
  expect_fail(root, "ov", HFG_ECORRUPT, "do not cover the key space", NULL, NULL);
  simple(root, "none", NULL, 0, NULL);
  expect_fail(root, "none", HFG_ECORRUPT, "lists no region", NULL, NULL);
  sb_region last[] = {{"", "x", 1, 0, 0, NULL, 0}};
  simple(root, "last", last, 1, NULL);
  expect_fail(root, "last", HFG_ECORRUPT, "last region does not end", NULL, NULL);
  sb_reset();
}

TEST(hostile_names) {
  const char *root = sb_root("names");
  sb_region r = {"", "", 1, 0, 0, (const sb_file[]){{"f", "../../../etc/passwd", 0, 0, -1}}, 1};
  simple(root, "file", &r, 1, NULL);
  expect_fail(root, "file", HFG_ECORRUPT, "is not a store-file name", "../../../etc/passwd", NULL);
  sb_region r2 = {"", "", 1, 0, 0, (const sb_file[]){{"../x", H1, 0, 0, -1}}, 1};
  simple(root, "fam", &r2, 1, NULL);
  expect_fail(root, "fam", HFG_ECORRUPT, "not a legal column family name", NULL, NULL);
  char rel[512];
  snprintf(rel, sizeof rel, "data/default/t/%s/f/%s", sb_encoded("default", "t", "", 1), H1);
  sb_puts(root, rel, "h1");
  snprintf(rel, sizeof rel, "data/default/t/%s/f/%s", sb_encoded("default", "t", "", 1), H2);
  sb_puts(root, rel, "h2");
  sb_region r3 = {"", "", 1, 0, 0, (const sb_file[]){{"a/b", H1, 0, 0, -1}}, 1};
  simple(root, "slash", &r3, 1, NULL);
  expect_fail(root, "slash", HFG_ECORRUPT, "'a/b' is not a legal column family name", NULL, NULL);
  Hfg__Snap__ColumnFamilySchema *fams[] = {sb_family("f", NULL, NULL)};
  /* one family listed twice in a region */
  sb_region r4 = {"", "", 1, 0, 0, (const sb_file[]){{"f", H1, 0, 0, -1}, {"g", H2, 0, 0, -1}}, 2};
  Hfg__Snap__SnapshotRegionManifest *rm4 = sb_region_manifest("default", "t", &r4);
  rm4->family_files[1]->family_name = sb_bin("f");
  Hfg__Snap__SnapshotDataManifest dm = HFG__SNAP__SNAPSHOT_DATA_MANIFEST__INIT;
  dm.table_schema = sb_schema("default", "t", fams, 1, NULL);
  dm.n_region_manifests = 1;
  dm.region_manifests = &rm4;
  sb_snapshotinfo(root, "twice", "t", 2);
  sb_putpb(root, ".hbase-snapshot/twice/data.manifest", &dm.base, 0, 0);
  expect_fail(root, "twice", HFG_ECORRUPT, "lists family f twice", NULL, NULL);
  sb_snapshotinfo(root, "tab", "a/b", 2);
  expect_fail(root, "tab", HFG_ECORRUPT, "not a legal HBase table name", "a/b", NULL);
  sb_snapshotinfo(root, "tab2", "../x", 2);
  expect_fail(root, "tab2", HFG_ECORRUPT, "not a legal HBase table name", NULL, NULL);
  /* a region of another table */
  sb_snapshotinfo(root, "other", "t", 2);
  sb_data_manifest(root, "other", sb_schema("default", "t", fams, 1, NULL), "default", "u", &WHOLE, 1);
  expect_fail(root, "other", HFG_ECORRUPT, "is of table default:u", NULL, NULL);
  /* a family defined twice */
  Hfg__Snap__ColumnFamilySchema *two[] = {sb_family("f", NULL, NULL), sb_family("f", NULL, NULL)};
  sb_snapshotinfo(root, "dup", "t", 2);
  sb_data_manifest(root, "dup", sb_schema("default", "t", two, 2, NULL), "default", "t", &WHOLE, 1);
  expect_fail(root, "dup", HFG_ECORRUPT, "family f is defined twice", NULL, NULL);
  /* the schema of another table */
  sb_snapshotinfo(root, "sch", "t", 2);
  sb_data_manifest(root, "sch", sb_schema("ns", "t", fams, 1, NULL), "default", "t", &WHOLE, 1);
  expect_fail(root, "sch", HFG_ECORRUPT, "the schema is of table ns:t", "sch/data.manifest", NULL);
  sb_reset();
}

/* The MOB pseudo-region and read replicas are listed but not read; a region
 * listed twice, or a v1 directory whose RegionInfo names another region, is refused. */
TEST(regions_skipped_or_refused) {
  const char *root = sb_root("skip");
  sb_region r[] = {{"", "", 5, 0, 0, NULL, 0}, {".mob", "", 0, 0, 0, NULL, 0},
                   {"", "", 5, 0, 0, NULL, 0}};
  Hfg__Snap__ColumnFamilySchema *fams[] = {sb_family("f", NULL, NULL)};
  Hfg__Snap__SnapshotRegionManifest *rms[3];
  for (int i = 0; i < 3; i++) rms[i] = sb_region_manifest("default", "t", &r[i]);
  rms[2]->region_info->has_replica_id = 1;
  rms[2]->region_info->replica_id = 1;
  Hfg__Snap__SnapshotDataManifest dm = HFG__SNAP__SNAPSHOT_DATA_MANIFEST__INIT;
  dm.table_schema = sb_schema("default", "t", fams, 1, NULL);
  dm.n_region_manifests = 3;
  dm.region_manifests = rms;
  sb_snapshotinfo(root, "s", "t", 2);
  sb_putpb(root, ".hbase-snapshot/s/data.manifest", &dm.base, 0, 0);
  hfg_snapshot *s;
  CHECK_EQ_INT(hfg_snapshot_open(root, "s", &s), 0);
  CHECK_EQ_INT(hfg_snapshot_nregions(s), 1);
  REQUIRE(hfg_snapshot_nskipped(s) == 2);
  CHECK(strstr(hfg_snapshot_skipped(s, 0)->skip_reason, "MOB") != NULL);
  CHECK(!strcmp(hfg_snapshot_skipped(s, 0)->encoded, sb_encoded("default", "t", ".mob", 0)));
  CHECK(strstr(hfg_snapshot_skipped(s, 1)->skip_reason, "replica") != NULL);
  hfg_snapshot_free(s);
  /* in progress: the same region as a v1 directory and as a region manifest */
  sb_snapshotinfo(root, "p", "t", 2);
  const char *E = sb_encoded("default", "t", "", 5);
  char rel[512];
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/%s/.regioninfo", E);
  sb_putpb(root, rel, &sb_regioninfo("default", "t", &r[0])->base, 1, 1);
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/region-manifest.%s", E);
  Hfg__Snap__SnapshotRegionManifest *m = sb_region_manifest("default", "t", &r[0]);
  Hfg__Snap__SnapshotRegionManifest__FamilyFiles ff = HFG__SNAP__SNAPSHOT_REGION_MANIFEST__FAMILY_FILES__INIT;
  Hfg__Snap__SnapshotRegionManifest__FamilyFiles *ffp = &ff;
  ff.family_name = sb_bin("f");
  m->family_files = &ffp;
  m->n_family_files = 1;
  sb_putpb(root, rel, &m->base, 0, 0);
  sb_putpb(root, ".hbase-snapshot/p/.tabledesc/.tableinfo.0000000001",
           &sb_schema("default", "t", fams, 1, NULL)->base, 1, 0);
  expect_fail(root, "p", HFG_ECORRUPT, "is listed twice", E, "region-manifest.");
  /* a v1 region directory named after another region */
  sb_snapshotinfo(root, "v1", "t", -1);
  sb_putpb(root, ".hbase-snapshot/v1/.tabledesc/.tableinfo.0000000001",
           &sb_schema("default", "t", fams, 1, NULL)->base, 1, 0);
  sb_putpb(root, ".hbase-snapshot/v1/abcdef/.regioninfo", &sb_regioninfo("default", "t", &r[0])->base,
           1, 1);
  expect_fail(root, "v1", HFG_ECORRUPT, "not its directory's name abcdef", "v1/abcdef/.regioninfo",
              NULL);
  sb_reset();
}

/* The bytes of file rel under root; *n its length. */
static uint8_t *slurp(const char *root, const char *rel, size_t *n) {
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", root, rel);
  return t_read_file(p, n);
}

/* Every strict prefix of the file `rel` makes the open fail with HFG_ECORRUPT
 * and a message naming the file; the whole file opens. */
static void every_truncation(const char *root, const char *name, const char *rel,
                             const char *named) {
  size_t n;
  uint8_t *all = slurp(root, rel, &n);
  REQUIRE(all && n > 4);
  hfg_snapshot *s;
  for (size_t k = 0; k < n; k++) {
    sb_put(root, rel, all, k);
    int rc = hfg_snapshot_open(root, name, &s);
    if (rc != HFG_ECORRUPT || !strstr(hfg_snapshot_errmsg(s), named))
      fprintf(stderr, "  %s cut to %zu of %zu bytes: rc %d: %s\n", rel, k, n, rc,
              hfg_snapshot_errmsg(s));
    CHECK_EQ_INT(rc, HFG_ECORRUPT);
    CHECK(strstr(hfg_snapshot_errmsg(s), named) != NULL);
    hfg_snapshot_free(s);
    if (t_failed_now) break;
  }
  sb_put(root, rel, all, n);
  CHECK_EQ_INT(hfg_snapshot_open(root, name, &s), 0);
  hfg_snapshot_free(s);
  free(all);
}

/* a snapshot with a bit of everything: two regions, a reference read from a
 * file, v1-style and v2-style parts */
static void rich(const char *root) {
  const char *E0 = sb_encoded("default", "t", "", 1), *E1 = sb_encoded("default", "t", "k", 1);
  const char *P = "0000000000000000000000000000beef";
  char ref[128], rel[512];
  snprintf(ref, sizeof ref, "%s.%s", H2, P);
  sb_region r[] = {{"", "k", 1, 0, 0, (const sb_file[]){{"f", H1, 0, 0, -1}, {"f", ref, 2, "c", -1}}, 2},
                   {"k", "", 1, 0, 0, (const sb_file[]){{"f", ref, 0, 0, -1}}, 1}};
  simple(root, "s", r, 2, (const char *[]){"VERSIONS", "5", NULL});
  sb_hfile(root, "data", "default", "t", E0, "f", H1);
  sb_hfile(root, "archive/data", "default", "t", P, "f", H2);
  uint8_t b[64];
  size_t n = sb_reference_bytes(b, 1, "k", 0);
  snprintf(rel, sizeof rel, "data/default/t/%s/f/%s", E1, ref);
  sb_put(root, rel, b, n);
  /* the parts of an in-progress snapshot of the same table */
  sb_snapshotinfo(root, "p", "t", 2);
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/%s/.regioninfo", E0);
  sb_putpb(root, rel, &sb_regioninfo("default", "t", &r[0])->base, 1, 1);
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/%s/f/%s", E0, H1);
  sb_put(root, rel, "", 0);
  n = sb_reference_bytes(b, 0, "c", 1);
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/%s/f/%s", E0, ref);
  sb_put(root, rel, b, n);
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/region-manifest.%s", E1);
  sb_putpb(root, rel, &sb_region_manifest("default", "t", &r[1])->base, 0, 0);
  Hfg__Snap__ColumnFamilySchema *fams[] = {sb_family("f", (const char *[]){"TTL", "9", NULL}, NULL)};
  Hfg__Snap__TableSchema *ts = sb_schema("default", "t", fams, 1, NULL);
  size_t tl = protobuf_c_message_get_packed_size(&ts->base) + 4;
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/.tabledesc/.tableinfo.0000000002.%zu", tl);
  sb_putpb(root, rel, &ts->base, 1, 0);
}

TEST(every_truncation_refused) {
  const char *root = sb_root("trunc");
  rich(root);
  const char *E0 = sb_encoded("default", "t", "", 1), *E1 = sb_encoded("default", "t", "k", 1);
  char rel[512];
  every_truncation(root, "s", ".hbase-snapshot/s/data.manifest", "data.manifest");
  every_truncation(root, "s", ".hbase-snapshot/s/.snapshotinfo", ".snapshotinfo");
  snprintf(rel, sizeof rel, "data/default/t/%s/f/%s.0000000000000000000000000000beef", E1, H2);
  every_truncation(root, "s", rel, rel);
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/region-manifest.%s", E1);
  every_truncation(root, "p", rel, rel);
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/%s/.regioninfo", E0);
  every_truncation(root, "p", rel, rel);
  snprintf(rel, sizeof rel, ".hbase-snapshot/p/%s/f/%s.0000000000000000000000000000beef", E0, H2);
  every_truncation(root, "p", rel, rel);
  /* the descriptor's name carries its length (HBASE-26690) */
  DIR *d = opendir(t_tmp_path("snapshot", "trunc/.hbase-snapshot/p/.tabledesc"));
  REQUIRE(d);
  struct dirent *de;
  while ((de = readdir(d)))
    if (!strncmp(de->d_name, ".tableinfo", 10)) snprintf(rel, sizeof rel, ".hbase-snapshot/p/.tabledesc/%s", de->d_name);
  closedir(d);
  every_truncation(root, "p", rel, rel);
  sb_reset();
}

/* Every byte of the manifests and reference files replaced by a few values:
 * the open succeeds or fails with a message; never a crash (ASan) or leak. */
TEST(byte_flips_no_crash) {
  const char *root = sb_root("flips");
  rich(root);
  const char *E1 = sb_encoded("default", "t", "k", 1);
  char r1[512], r2[512];
  snprintf(r1, sizeof r1, "data/default/t/%s/f/%s.0000000000000000000000000000beef", E1, H2);
  snprintf(r2, sizeof r2, ".hbase-snapshot/p/region-manifest.%s", E1);
  const char *files[] = {".hbase-snapshot/s/data.manifest", ".hbase-snapshot/s/.snapshotinfo", r1, r2};
  const char *names[] = {"s", "s", "s", "p"};
  static const uint8_t vals[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0x0a, 0x12, 0x2f, 0x2e};
  size_t fails = 0, runs = 0;
  for (int f = 0; f < 4; f++) {
    size_t n;
    uint8_t *all = slurp(root, files[f], &n);
    REQUIRE(all);
    for (size_t i = 0; i < n; i++)
      for (size_t v = 0; v < sizeof vals; v++) {
        uint8_t old = all[i];
        if (old == vals[v]) continue;
        all[i] = vals[v];
        sb_put(root, files[f], all, n);
        hfg_snapshot *s;
        int rc = hfg_snapshot_open(root, names[f], &s);
        if (rc) {
          fails++;
          CHECK(hfg_snapshot_errmsg(s)[0] != '\0');
        }
        runs++;
        hfg_snapshot_free(s);
        all[i] = old;
      }
    sb_put(root, files[f], all, n);
    free(all);
  }
  CHECK(fails > runs / 4); /* most damage is noticed */
  sb_reset();
}

TEST(failed_allocations) {
  const char *root = sb_root("nomem");
  rich(root);
  const char *names[] = {"s", "p"};
  for (int k = 0; k < 2; k++) {
    long n;
    for (n = 1; n < 100000; n++) {
      hfg_fault_alloc_arm(n);
      hfg_snapshot *s = NULL;
      int rc = hfg_snapshot_open(root, names[k], &s);
      int fired = hfg_fault_alloc_fired();
      hfg_fault_alloc_arm(0);
      if (!fired) {
        CHECK_EQ_INT(rc, 0);
        hfg_snapshot_free(s);
        break;
      }
      if (rc != HFG_ENOMEM) fprintf(stderr, "  allocation %ld: rc %d: %s\n", n, rc, hfg_snapshot_errmsg(s));
      CHECK_EQ_INT(rc, HFG_ENOMEM);
      CHECK(s != NULL || n <= 2); /* the object, then its root string */
      hfg_snapshot_free(s);
      if (t_failed_now) break;
    }
    CHECK(n > 20);
  }
  sb_reset();
}

T_MAIN
