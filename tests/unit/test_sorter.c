#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include "sort/sorter.h"
#include "build/splits.h"
#include "t.h"
#include "util/coding.h"

T_MAIN

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { return t_rand(&rng); }

typedef struct ref {
  char key[24];
  size_t klen;
  uint64_t seq;
} ref;

static int ref_cmp(const void *a, const void *b) {
  const ref *x = a, *y = b;
  size_t n = x->klen < y->klen ? x->klen : y->klen;
  int r = memcmp(x->key, y->key, n);
  if (r) return r;
  if (x->klen != y->klen) return x->klen < y->klen ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The tests' 4 regions (split at "4", "7", "7a") and a sorter over them. */
static hfg_sorter *four_region_sorter(hfg_splits *sp, size_t budget, const char *tmp) {
  CHECK(hfg_splits_add(sp, (const uint8_t *)"4", 1) == 0);
  CHECK(hfg_splits_add(sp, (const uint8_t *)"7", 1) == 0);
  CHECK(hfg_splits_add(sp, (const uint8_t *)"7a", 2) == 0);
  return hfg_sorter_new(sp->n + 1, budget, tmp);
}

/* Every region's records, in the sorter's order, against the qsort of refs:
 * key, seq, a payload of plen bytes starting with the seq; frees refs. */
static void check_regions(hfg_sorter *s, ref **refs, const size_t *nref, size_t plen_want) {
  hfg_err err = {0};
  for (int r = 0; r < 4; r++) {
    qsort(refs[r], nref[r], sizeof(ref), ref_cmp);
    hfg_sort_iter *it;
    REQUIRE(hfg_sort_iter_open(s, (size_t)r, &it, &err) == 0);
    const uint8_t *rec;
    size_t len, k = 0;
    int more;
    while ((more = hfg_sort_iter_next(it, &rec, &len, &err)) > 0) {
      const ref *x = k < nref[r] ? &refs[r][k] : NULL;
      k++;
      size_t plen;
      const uint8_t *p = hfg_rec_payload(rec, len, &plen);
      if (!x || hfg_rec_klen(rec) != x->klen || memcmp(hfg_rec_key(rec), x->key, x->klen) ||
          hfg_rec_seq(rec) != x->seq || plen != plen_want || hfg_get_be64(p) != x->seq) {
        t_failed_now = 1;
        break;
      }
    }
    CHECK(more == 0);
    CHECK_EQ_INT(k, nref[r]);
    CHECK_EQ_INT(hfg_sorter_region_rows(s, (size_t)r), nref[r]);
    hfg_sort_iter_close(it);
    free(refs[r]);
  }
}

/* Sorts n random rows over 4 regions with the given budget and compares every
 * region's output with qsort of the same rows. */
static int use_lz4;

static void sort_and_compare(size_t n, size_t budget, size_t payload, int expect_spill) {
  char tmp[] = "/tmp/hfg_sorter_XXXXXX";
  REQUIRE(mkdtemp(tmp) != NULL);
  hfg_splits sp = {0};
  hfg_sorter *s = four_region_sorter(&sp, budget, tmp);
  REQUIRE(s != NULL);
  hfg_sorter_set_lz4(s, use_lz4);
  ref *refs[4];
  size_t nref[4] = {0};
  for (int r = 0; r < 4; r++) refs[r] = calloc(n, sizeof(ref));
  uint8_t *pl = malloc(payload + 8);
  hfg_err err = {0};
  for (size_t i = 0; i < n; i++) {
    ref x;
    /* keys with a shared 8-byte prefix sometimes, and duplicates */
    uint64_t v = next() % (n / 2 + 1);
    x.klen = (size_t)snprintf(x.key, sizeof x.key, "%llu%s", (unsigned long long)(v % 10),
                              (v & 1) ? "-same-prefix" : "");
    x.klen += (size_t)snprintf(x.key + x.klen, sizeof x.key - x.klen, "%llu",
                               (unsigned long long)v);
    x.seq = i;
    size_t region = hfg_splits_region(&sp, (const uint8_t *)x.key, x.klen);
    refs[region][nref[region]++] = x;
    hfg_put_be64(pl, i);
    memset(pl + 8, (int)(i & 0xff), payload);
    if (hfg_sorter_add(s, region, (const uint8_t *)x.key, x.klen, i, pl, payload + 8, &err)) {
      fprintf(stderr, "  add: %s\n", err.msg);
      t_failed_now = 1;
      break;
    }
  }
  CHECK(hfg_sorter_finish(s, &err) == 0);
  if (expect_spill) CHECK(hfg_sorter_runs(s) > 0);
  else CHECK(hfg_sorter_runs(s) == 0);
  check_regions(s, refs, nref, payload + 8);
  free(pl);
  hfg_sorter_free(s);
  hfg_splits_free(&sp);
  /* every spill file is gone */
  CHECK(rmdir(tmp) == 0);
}

TEST(in_memory) { sort_and_compare(20000, 64 << 20, 10, 0); }
TEST(spills) { sort_and_compare(50000, 1 << 20, 40, 1); }
/* > 64 runs forces the multi-pass merge */
TEST(multi_pass_merge) { sort_and_compare(60000, 256 << 10, 100, 1); }
TEST(large_records) { sort_and_compare(300, 256 << 10, 200000, 1); }

/* the same with LZ4-compressed spill runs (frames, regions on frame boundaries) */
TEST(lz4_spills) {
  use_lz4 = 1;
  sort_and_compare(50000, 1 << 20, 40, 1);
  sort_and_compare(60000, 256 << 10, 100, 1); /* multi-pass merge of compressed runs */
  sort_and_compare(300, 256 << 10, 200000, 1); /* records larger than a frame */
  use_lz4 = 0;
}

TEST(partition_boundaries) {
  hfg_splits sp = {0};
  CHECK(hfg_splits_add(&sp, (const uint8_t *)"1", 1) == 0);
  CHECK(hfg_splits_add(&sp, (const uint8_t *)"2", 1) == 0);
  CHECK(hfg_splits_add(&sp, (const uint8_t *)"2", 1) == HFG_EINVAL); /* not ascending */
  CHECK_EQ_INT(hfg_splits_region(&sp, (const uint8_t *)"0|9", 3), 0);
  CHECK_EQ_INT(hfg_splits_region(&sp, (const uint8_t *)"1", 1), 1); /* equal: starts region 1 */
  CHECK_EQ_INT(hfg_splits_region(&sp, (const uint8_t *)"1|5", 3), 1);
  CHECK_EQ_INT(hfg_splits_region(&sp, (const uint8_t *)"2", 1), 2);
  CHECK_EQ_INT(hfg_splits_region(&sp, (const uint8_t *)"9", 1), 2);
  CHECK_EQ_INT(hfg_splits_region(&sp, (const uint8_t *)"\x01", 1), 0);
  hfg_splits_free(&sp);
}

TEST(splits_file) {
  char path[] = "/tmp/hfg_splits_XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const char *text = "1\n\nz\\\\\n\\x80\\xff\n";
  CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
  close(fd);
  hfg_splits sp;
  hfg_err err = {0};
  REQUIRE(hfg_splits_load(path, &sp, &err) == 0);
  REQUIRE(sp.n == 3);
  CHECK(sp.len[2] == 2 && sp.key[2][0] == 0x80 && sp.key[2][1] == 0xff);
  CHECK(sp.len[1] == 2 && sp.key[1][1] == '\\');
  hfg_splits_free(&sp);
  FILE *f = fopen(path, "w");
  fputs("b\na\n", f);
  fclose(f);
  CHECK(hfg_splits_load(path, &sp, &err) == HFG_EINVAL);
  CHECK(strstr(err.msg, "line 2") != NULL);
  unlink(path);
}

/* Region lookup (8-byte prefixes first, whole keys on a tie) against a plain
 * count of split keys <= row, on short binary keys that are often prefixes
 * of each other or hold zero bytes. */
static int bytes_order(const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
  for (size_t i = 0; i < al && i < bl; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return al < bl ? -1 : al > bl;
}

TEST(splits_region_matches_reference) {
  uint64_t seed = 7;
  static const uint8_t alphabet[] = {0x00, 0x01, '0', '1', '|', 0x7f, 0x80, 0xff};
  for (int round = 0; round < 40; round++) {
    /* candidate keys, sorted and deduplicated into splits */
    uint8_t keys[64][12];
    size_t lens[64], nk = 0;
    for (int i = 0; i < 64; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      lens[nk] = 1 + (seed >> 33) % 12;
      for (size_t b = 0; b < lens[nk]; b++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        keys[nk][b] = alphabet[(seed >> 40) % sizeof alphabet];
      }
      nk++;
    }
    for (size_t i = 1; i < nk; i++) /* insertion sort by Bytes order */
      for (size_t k = i; k > 0 && bytes_order(keys[k - 1], lens[k - 1], keys[k], lens[k]) > 0; k--) {
        uint8_t t[12];
        size_t tl = lens[k];
        memcpy(t, keys[k], 12);
        memcpy(keys[k], keys[k - 1], 12);
        lens[k] = lens[k - 1];
        memcpy(keys[k - 1], t, 12);
        lens[k - 1] = tl;
      }
    hfg_splits sp = {0};
    for (size_t i = 0; i < nk; i++)
      if (sp.n == 0 || bytes_order(sp.key[sp.n - 1], sp.len[sp.n - 1], keys[i], lens[i]) < 0)
        REQUIRE(hfg_splits_add(&sp, keys[i], lens[i]) == 0);
    for (int q = 0; q < 500; q++) {
      uint8_t row[12];
      size_t rl;
      if (q % 5 == 0) { /* exactly a split key */
        size_t i = (size_t)q % sp.n;
        rl = sp.len[i];
        memcpy(row, sp.key[i], rl);
      } else {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        rl = 1 + (seed >> 33) % 12;
        for (size_t b = 0; b < rl; b++) {
          seed = seed * 6364136223846793005ull + 1442695040888963407ull;
          row[b] = alphabet[(seed >> 40) % sizeof alphabet];
        }
      }
      size_t want = 0;
      while (want < sp.n && bytes_order(sp.key[want], sp.len[want], row, rl) <= 0) want++;
      CHECK_EQ_INT(hfg_splits_region(&sp, row, rl), want);
    }
    hfg_splits_free(&sp);
  }
}

/* A raised cancel flag stops the next spill (and a merge of runs) with
 * HFG_ECANCELED; the partial run is removed, and free removes the others. */
static size_t dir_entries(const char *dir) {
  DIR *d = opendir(dir);
  size_t n = 0;
  struct dirent *de;
  while (d && (de = readdir(d)))
    if (de->d_name[0] != '.') n++;
  if (d) closedir(d);
  return n;
}

TEST(cancel_stops_spill) {
  char tmp[] = "/tmp/hfg_sorter_XXXXXX";
  REQUIRE(mkdtemp(tmp) != NULL);
  volatile sig_atomic_t flag = 0;
  hfg_sorter *s = hfg_sorter_new(3, 256 << 10, tmp);
  REQUIRE(s != NULL);
  hfg_sorter_set_cancel(s, &flag);
  uint8_t payload[100] = {0};
  hfg_err e = {0};
  int rc = 0;
  uint64_t i = 0;
  for (; i < 200000 && rc == 0 && hfg_sorter_runs(s) < 2; i++) {
    uint8_t key[8];
    hfg_put_be64(key, next());
    rc = hfg_sorter_add(s, i % 3, key, sizeof key, i, payload, sizeof payload, &e);
  }
  CHECK_EQ_INT(rc, 0);
  CHECK_EQ_INT(hfg_sorter_runs(s), 2);
  uint64_t on_disk = hfg_sorter_disk_bytes(s);
  CHECK(on_disk > 0);
  CHECK_EQ_INT(dir_entries(tmp), 2);
  flag = 1;
  for (; i < 400000 && rc == 0; i++) {
    uint8_t key[8];
    hfg_put_be64(key, next());
    rc = hfg_sorter_add(s, i % 3, key, sizeof key, i, payload, sizeof payload, &e);
  }
  CHECK_EQ_INT(rc, HFG_ECANCELED);
  CHECK(strstr(e.msg, "canceled while writing spill run") != NULL);
  CHECK_EQ_INT(hfg_sorter_runs(s), 2);   /* the partial third run is gone */
  CHECK_EQ_INT(dir_entries(tmp), 2);
  CHECK(hfg_sorter_disk_bytes(s) >= on_disk);
  hfg_sorter_free(s);
  CHECK_EQ_INT(dir_entries(tmp), 0);
  CHECK(rmdir(tmp) == 0);
}

/* Buffers of records in the sort record form handed over whole
 * (hfg_sorter_adopt, parallel ingest's way) and records copied
 * (hfg_sorter_add_part), into two parts: every region's output is the qsort of
 * the same rows. With room, buffers are taken; once the budget is spent they
 * are refused and the copies spill; both happen here. */
static void adopt_and_compare(size_t n, size_t budget, int expect_refused) {
  char tmp[] = "/tmp/hfg_sorter_XXXXXX";
  REQUIRE(mkdtemp(tmp) != NULL);
  hfg_splits sp = {0};
  hfg_sorter *s = four_region_sorter(&sp, budget, tmp);
  REQUIRE(s != NULL);
  REQUIRE(hfg_sorter_set_parts(s, 2, 0) == 0);
  ref *refs[4];
  size_t nref[4] = {0};
  for (int r = 0; r < 4; r++) refs[r] = calloc(n, sizeof(ref));
  hfg_err err = {0};
  const size_t batch = 400, payload = 30;
  size_t taken = 0, refused = 0;
  uint8_t **recs = calloc(batch, sizeof *recs);
  size_t *regs = calloc(batch, sizeof *regs);
  for (size_t i0 = 0; i0 < n; i0 += batch) {
    size_t m = n - i0 < batch ? n - i0 : batch, len = 0, per[4] = {0};
    uint8_t *buf = malloc(m * 64 + 64);
    for (size_t k = 0; k < m; k++) {
      size_t i = i0 + k;
      ref x;
      uint64_t v = next() % (n / 2 + 1);
      x.klen = (size_t)snprintf(x.key, sizeof x.key, "%llu%s%llu", (unsigned long long)(v % 10),
                                (v & 1) ? "-same-prefix" : "", (unsigned long long)v);
      x.seq = i;
      size_t region = hfg_splits_region(&sp, (const uint8_t *)x.key, x.klen);
      refs[region][nref[region]++] = x;
      per[region]++;
      uint8_t *r = buf + len;
      size_t rl = HFG_SORT_REC_HEADER(x.klen) + payload;
      hfg_put_be32(r, (uint32_t)(rl - 4));
      hfg_put_be16(r + 4, (uint16_t)x.klen);
      memcpy(r + 6, x.key, x.klen);
      hfg_put_be64(r + 6 + x.klen, i);
      memset(r + HFG_SORT_REC_HEADER(x.klen), (int)(i & 0xff), payload);
      hfg_put_be64(r + HFG_SORT_REC_HEADER(x.klen), i);
      recs[k] = r;
      regs[k] = region;
      len += rl + 3; /* bytes between records are never read */
    }
    size_t part = (i0 / batch) % 2;
    int rc = hfg_sorter_adopt(s, part, buf, len, per);
    REQUIRE(rc >= 0);
    if (rc == 1) {
      taken++;
      for (size_t k = 0; k < m; k++) hfg_sorter_add_adopted(s, part, regs[k], recs[k]);
    } else {
      refused++;
      for (size_t k = 0; k < m; k++) {
        size_t plen, rl = 4 + hfg_get_be32(recs[k]);
        const uint8_t *pl = hfg_rec_payload(recs[k], rl, &plen);
        if (hfg_sorter_add_part(s, part, regs[k], hfg_rec_key(recs[k]), hfg_rec_klen(recs[k]),
                                hfg_rec_seq(recs[k]), pl, plen, &err)) {
          fprintf(stderr, "  add: %s\n", err.msg);
          t_failed_now = 1;
        }
      }
      free(buf);
    }
  }
  CHECK(taken > 0);
  CHECK(expect_refused ? refused > 0 && hfg_sorter_runs(s) > 0 : refused == 0);
  CHECK(hfg_sorter_finish(s, &err) == 0);
  check_regions(s, refs, nref, payload);
  free(recs);
  free(regs);
  hfg_sorter_free(s);
  hfg_splits_free(&sp);
  CHECK(rmdir(tmp) == 0);
}

TEST(adopted_buffers_in_memory) { adopt_and_compare(20000, 64 << 20, 0); }
TEST(adopted_buffers_then_spills) { adopt_and_compare(40000, 2 << 20, 1); }
