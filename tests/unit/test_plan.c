/* plan: region statistics on known inputs (exact counts and KeyValue bytes),
 * skew figures, the raw-key hot spot of sequential ids, heavy values and the
 * Space-Saving summary, sampling, codec measurement, rejects, sample-balanced
 * split keys, and every allocation failure. */
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/kv.h"
#include "hfilegen/plan.h"
#include "plan/plan_hot.h"
#include "t.h"
#include "util/alloc.h"

static const char *tmp_path(const char *name) { return t_tmp_path("test_plan", name); }

static const char *write_str(const char *name, const char *data) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "wb");
  if (!f) return NULL;
  fputs(data, f);
  fclose(f);
  return path;
}

/* "id,v" with ids from..to-1 and v = "x". */
static const char *write_ids(const char *name, long from, long to) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "wb");
  if (!f) return NULL;
  fputs("id,v\n", f);
  for (long i = from; i < to; i++) fprintf(f, "%ld,x\n", i);
  fclose(f);
  return path;
}

static const char *SALT10 = HFG_SOURCE_DIR "/samples/splits/salt10.txt";
static const char *ORDERS = HFG_SOURCE_DIR "/samples/orders.csv";

typedef struct setup {
  hfg_build_options b;
  hfg_plan_options o;
  const char *inputs[1];
} setup;

static void init(setup *s, const char *input, const char *rowkey, const char *splits) {
  hfg_build_options_init(&s->b);
  hfg_plan_options_init(&s->o);
  s->inputs[0] = input;
  s->b.inputs = s->inputs;
  s->b.ninputs = 1;
  s->b.rowkey = rowkey;
  s->b.splits_file = splits;
  s->o.build = &s->b;
}

static hfg_plan *run(setup *s) {
  hfg_plan *p = NULL;
  char err[1024] = "";
  int rc = hfg_plan_run(&s->o, &p, err, sizeof err);
  if (rc) fprintf(stderr, "  hfg_plan_run: %d %s\n", rc, err);
  return p;
}

static int has_finding(const hfg_plan *p, const char *code) {
  for (size_t i = 0; i < hfg_findings_count(p->findings); i++)
    if (!strcmp(hfg_findings_get(p->findings, i)->code, code)) return 1;
  return 0;
}

TEST(skew_figures) {
  hfg_plan_skew k;
  double a[] = {1, 1, 1, 5};
  hfg_plan_skew_of(a, 4, &k);
  CHECK(k.total == 8 && k.mean == 2 && k.max == 5 && k.min == 1);
  CHECK_EQ_INT(k.max_region, 3);
  CHECK(fabs(k.max_over_mean - 2.5) < 1e-12);
  CHECK(fabs(k.cv - sqrt(3.0) / 2) < 1e-12); /* stddev sqrt((1+1+1+9)/4) over mean 2 */
  CHECK_EQ_INT(k.empty, 0);
  CHECK_EQ_INT(k.over_2x, 1);
  double b[] = {0, 0, 4, 4};
  hfg_plan_skew_of(b, 4, &k);
  CHECK(fabs(k.cv - 1) < 1e-12);
  CHECK_EQ_INT(k.max_region, 2); /* the lowest index holding the max */
  CHECK_EQ_INT(k.empty, 2);
  CHECK_EQ_INT(k.over_2x, 0); /* 4 is not over twice 2 */
  double c[] = {0, 0};
  hfg_plan_skew_of(c, 2, &k);
  CHECK(k.mean == 0 && k.cv == 0 && k.max_over_mean == 0);
  CHECK_EQ_INT(k.empty, 2);
  double d[] = {7};
  hfg_plan_skew_of(d, 1, &k);
  CHECK(k.cv == 0 && k.max_over_mean == 1);
}

/* Cell sizes: rowkey columns are not stored, empty fields are skipped, values
 * are encoded as build encodes them; each cell is a v3 KeyValue. */
TEST(kv_bytes_exact) {
  const char *in = write_str("kv.csv", "id,name,n\n1,ab,7\n2,,8\n3,xyz,9\n");
  setup s;
  init(&s, in, "{id}", NULL);
  const char *maps[] = {"n=d:num:long"};
  s.b.mappings = maps;
  s.b.nmappings = 1;
  hfg_plan *p = run(&s);
  REQUIRE(p);
  CHECK_EQ_INT(p->nregions, 1);
  CHECK_EQ_INT(p->after.rows, 3);
  CHECK_EQ_INT(p->after.cells, 5); /* name twice (row 2's is empty), n three times */
  /* row 1: name 12+8+1+2+4+2+3 = 32, n 12+8+1+1+3+8+3 = 36 (family d, long) */
  hfg_cell c1 = {(const uint8_t *)"1", 1, (const uint8_t *)"cf", 2, (const uint8_t *)"name", 4, 0,
                 HFG_TYPE_PUT, (const uint8_t *)"ab", 2, NULL, 0};
  CHECK_EQ_INT(hfg_kv_cell_len(&c1), 32);
  uint64_t want = 32 + 36 + /* row 2: n */ 36 + /* row 3: name */ 33 + 36;
  CHECK_EQ_INT(p->after.kv_bytes, want);
  CHECK_EQ_INT(p->after.regions[0].kv_bytes, want);
  CHECK_EQ_INT(p->after.input_bytes, strlen("1,ab,7\n2,,8\n3,xyz,9\n"));
  CHECK_EQ_INT(p->after.key_bytes, 3);
  CHECK_EQ_INT(p->cells_per_row_max, 2);
  /* the raw key defaults to the first column: the same keys here */
  REQUIRE(p->before.regions);
  CHECK(!strcmp(p->before.key, "{id}"));
  CHECK_EQ_INT(p->before.kv_bytes, want);
  hfg_plan_free(p);
  /* --empty store keeps the empty cell: 12+8+1+2+4+0+3 = 30 more */
  s.b.empty = HFG_EMPTY_STORE;
  p = run(&s);
  REQUIRE(p);
  CHECK_EQ_INT(p->after.kv_bytes, want + 30);
  hfg_plan_free(p);
}

/* samples/orders.csv: ids 1..5000 against splits 1..9. */
TEST(orders_salt10_exact) {
  setup s;
  init(&s, ORDERS, "{id % 10}|{id}", SALT10);
  s.o.raw_key = "{id}";
  hfg_plan *p = run(&s);
  REQUIRE(p);
  CHECK_EQ_INT(p->records_read, 5000);
  CHECK_EQ_INT(p->records_sampled, 5000);
  CHECK_EQ_INT(p->rejected, 0);
  CHECK(p->scale == 1);
  CHECK_EQ_INT(p->nregions, 10);
  CHECK(!strcmp(p->rowkey, "{id % 10}|{id}"));
  for (size_t i = 0; i < 10; i++) CHECK_EQ_INT(p->after.regions[i].rows, 500);
  CHECK(p->after.rows_skew.cv == 0 && p->after.rows_skew.max_over_mean == 1);
  /* '1', '10'-'19', '100'-'199', '1000'-'1999' start with 1: 1111 rows; with 5: 112 (5000) */
  static const uint64_t before[10] = {0, 1111, 1111, 1111, 1111, 112, 111, 111, 111, 111};
  for (size_t i = 0; i < 10; i++) CHECK_EQ_INT(p->before.regions[i].rows, before[i]);
  CHECK_EQ_INT(p->before.rows_skew.max_region, 1);
  CHECK(fabs(p->before.rows_skew.max_over_mean - 1111.0 / 500) < 1e-12);
  CHECK_EQ_INT(p->before.rows_skew.empty, 1);
  CHECK_EQ_INT(p->before.rows_skew.over_2x, 4);
  CHECK_EQ_INT(p->before.nhottest, 5);
  CHECK_EQ_INT(p->before.hottest[0], 1);
  CHECK_EQ_INT(p->before.hottest[3], 4);
  CHECK_EQ_INT(p->before.hottest[4], 5);
  /* region bounds come from the splits file */
  CHECK_EQ_INT(p->after.regions[0].start_len, 0);
  CHECK(p->after.regions[3].start_len == 1 && p->after.regions[3].start[0] == '3');
  CHECK(p->after.regions[3].end_len == 1 && p->after.regions[3].end[0] == '4');
  CHECK_EQ_INT(p->after.regions[9].end_len, 0);
  /* totals agree region by region */
  uint64_t rows = 0, kv = 0;
  for (size_t i = 0; i < 10; i++) rows += p->after.regions[i].rows, kv += p->after.regions[i].kv_bytes;
  CHECK_EQ_INT(rows, p->after.rows);
  CHECK_EQ_INT(kv, p->after.kv_bytes);
  /* keys differ by two bytes ("3|") per cell between the sides */
  CHECK_EQ_INT(p->after.kv_bytes - p->before.kv_bytes, 2 * p->after.cells);
  CHECK(has_finding(p, "raw-key-hotspot"));
  CHECK(!has_finding(p, "region-over-2x"));
  /* the bucket field is id: every value once */
  CHECK(!strcmp(p->hot_field, "id") && p->hot_is_bucket_field);
  hfg_plan_free(p);
}

/* ids 0..1999999 against splits 1..9: the raw key puts 1,111,111 rows (55.6%)
 * in region 1 ('1', '10'-'19', ..., '1000000'-'1999999'), one row ('0') in
 * region 0 and 111,111 in each other; the salted key 200,000 everywhere. */
TEST(raw_key_hot_spot_2m) {
  const char *in = write_ids("ids2m.csv", 0, 2000000);
  REQUIRE(in);
  setup s;
  init(&s, in, "{id % 10}|{id}", SALT10);
  hfg_plan *p = run(&s);
  REQUIRE(p);
  CHECK_EQ_INT(p->after.rows, 2000000);
  for (size_t i = 0; i < 10; i++) CHECK_EQ_INT(p->after.regions[i].rows, 200000);
  CHECK_EQ_INT(p->before.regions[0].rows, 1);
  CHECK_EQ_INT(p->before.regions[1].rows, 1111111);
  for (size_t i = 2; i < 10; i++) CHECK_EQ_INT(p->before.regions[i].rows, 111111);
  const hfg_plan_skew *k = &p->before.rows_skew;
  CHECK(fabs(k->max_over_mean - 1111111.0 / 200000) < 1e-12);
  CHECK_EQ_INT(k->max_region, 1);
  CHECK_EQ_INT(k->over_2x, 1);
  CHECK_EQ_INT(k->empty, 0);
  /* population CV of {1, 1111111, 8 x 111111} around 200000 */
  double ss = pow(1 - 200000.0, 2) + pow(1111111 - 200000.0, 2) + 8 * pow(111111 - 200000.0, 2);
  CHECK(fabs(k->cv - sqrt(ss / 10) / 200000) < 1e-9);
  CHECK(p->after.rows_skew.cv == 0);
  hfg_plan_free(p);
  /* a 1% sample estimates the same picture */
  s.o.sample = 0.01;
  p = run(&s);
  REQUIRE(p);
  CHECK_EQ_INT(p->records_read, 2000000);
  CHECK(p->records_sampled > 18000 && p->records_sampled < 22000);
  double share = (double)p->before.regions[1].rows / (double)p->before.rows;
  CHECK(fabs(share - 1111111.0 / 2000000) < 0.02);
  CHECK(fabs(hfg_plan_est(p, p->after.rows) - 2000000) < 1);
  CHECK(fabs(hfg_plan_est(p, p->before.regions[1].rows) - 1111111) < 40000);
  hfg_plan_free(p);
  unlink(in);
}

TEST(regions_aligned_and_one_region) {
  setup s;
  init(&s, ORDERS, "{id % 100 :02}|{id}", NULL);
  s.o.regions = 4; /* 100 buckets over 4 regions: 25 each */
  s.o.no_raw_key = 1;
  hfg_plan *p = run(&s);
  REQUIRE(p);
  CHECK_EQ_INT(p->nregions, 4);
  CHECK(p->before.regions == NULL);
  for (size_t i = 0; i < 4; i++) CHECK_EQ_INT(p->after.regions[i].rows, 1250);
  CHECK(p->after.regions[1].start_len == 2 && !memcmp(p->after.regions[1].start, "25", 2));
  hfg_plan_free(p);
  init(&s, ORDERS, "{id}", NULL);
  p = run(&s);
  REQUIRE(p);
  CHECK_EQ_INT(p->nregions, 1);
  CHECK_EQ_INT(p->after.regions[0].rows, 5000);
  CHECK(!has_finding(p, "raw-key-hotspot"));
  hfg_plan_free(p);
}

/* A scheme salted on user_id keeps each heavy user in one region. */
TEST(hot_values_of_bucket_field) {
  setup s;
  init(&s, ORDERS, "{user_id % 10}|{user_id}|{id}", NULL);
  s.o.regions = 10;
  hfg_plan *p = run(&s);
  REQUIRE(p);
  CHECK(!strcmp(p->hot_field, "user_id"));
  CHECK(p->hot_is_bucket_field);
  CHECK(p->hot_exact); /* fewer distinct users than the 4096 counters */
  REQUIRE(p->nhot == 5);
  /* exact counts: recount from the file */
  FILE *f = fopen(ORDERS, "r");
  REQUIRE(f);
  char line[4096];
  uint64_t n0 = 0;
  char want[32];
  snprintf(want, sizeof want, ",%.*s,", (int)p->hot[0].len, (const char *)p->hot[0].value);
  while (fgets(line, sizeof line, f)) /* user_id is the second field of a record line */
    if (strstr(line, want) && strstr(line, want) == strchr(line, ',')) n0++;
  fclose(f);
  CHECK_EQ_INT(p->hot[0].rows, n0);
  CHECK_EQ_INT(p->hot[0].error, 0);
  CHECK(!p->hot[0].spread);
  for (size_t i = 1; i < p->nhot; i++) CHECK(p->hot[i].rows <= p->hot[i - 1].rows);
  CHECK(has_finding(p, "hot-value"));
  hfg_plan_free(p);
  /* salted on id, the same users spread over regions */
  init(&s, ORDERS, "{id % 10}|{id}", SALT10);
  s.o.hot_field = "user_id";
  p = run(&s);
  REQUIRE(p);
  CHECK(!p->hot_is_bucket_field);
  CHECK(p->hot[0].spread);
  CHECK_EQ_INT(p->hot[0].rows, n0);
  CHECK(has_finding(p, "hot-value-spread") && !has_finding(p, "hot-value"));
  hfg_plan_free(p);
  s.o.hot_field = "nope";
  char err[256];
  CHECK_EQ_INT(hfg_plan_run(&s.o, &p, err, sizeof err), HFG_EINVAL);
  CHECK(strstr(err, "nope") != NULL);
}

TEST(space_saving_bounds) {
  /* 4 counters; stream: a x50, then 1000 distinct values, then b x30 */
  plan_hot *h = plan_hot_new(4);
  REQUIRE(h);
  char v[16];
  for (int i = 0; i < 50; i++) CHECK_EQ_INT(plan_hot_add(h, (const uint8_t *)"a", 1, 0), 0);
  CHECK(plan_hot_exact(h));
  for (int i = 0; i < 1000; i++) {
    int n = snprintf(v, sizeof v, "u%d", i);
    CHECK_EQ_INT(plan_hot_add(h, (const uint8_t *)v, (size_t)n, (size_t)(i % 3)), 0);
  }
  for (int i = 0; i < 30; i++) CHECK_EQ_INT(plan_hot_add(h, (const uint8_t *)"b", 1, 2), 0);
  CHECK(!plan_hot_exact(h));
  size_t n;
  const plan_hot_entry *e = plan_hot_entries(h, &n);
  CHECK_EQ_INT(n, 4);
  int found_b = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    total += e[i].count;
    if (e[i].len == 1 && e[i].value[0] == 'a') /* if still counted, its true count is in the bounds */
      CHECK(e[i].count - e[i].error <= 50 && e[i].count >= 50);
    if (e[i].len == 1 && e[i].value[0] == 'b') {
      found_b = 1;
      CHECK(e[i].count - e[i].error <= 30 && e[i].count >= 30);
      CHECK(!e[i].spread && e[i].region == 2);
    }
  }
  /* b came last, so it holds a counter with error = the count it replaced */
  CHECK(found_b);
  CHECK(total == 1080); /* the counters always sum to the stream length */
  plan_hot_free(h);
  /* a value over N/k is always kept, and exact counts while distinct <= k */
  h = plan_hot_new(8);
  REQUIRE(h);
  for (int i = 0; i < 2000; i++) {
    int k = snprintf(v, sizeof v, "%d", i % 3 == 0 ? 7 : 100 + i);
    CHECK_EQ_INT(plan_hot_add(h, (const uint8_t *)v, (size_t)k, 0), 0);
  }
  e = plan_hot_entries(h, &n);
  int kept = 0;
  for (size_t i = 0; i < n; i++)
    if (e[i].len == 1 && e[i].value[0] == '7') {
      kept = 1;
      CHECK(e[i].count >= 667 && e[i].count - e[i].error <= 667);
    }
  CHECK(kept);
  plan_hot_free(h);
  h = plan_hot_new(3);
  REQUIRE(h);
  const char *s3[] = {"x", "y", "x", "z", "x", "y"};
  for (int i = 0; i < 6; i++) plan_hot_add(h, (const uint8_t *)s3[i], 1, (size_t)i % 2);
  CHECK(plan_hot_exact(h));
  e = plan_hot_entries(h, &n);
  CHECK_EQ_INT(n, 3);
  for (size_t i = 0; i < n; i++) {
    uint64_t want = e[i].value[0] == 'x' ? 3 : e[i].value[0] == 'y' ? 2 : 1;
    CHECK_EQ_INT(e[i].count, want);
    CHECK_EQ_INT(e[i].error, 0);
  }
  plan_hot_free(h);
}

TEST(sampling_is_deterministic) {
  setup s;
  init(&s, ORDERS, "{id % 10}|{id}", SALT10);
  s.o.sample = 0.1;
  s.o.seed = 42;
  hfg_plan *a = run(&s), *b = run(&s);
  REQUIRE(a && b);
  CHECK(a->records_sampled > 400 && a->records_sampled < 600);
  CHECK_EQ_INT(a->records_sampled, b->records_sampled);
  for (size_t i = 0; i < 10; i++) CHECK_EQ_INT(a->after.regions[i].rows, b->after.regions[i].rows);
  CHECK(fabs(a->scale - 5000.0 / (double)a->records_sampled) < 1e-12);
  CHECK(has_finding(a, "small-sample"));
  hfg_plan_free(b);
  /* another seed picks other records */
  s.o.seed = 43;
  b = run(&s);
  REQUIRE(b);
  int differs = b->records_sampled != a->records_sampled;
  for (size_t i = 0; i < 10; i++) differs |= a->after.regions[i].rows != b->after.regions[i].rows;
  CHECK(differs);
  hfg_plan_free(a);
  hfg_plan_free(b);
}

/* Compressing the sorted sample: the raw bytes measured are exactly the
 * estimated KeyValue bytes when the whole input fits the budget. */
TEST(codec_measurement) {
  setup s;
  init(&s, ORDERS, "{id % 10}|{id}", SALT10);
  s.o.measure_codec = 1;
  s.b.hfile.codec = HFG_CODEC_GZ;
  hfg_plan *p = run(&s);
  REQUIRE(p);
  CHECK(p->measured);
  CHECK_EQ_INT(p->codec, HFG_CODEC_GZ);
  CHECK_EQ_INT(p->measured_rows, 5000);
  CHECK_EQ_INT(p->measured_raw, p->after.kv_bytes);
  CHECK(p->measured_compressed > 0 && p->measured_compressed < p->measured_raw / 2);
  hfg_plan_free(p);
}

TEST(rejects_and_errors) {
  const char *in = write_str("rej.csv", "id,v\n1,a\nabc,b\n3,c\n\"bad\"x,d\n");
  setup s;
  init(&s, in, "{id % 10}|{id}", NULL);
  hfg_plan *p = run(&s);
  REQUIRE(p);
  CHECK_EQ_INT(p->records_read, 4);
  CHECK_EQ_INT(p->rejected, 2);
  CHECK_EQ_INT(p->after.rows, 2);
  CHECK(strstr(p->first_reject, "line 3") && strstr(p->first_reject, "not an integer"));
  CHECK(has_finding(p, "rejected"));
  hfg_plan_free(p);
  char err[1024];
  init(&s, in, "{id % 10}|{id}", tmp_path("missing-splits.txt"));
  CHECK_EQ_INT(hfg_plan_run(&s.o, &p, err, sizeof err), HFG_EIO);
  CHECK(p == NULL && strstr(err, "missing-splits.txt"));
  init(&s, in, "{nope}", NULL);
  CHECK(hfg_plan_run(&s.o, &p, err, sizeof err) < 0);
  CHECK(strstr(err, "rowkey") != NULL);
  init(&s, in, "{id}", NULL);
  s.o.raw_key = "{missing(}";
  CHECK(hfg_plan_run(&s.o, &p, err, sizeof err) < 0);
  CHECK(strstr(err, "raw key") != NULL);
  init(&s, in, "{id % 10}|{id}", NULL);
  s.o.regions = 20; /* more regions than the 10 buckets */
  CHECK_EQ_INT(hfg_plan_run(&s.o, &p, err, sizeof err), HFG_EINVAL);
  init(&s, in, "{id}", NULL);
  s.o.sample = 1.5;
  CHECK_EQ_INT(hfg_plan_run(&s.o, &p, err, sizeof err), HFG_EINVAL);
  unlink(in);
}

/* Quantile splits from a 10% sample of ids 1..200000 under the raw key (whose
 * decimal strings are far from uniform over the key space): every region
 * holds the mean +-15% of the full input. */
TEST(sample_splits_balanced) {
  const char *in = write_ids("ids200k.csv", 1, 200001);
  REQUIRE(in);
  setup s;
  init(&s, in, "{id}", NULL);
  s.o.sample = 0.1;
  hfg_keylist *l = NULL;
  hfg_findings *w = NULL;
  char err[512];
  REQUIRE(hfg_plan_sample_splits(&s.o, 10, 0, &l, &w, err, sizeof err) == 0);
  REQUIRE(hfg_keylist_count(l) == 9);
  CHECK_EQ_INT(hfg_findings_count(w), 0);
  for (size_t i = 1; i < 9; i++) {
    size_t a, b;
    const uint8_t *x = hfg_keylist_get(l, i - 1, &a), *y = hfg_keylist_get(l, i, &b);
    int c = memcmp(x, y, a < b ? a : b);
    CHECK(c < 0 || (c == 0 && a < b));
  }
  s.o.sample = 1;
  s.o.splits = l;
  s.o.no_raw_key = 1;
  hfg_plan *p = run(&s);
  REQUIRE(p);
  REQUIRE(p->nregions == 10);
  for (size_t i = 0; i < 10; i++) {
    double r = (double)p->after.regions[i].rows / 20000.0;
    if (r < 0.85 || r > 1.15) fprintf(stderr, "  region %zu: %llu rows\n", i, (unsigned long long)p->after.regions[i].rows);
    CHECK(r >= 0.85 && r <= 1.15);
  }
  CHECK(p->after.rows_skew.max_over_mean < 1.15);
  hfg_plan_free(p);
  hfg_keylist_free(l);
  hfg_findings_free(w);
  /* a reservoir smaller than the sample still balances */
  s.o.splits = NULL;
  s.o.sample = 1;
  w = NULL;
  REQUIRE(hfg_plan_sample_splits(&s.o, 4, 5000, &l, &w, err, sizeof err) == 0);
  s.o.splits = l;
  p = run(&s);
  REQUIRE(p);
  for (size_t i = 0; i < 4; i++) {
    double r = (double)p->after.regions[i].rows / 50000.0;
    CHECK(r >= 0.85 && r <= 1.15);
  }
  hfg_plan_free(p);
  hfg_keylist_free(l);
  hfg_findings_free(w);
  unlink(in);
}

TEST(sample_splits_edge_cases) {
  /* three distinct keys cannot make 10 regions */
  const char *in = write_str("few.csv", "k,v\na,1\na,2\nb,3\nc,4\nc,5\n");
  setup s;
  init(&s, in, "{k}", NULL);
  hfg_keylist *l = NULL;
  hfg_findings *w = NULL;
  char err[512];
  REQUIRE(hfg_plan_sample_splits(&s.o, 10, 0, &l, &w, err, sizeof err) == 0);
  CHECK_EQ_INT(hfg_keylist_count(l), 2);
  size_t n;
  const uint8_t *k = hfg_keylist_get(l, 0, &n);
  CHECK(n == 1 && k[0] == 'b');
  k = hfg_keylist_get(l, 1, &n);
  CHECK(n == 1 && k[0] == 'c');
  int few = 0;
  for (size_t i = 0; i < hfg_findings_count(w); i++)
    few |= !strcmp(hfg_findings_get(w, i)->code, "few-distinct-keys");
  CHECK(few);
  hfg_keylist_free(l);
  hfg_findings_free(w);
  /* separators are the shortest prefix above the previous key */
  in = write_str("sep.csv", "k,v\nabc1,x\nabc2,x\nabd7,x\nabd8,x\n");
  init(&s, in, "{k}", NULL);
  w = NULL;
  REQUIRE(hfg_plan_sample_splits(&s.o, 2, 0, &l, &w, err, sizeof err) == 0);
  REQUIRE(hfg_keylist_count(l) == 1);
  k = hfg_keylist_get(l, 0, &n);
  CHECK(n == 3 && !memcmp(k, "abd", 3));
  hfg_keylist_free(l);
  hfg_findings_free(w);
  /* one region: no keys; nothing keyable: an error */
  w = NULL;
  REQUIRE(hfg_plan_sample_splits(&s.o, 1, 0, &l, &w, err, sizeof err) == 0);
  CHECK_EQ_INT(hfg_keylist_count(l), 0);
  hfg_keylist_free(l);
  hfg_findings_free(w);
  init(&s, in, "{k % 10}", NULL);
  CHECK_EQ_INT(hfg_plan_sample_splits(&s.o, 2, 0, &l, NULL, err, sizeof err), HFG_EINVAL);
  CHECK(l == NULL && strstr(err, "no sampled record"));
}

/* Every allocation failure returns HFG_ENOMEM and leaks nothing (ASan). */
TEST(alloc_failures) {
  const char *in = write_str("fault.csv", "id,user,v\n1,7,a\n2,7,b\n3,8,\n12,9,c\n");
  setup s;
  init(&s, in, "{id % 10}|{id}", NULL);
  s.o.regions = 2;
  s.o.measure_codec = 1;
  s.b.hfile.codec = HFG_CODEC_LZ4;
  s.o.hot_field = "user";
  int ok = 0;
  for (long n = 1; n < 5000 && !ok; n++) {
    hfg_plan *p = NULL;
    char err[256];
    hfg_fault_alloc_arm(n);
    int rc = hfg_plan_run(&s.o, &p, err, sizeof err);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (!fired) {
      CHECK_EQ_INT(rc, 0);
      CHECK(p && p->after.rows == 4);
      ok = 1;
    } else if (rc) {
      CHECK_EQ_INT(rc, HFG_ENOMEM);
      CHECK(p == NULL);
    }
    hfg_plan_free(p);
  }
  CHECK(ok);
  ok = 0;
  for (long n = 1; n < 5000 && !ok; n++) {
    hfg_keylist *l = NULL;
    hfg_findings *w = NULL;
    char err[256];
    hfg_fault_alloc_arm(n);
    int rc = hfg_plan_sample_splits(&s.o, 3, 2, &l, &w, err, sizeof err);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (!fired) {
      CHECK_EQ_INT(rc, 0);
      ok = 1;
    } else if (rc) {
      CHECK_EQ_INT(rc, HFG_ENOMEM);
    }
    hfg_keylist_free(l);
    hfg_findings_free(w);
  }
  CHECK(ok);
  unlink(in);
}

T_MAIN
