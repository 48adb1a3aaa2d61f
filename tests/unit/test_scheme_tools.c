/* Scheme tools: split keys (scheme-aligned and RegionSplitter's algorithms,
 * checked against HBase's TestRegionSplitter values), scan ranges, key
 * renderings, and lint red lines each triggering exactly their finding. */
#include "hfilegen/scheme.h"
#include "t.h"
#include "util/alloc.h"

static hfg_scheme *compile(const char *tmpl) {
  hfg_scheme *s = NULL;
  char err[256];
  if (hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) fprintf(stderr, "  %s: %s\n", tmpl, err);
  return s;
}

/* Joins keys with ',' (escaping bytes outside printable ASCII as \xNN). */
static void join(const hfg_keylist *l, char *out, size_t cap) {
  size_t o = 0;
  out[0] = '\0';
  for (size_t i = 0; i < hfg_keylist_count(l); i++) {
    size_t n;
    const uint8_t *k = hfg_keylist_get(l, i, &n);
    if (i && o + 1 < cap) out[o++] = ',';
    for (size_t j = 0; j < n && o + 5 < cap; j++)
      o += (size_t)(k[j] >= 0x20 && k[j] < 0x7f ? snprintf(out + o, cap - o, "%c", k[j])
                                                 : snprintf(out + o, cap - o, "\\x%02x", k[j]));
    out[o] = '\0';
  }
}

static int splits(const char *tmpl, hfg_split_algo algo, uint64_t regions, char *out, size_t cap,
                  int *nwarn) {
  hfg_scheme *s = tmpl ? compile(tmpl) : NULL;
  hfg_keylist *l = NULL;
  hfg_findings *w = NULL;
  char err[512];
  int rc = hfg_splits_compute(s, algo, regions, &l, &w, err, sizeof err);
  if (rc) snprintf(out, cap, "%s", err);
  else join(l, out, cap);
  if (nwarn) *nwarn = (int)hfg_findings_count(w);
  hfg_findings_free(w);
  hfg_keylist_free(l);
  hfg_scheme_free(s);
  return rc;
}

#define SPLITS_ARE(tmpl, algo, regions, expect)                               \
  do {                                                                        \
    static char out_[16384];                                                  \
    int nw_;                                                                  \
    CHECK_EQ_INT(splits(tmpl, algo, regions, out_, sizeof out_, &nw_), 0);    \
    if (strcmp(out_, expect)) {                                               \
      fprintf(stderr, "  %s/%d: got %s\n  want %s\n", tmpl ? tmpl : "-", (int)(regions), out_, expect); \
      t_failed_now = 1;                                                       \
    }                                                                         \
  } while (0)

TEST(splits_decimal_buckets) {
  SPLITS_ARE("{id % 10}|{id}", HFG_SPLIT_SCHEME, 10, "1,2,3,4,5,6,7,8,9");
  SPLITS_ARE("{id % 100 :02}|{id}", HFG_SPLIT_SCHEME, 10, "10,20,30,40,50,60,70,80,90");
  SPLITS_ARE("{murmur3(u) % 16 :02}_{ts}", HFG_SPLIT_SCHEME, 16, "01,02,03,04,05,06,07,08,09,10,11,12,13,14,15");
  SPLITS_ARE("{murmur3(u) % 16 :02}_{ts}", HFG_SPLIT_SCHEME, 4, "04,08,12");
  SPLITS_ARE("{id % 1000 :03}|{id}", HFG_SPLIT_SCHEME, 10, "100,200,300,400,500,600,700,800,900");
  SPLITS_ARE("t1_{id % 10}|{id}", HFG_SPLIT_SCHEME, 5, "t1_2,t1_4,t1_6,t1_8");
  SPLITS_ARE("{id % 10}|{id}", HFG_SPLIT_SCHEME, 1, "");
  char out[16384];
  int nw = 0;
  /* 1000 buckets on 1000 regions: 001..999. */
  REQUIRE(splits("{id % 1000 :03}|{id}", HFG_SPLIT_SCHEME, 1000, out, sizeof out, &nw) == 0);
  CHECK(!strncmp(out, "001,002,", 8));
  CHECK(!strcmp(out + strlen(out) - 8, ",998,999"));
  CHECK_EQ_INT(strlen(out), 999 * 4 - 1);
  CHECK_EQ_INT(nw, 0);
  /* Not a multiple: a warning, buckets floor(i*10/4). */
  CHECK_EQ_INT(splits("{id % 10}|{id}", HFG_SPLIT_SCHEME, 4, out, sizeof out, &nw), 0);
  CHECK(!strcmp(out, "2,5,7"));
  CHECK_EQ_INT(nw, 1);
}

TEST(splits_refusals) {
  char out[1024];
  /* Unpadded bucket numbers with >= 10 buckets: '10' sorts before '2'. */
  CHECK_EQ_INT(splits("{id % 16}|{id}", HFG_SPLIT_SCHEME, 4, out, sizeof out, NULL), HFG_EINVAL);
  CHECK(strstr(out, "'10' before '2'") != NULL);
  CHECK_EQ_INT(splits("{id % 16}|{id}", HFG_SPLIT_DECIMAL, 4, out, sizeof out, NULL), HFG_EINVAL);
  /* Uppercase hex prefix vs HexStringSplit's lowercase keys. */
  CHECK_EQ_INT(splits("{upper(hex(md5(u), 8))}|{u}", HFG_SPLIT_HEX, 4, out, sizeof out, NULL), HFG_EINVAL);
  CHECK(strstr(out, "lowercase") != NULL);
  /* ... but the scheme's own alignment renders uppercase buckets. */
  SPLITS_ARE("{upper(hex(md5(u), 1))}|{u}", HFG_SPLIT_SCHEME, 4, "4,8,C");
  CHECK_EQ_INT(splits("{id % 10}|{id}", HFG_SPLIT_SCHEME, 20, out, sizeof out, NULL), HFG_EINVAL);
  CHECK_EQ_INT(splits("{ts}_{id}", HFG_SPLIT_SCHEME, 4, out, sizeof out, NULL), HFG_EINVAL);
  CHECK_EQ_INT(splits(NULL, HFG_SPLIT_SCHEME, 4, out, sizeof out, NULL), HFG_EINVAL);
  CHECK_EQ_INT(splits(NULL, HFG_SPLIT_HEX, 0, out, sizeof out, NULL), HFG_EINVAL);
  int nw = 0;
  CHECK_EQ_INT(splits("{id % 10}|{id}", HFG_SPLIT_UNIFORM, 4, out, sizeof out, &nw), 0);
  CHECK_EQ_INT(nw, 1); /* algo-mismatch warning */
}

TEST(splits_hex_and_bytes) {
  /* 2 hex chars on 64 regions: every 4th value. */
  static char want[1024];
  size_t o = 0;
  for (int i = 1; i < 64; i++) o += (size_t)snprintf(want + o, sizeof want - o, "%s%02x", i > 1 ? "," : "", i * 4);
  SPLITS_ARE("{hex(md5(u), 2)}|{u}", HFG_SPLIT_SCHEME, 64, want);
  SPLITS_ARE("{hex(md5(u), 4)}|{u}", HFG_SPLIT_SCHEME, 4, "4000,8000,c000");
  SPLITS_ARE("{phoenix_salt(16)}{id}", HFG_SPLIT_SCHEME, 4, "\\x04,\\x08,\\x0c");
  SPLITS_ARE("{phoenix_salt(id, 4)}{id}", HFG_SPLIT_SCHEME, 4, "\\x01,\\x02,\\x03");
  /* A full 32-bit hash splits on its 8 hex chars. */
  SPLITS_ARE("{murmur3(u)}{u}", HFG_SPLIT_SCHEME, 4, "40000000,80000000,c0000000");
  /* A `:0W` pad on a hex bucket: the keys start with its zeros, so do the
   * split keys (they once started with the bare digits: every row in region 0). */
  SPLITS_ARE("{hex(md5(u), 2) :04}|{id :08}", HFG_SPLIT_SCHEME, 4, "0040,0080,00c0");
  SPLITS_ARE("{upper(hex(md5(u), 1)) :03}|{u}", HFG_SPLIT_SCHEME, 4, "004,008,00C");
  SPLITS_ARE("{murmur3(u) :010}{u}", HFG_SPLIT_SCHEME, 4, "0040000000,0080000000,00c0000000");
  SPLITS_ARE("{md5(u) :034}{u}", HFG_SPLIT_SCHEME, 2, "0080000000");
  /* and the rows of such a template spread over the regions those keys make */
  hfg_scheme *s = compile("{hex(md5(u), 2) :04}|{id :08}");
  REQUIRE(s);
  hfg_keylist *l = NULL;
  hfg_findings *w = NULL;
  char err[256];
  REQUIRE(hfg_splits_compute(s, HFG_SPLIT_SCHEME, 4, &l, &w, err, sizeof err) == 0);
  int per[4] = {0, 0, 0, 0};
  for (int i = 0; i < 400; i++) {
    char u[16];
    snprintf(u, sizeof u, "user%d", i);
    hfg_named_value nv[2] = {{"u", {u, strlen(u), 0}}, {"id", {"7", 1, 0}}};
    uint8_t *k = NULL;
    size_t kl = 0;
    REQUIRE(hfg_scheme_key(s, nv, 2, &k, &kl, err, sizeof err) == 0);
    int r = 0;
    for (size_t j = 0; j < hfg_keylist_count(l); j++) {
      size_t sl;
      const uint8_t *sk = hfg_keylist_get(l, j, &sl);
      size_t m = sl < kl ? sl : kl;
      int c = memcmp(k, sk, m);
      if (c > 0 || (c == 0 && kl >= sl)) r = (int)j + 1;
    }
    per[r]++;
    hfg_scheme_buf_free(k);
  }
  for (int r = 0; r < 4; r++) CHECK(per[r] > 60);
  hfg_keylist_free(l);
  hfg_findings_free(w);
  hfg_scheme_free(s);
}

TEST(splits_region_splitter) {
  /* HexStringSplit as HBase 2.x computes it (TestRegionSplitter.unitTestHexStringSplit). */
  SPLITS_ARE(NULL, HFG_SPLIT_HEX, 2, "80000000");
  SPLITS_ARE(NULL, HFG_SPLIT_HEX, 3, "55555555,aaaaaaaa");
  SPLITS_ARE(NULL, HFG_SPLIT_HEX, 4, "40000000,80000000,c0000000");
  SPLITS_ARE(NULL, HFG_SPLIT_HEX, 16,
             "10000000,20000000,30000000,40000000,50000000,60000000,70000000,80000000,90000000,"
             "a0000000,b0000000,c0000000,d0000000,e0000000,f0000000");
  /* HBase 1.x and earlier (no +1 on the range): the often-quoted 3fffffff... */
  SPLITS_ARE(NULL, HFG_SPLIT_HEX_LEGACY, 4, "3fffffff,7ffffffe,bffffffd");
  SPLITS_ARE(NULL, HFG_SPLIT_DECIMAL, 4, "25000000,50000000,75000000");
  SPLITS_ARE(NULL, HFG_SPLIT_DECIMAL, 3, "33333333,66666666");
  /* UniformSplit (TestRegionSplitter.unitTestUniformSplit / testCreatePresplitTableUniform). */
  SPLITS_ARE(NULL, HFG_SPLIT_UNIFORM, 2, "\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x00");
  SPLITS_ARE(NULL, HFG_SPLIT_UNIFORM, 3, "UUUUUUUU,\\xaa\\xaa\\xaa\\xaa\\xaa\\xaa\\xaa\\xaa");
  char out[4096];
  REQUIRE(splits(NULL, HFG_SPLIT_UNIFORM, 16, out, sizeof out, NULL) == 0);
  /* 0x20 is a space, printed as is by join(). */
  if (strncmp(out, "\\x10\\x00\\x00\\x00\\x00\\x00\\x00\\x00, \\x00", 38)) {
    fprintf(stderr, "  uniform 16: %.80s\n", out);
    t_failed_now = 1;
  }
  hfg_split_algo a;
  CHECK(hfg_split_algo_parse("HexStringSplit", &a) == 0 && a == HFG_SPLIT_HEX);
  CHECK(hfg_split_algo_parse("uniform", &a) == 0 && a == HFG_SPLIT_UNIFORM);
  CHECK(hfg_split_algo_parse("bogus", &a) == -1);
}

/* ---- scan ranges ---- */

static int last_exact; /* exactness of the last ranges() result */

static int ranges(const char *tmpl, const char *field, const char *from, const char *to, int incl,
                  const char *fixed_kv, char *out, size_t cap) {
  hfg_scheme *s = compile(tmpl);
  if (!s) return -100;
  hfg_named_value fv[1];
  char name[64];
  size_t nf = 0;
  if (fixed_kv) {
    const char *eq = strchr(fixed_kv, '=');
    snprintf(name, sizeof name, "%.*s", (int)(eq - fixed_kv), fixed_kv);
    fv[0] = (hfg_named_value){name, {eq + 1, strlen(eq + 1), 0}};
    nf = 1;
  }
  hfg_keylist *l = NULL;
  char err[512];
  hfg_scan_info info;
  int rc = hfg_scheme_scan_ranges(s, field, (hfg_field){from, strlen(from), 0}, (hfg_field){to, strlen(to), 0},
                                  incl, fv, nf, 1000, &l, &info, err, sizeof err);
  last_exact = !rc && info.exact;
  if (rc) snprintf(out, cap, "%s", err);
  else join(l, out, cap);
  hfg_keylist_free(l);
  hfg_scheme_free(s);
  return rc;
}

TEST(scan_ranges_bucket_range) {
  const char *T = "{murmur3(userId) % 16 :02}_{ts}_{eventId}";
  static char out[8192], want[8192];
  REQUIRE(ranges(T, "ts", "1720695600000", "1720699200000", 0, NULL, out, sizeof out) == 0);
  size_t o = 0;
  for (int b = 0; b < 16; b++)
    o += (size_t)snprintf(want + o, sizeof want - o, "%s%02d_1720695600000,%02d_1720699200000",
                          b ? "," : "", b, b);
  CHECK(!strcmp(out, want));
  CHECK(!last_exact); /* {ts} is decimal of varying width: the same bytes, a superset */
  /* userId given: its bucket (user39 -> 03) is computed, one range. */
  REQUIRE(ranges(T, "ts", "1720695600000", "1720699200000", 0, "userId=user39", out, sizeof out) == 0);
  CHECK(!strcmp(out, "03_1720695600000,03_1720699200000"));
  REQUIRE(ranges(T, "ts", "1720695600000", "1720699200000", 1, "userId=user39", out, sizeof out) == 0);
  CHECK(!strcmp(out, "03_1720695600000,03_1720699200001"));
  CHECK_EQ_INT(ranges(T, "ts", "1720699200000", "1720695600000", 0, NULL, out, sizeof out), HFG_EINVAL);
  CHECK_EQ_INT(ranges(T, "eventId", "a", "b", 0, NULL, out, sizeof out), HFG_EINVAL);
  CHECK(strstr(out, "needs 'ts'") != NULL);
  CHECK_EQ_INT(ranges(T, "nope", "a", "b", 0, NULL, out, sizeof out), HFG_EINVAL);
}

TEST(scan_ranges_time_bucket_and_desc) {
  const char *T = "{day(ts)}_{murmur3(deviceId) % 8}_{ts}_{deviceId}";
  char out[4096];
  /* 2024-07-11 11:00 .. 2024-07-12 01:00 UTC: two days, dev-1's bucket 2. */
  REQUIRE(ranges(T, "ts", "1720695600000", "1720746000000", 0, "deviceId=dev-1", out, sizeof out) == 0);
  CHECK(!strcmp(out, "20240711_2_1720695600000,20240711_2_1720746000000,"
                     "20240712_2_1720695600000,20240712_2_1720746000000"));
  /* Without the device: 2 days x 8 buckets. */
  REQUIRE(ranges(T, "ts", "1720695600000", "1720746000000", 0, NULL, out, sizeof out) == 0);
  size_t commas = 0;
  for (const char *c = out; *c; c++) commas += *c == ',';
  CHECK_EQ_INT(commas, 31);
  /* Newest first: desc(ts) reverses the bounds. */
  REQUIRE(ranges("{u}|{desc(ts)}", "ts", "1000", "2000", 0, "u=a", out, sizeof out) == 0);
  CHECK(!strcmp(out, "a|9223372036854773808,a|9223372036854774808"));
  CHECK(last_exact);
  /* Start skips ts=2000 (desc 9223372036854773807), stop includes ts=1000. */
  CHECK_EQ_INT(ranges("{reverse(ts)}", "ts", "1", "2", 0, NULL, out, sizeof out), HFG_EINVAL);
  CHECK(strstr(out, "keeps the order") != NULL);
}

TEST(key_formats) {
  char *o;
  REQUIRE(hfg_key_format((const uint8_t *)"8|1420008", 9, HFG_KEYFMT_SHELL, &o) == 0);
  CHECK(!strcmp(o, "\"8|1420008\""));
  hfg_scheme_buf_free(o);
  REQUIRE(hfg_key_format((const uint8_t *)"8|1420008", 9, HFG_KEYFMT_JAVA, &o) == 0);
  CHECK(!strcmp(o, "Bytes.toBytes(\"8|1420008\")"));
  hfg_scheme_buf_free(o);
  const uint8_t bin[] = {0x00, 0x15, 0xaa, '#', '"'};
  REQUIRE(hfg_key_format(bin, 5, HFG_KEYFMT_SHELL, &o) == 0);
  CHECK(!strcmp(o, "\"\\x00\\x15\\xAA\\#\\\"\""));
  hfg_scheme_buf_free(o);
  REQUIRE(hfg_key_format(bin, 3, HFG_KEYFMT_JAVA, &o) == 0);
  CHECK(!strcmp(o, "new byte[] {0x00, 0x15, (byte) 0xaa}"));
  hfg_scheme_buf_free(o);
  REQUIRE(hfg_key_format(bin, 3, HFG_KEYFMT_ESCAPED, &o) == 0);
  CHECK(!strcmp(o, "\\x00\\x15\\xaa"));
  hfg_scheme_buf_free(o);
}

/* ---- lint ---- */

/* Lints tmpl over sample rows (each "v1,v2,..." in column order of cols,
 * which the template must use by name). Returns the finding codes joined by
 * ',' and the max severity. */
static int lint(const char *tmpl, uint64_t regions, const char *cols_csv, const char *const *rows,
                size_t nrows, char *codes, size_t cap) {
  hfg_scheme *s = NULL;
  char err[256], colbuf[256];
  const char *cols[16];
  size_t nc = 0;
  if (cols_csv) {
    snprintf(colbuf, sizeof colbuf, "%s", cols_csv);
    for (char *c = strtok(colbuf, ","); c && nc < 16; c = strtok(NULL, ",")) cols[nc++] = c;
  }
  if (hfg_scheme_compile(tmpl, cols_csv ? cols : NULL, nc, &s, err, sizeof err)) {
    fprintf(stderr, "  %s: %s\n", tmpl, err);
    return -100;
  }
  hfg_lint *l;
  if (hfg_lint_new(s, regions, &l)) return -101;
  for (size_t r = 0; r < nrows; r++) {
    hfg_field f[16];
    const char *p = rows[r];
    for (size_t i = 0; i < nc; i++) {
      const char *e = strchr(p, ',');
      if (!e) e = p + strlen(p);
      f[i] = (hfg_field){p, (size_t)(e - p), 0};
      p = *e ? e + 1 : e;
    }
    hfg_lint_add(l, f, nc);
  }
  hfg_findings *fs;
  if (hfg_lint_finish(l, &fs)) return -102;
  codes[0] = '\0';
  for (size_t i = 0; i < hfg_findings_count(fs); i++) {
    const hfg_finding *x = hfg_findings_get(fs, i);
    CHECK(x->message[0] && x->why[0] && x->fix[0]);
    snprintf(codes + strlen(codes), cap - strlen(codes), "%s%s", i ? "," : "", x->code);
  }
  int sev = hfg_findings_max_severity(fs);
  hfg_findings_free(fs);
  hfg_lint_free(l);
  hfg_scheme_free(s);
  return sev;
}

#define LINT_IS(tmpl, regions, cols, rows, nrows, sev, expect)               \
  do {                                                                       \
    char c_[512];                                                            \
    int s_ = lint(tmpl, regions, cols, rows, nrows, c_, sizeof c_);          \
    CHECK_EQ_INT(s_, sev);                                                   \
    if (strcmp(c_, expect)) {                                                \
      fprintf(stderr, "  lint %s: got [%s] want [%s]\n", tmpl, c_, expect);  \
      t_failed_now = 1;                                                      \
    }                                                                        \
  } while (0)

TEST(lint_template_red_lines) {
  /* Clean schemes. */
  LINT_IS("{id % 10}|{id}", 10, NULL, NULL, 0, HFG_SEV_INFO, "rowprefix-bloom");
  LINT_IS("{murmur3(userId) % 16 :02}_{ts}_{eventId}", 16, NULL, NULL, 0, HFG_SEV_INFO, "rowprefix-bloom");
  LINT_IS("{hex(md5(userId), 4)}|{userId}", 64, NULL, NULL, 0, HFG_SEV_INFO, "rowprefix-bloom");
  /* A timestamp or a sequence first. */
  LINT_IS("{ts}_{userId}", 0, NULL, NULL, 0, HFG_SEV_ERROR, "monotonic-prefix");
  LINT_IS("{long(id)}{hex(md5(name), 4)}", 0, NULL, NULL, 0, HFG_SEV_ERROR, "monotonic-prefix");
  LINT_IS("{desc(created_at)}|{u}", 0, NULL, NULL, 0, HFG_SEV_ERROR, "monotonic-prefix");
  /* Time bucket then hash bucket: the known pattern, informational. */
  LINT_IS("time-bucket:ts:deviceId:8", 0, NULL, NULL, 0, HFG_SEV_INFO, "time-bucket-prefix");
  LINT_IS("{day(x)}_{murmur3(d) % 8}_{x}", 0, NULL, NULL, 0, HFG_SEV_INFO, "time-bucket-prefix");
  LINT_IS("{hour(x)}_{d}", 0, NULL, NULL, 0, HFG_SEV_ERROR, "monotonic-prefix");
  /* Key length, by template widths. */
  LINT_IS("{hex(md5(u))}{lpad(u, 180, ' ')}", 0, NULL, NULL, 0, HFG_SEV_ERROR, "key-length,rowprefix-bloom");
  LINT_IS("{hex(md5(u))}|{lpad(u, 80, ' ')}", 0, NULL, NULL, 0, HFG_SEV_WARNING, "key-length,rowprefix-bloom");
  /* Variable-length fields concatenated. */
  LINT_IS("{hex(md5(u), 4)}{u}{e}", 0, NULL, NULL, 0, HFG_SEV_ERROR, "no-separator,rowprefix-bloom");
  /* Buckets vs regions. */
  LINT_IS("{id % 10}|{id}", 4, NULL, NULL, 0, HFG_SEV_WARNING, "buckets-vs-regions,rowprefix-bloom");
  LINT_IS("{id % 10}|{id}", 20, NULL, NULL, 0, HFG_SEV_WARNING, "buckets-vs-regions,rowprefix-bloom");
  LINT_IS("{id % 100 :02}|{id}", 10, NULL, NULL, 0, HFG_SEV_INFO, "rowprefix-bloom");
  LINT_IS("{id % 16}|{id}", 0, NULL, NULL, 0, HFG_SEV_WARNING, "unpadded-buckets");
  /* Reversed time string. */
  LINT_IS("{hex(md5(u), 4)}|{reverse(ts)}", 0, NULL, NULL, 0, HFG_SEV_WARNING, "reversed-time,rowprefix-bloom");
  /* No column at all: 'id' for '{id}' gives every record one rowkey. */
  LINT_IS("id", 0, NULL, NULL, 0, HFG_SEV_ERROR, "constant-key");
  LINT_IS("id", 0, "id,v", NULL, 0, HFG_SEV_ERROR, "constant-key");
  LINT_IS("{'orders'}|x", 0, NULL, NULL, 0, HFG_SEV_ERROR, "constant-key");
}

TEST(lint_sample_red_lines) {
  static const char *const sep_rows[] = {"a|b,e1", "c,e2", "d,e3"};
  LINT_IS("{hex(md5(u), 4)}|{u}|{e}", 0, "u,e", sep_rows, 3, HFG_SEV_ERROR, "separator-in-values,rowprefix-bloom");
  static const char *const dup_rows[] = {"a,e1", "b,e2", "a,e3"};
  LINT_IS("{hex(md5(u), 4)}|{u}", 0, "u,e", dup_rows, 3, HFG_SEV_ERROR, "duplicate-keys,rowprefix-bloom");
  static const char *const bad_rows[] = {"1,x", "zz,y"};
  LINT_IS("{id % 10}|{id}", 0, "id,v", bad_rows, 2, HFG_SEV_ERROR, "eval-errors,rowprefix-bloom");
  /* Skew: ids all multiples of 10 land in bucket 0. */
  static const char *rows[200];
  static char buf[200][16];
  for (int i = 0; i < 200; i++) {
    snprintf(buf[i], sizeof buf[i], "%d", (i * 7919 % 1000) * 10);
    rows[i] = buf[i];
  }
  LINT_IS("{id % 10}|{id}", 0, "id", rows, 100, HFG_SEV_WARNING, "bucket-skew,rowprefix-bloom");
  /* A spread sample is fine, and a name that looks monotonic is cleared by it. */
  for (int i = 0; i < 200; i++) {
    snprintf(buf[i], sizeof buf[i], "%d", i * 7919 % 1000 + 1);
    rows[i] = buf[i];
  }
  LINT_IS("{id % 10}|{id}", 0, "id", rows, 200, HFG_SEV_INFO, "rowprefix-bloom");
  LINT_IS("{id}|{hex(md5(id), 4)}", 0, "id", rows, 200, -1, "");
  /* A uniform hash over 256 groups (19.5 records each) is not skewed by the
   * sampling noise of its fullest group (33 records), with or without a pad on
   * its digits; a quarter of the records on one user is. */
  {
    static const char *urows[5000];
    static char ubuf[5000][16];
    for (int i = 0; i < 5000; i++) {
      snprintf(ubuf[i], sizeof ubuf[i], "user%d", i + 1);
      urows[i] = ubuf[i];
    }
    LINT_IS("{hex(md5(u), 2)}|{u}", 0, "u", urows, 5000, HFG_SEV_INFO, "rowprefix-bloom");
    LINT_IS("{hex(md5(u), 2) :04}|{u}", 0, "u", urows, 5000, HFG_SEV_INFO, "rowprefix-bloom");
    for (int i = 0; i < 5000; i += 4) urows[i] = "hot";
    LINT_IS("{hex(md5(u), 2)}|{u}", 0, "u", urows, 5000, HFG_SEV_ERROR,
            "bucket-skew,duplicate-keys,rowprefix-bloom");
    LINT_IS("{hex(md5(u), 2) :04}|{u}", 0, "u", urows, 5000, HFG_SEV_ERROR,
            "bucket-skew,duplicate-keys,rowprefix-bloom");
  }
  /* ... and an increasing sample flags a neutral name. */
  for (int i = 0; i < 20; i++) {
    snprintf(buf[i], sizeof buf[i], "%d", 5000 + i);
    rows[i] = buf[i];
  }
  LINT_IS("{orderNo}|{hex(md5(orderNo), 4)}", 0, "orderNo", rows, 20, HFG_SEV_ERROR, "monotonic-prefix");
  /* Sample keys over 200 bytes. */
  static char longv[260];
  memset(longv, 'x', 250);
  static const char *const long_rows[] = {longv};
  LINT_IS("{hex(md5(u), 4)}|{u}", 0, "u", long_rows, 1, HFG_SEV_ERROR, "key-length,rowprefix-bloom");
  /* Integers with leading zeros copied into the key: 007 and 7 are two rows. A warning
   * where the template also reads the column as an integer, a note where it is text; 0,
   * -7 and values that are not integers are no finding. */
  static const char *const zero_rows[] = {"007,a", "7,b", "0,c", "-7,d"};
  LINT_IS("{id % 10}|{id}", 0, "id,v", zero_rows, 4, HFG_SEV_WARNING, "leading-zeros,rowprefix-bloom");
  LINT_IS("{hex(md5(v), 4)}|{id}", 0, "id,v", zero_rows, 4, HFG_SEV_INFO, "leading-zeros,rowprefix-bloom");
  LINT_IS("{hex(md5(id), 4)}|{long(id)}", 0, "id,v", zero_rows, 4, HFG_SEV_INFO, "rowprefix-bloom");
  static const char *const plain_rows[] = {"7,a", "0,b", "-7,c", "0x7,d", "0.5,e"};
  LINT_IS("{hex(md5(v), 4)}|{id}", 0, "id,v", plain_rows, 5, HFG_SEV_INFO, "rowprefix-bloom");
}

/* The rowprefix-bloom suggestion: its prefix length N as the fix gives it ("rowprefix:N"),
 * 0 when there is no such finding. */
static long lint_rowprefix(const char *tmpl, char *msg, size_t cap) {
  hfg_scheme *s = NULL;
  char err[256];
  if (hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) return -1;
  hfg_lint *l = NULL;
  hfg_findings *fs = NULL;
  long n = 0;
  if (!hfg_lint_new(s, 0, &l) && !hfg_lint_finish(l, &fs)) {
    for (size_t i = 0; i < hfg_findings_count(fs); i++) {
      const hfg_finding *x = hfg_findings_get(fs, i);
      const char *at = strstr(x->fix, "--bloom rowprefix:");
      if (strcmp(x->code, "rowprefix-bloom")) continue;
      CHECK_EQ_INT(x->severity, HFG_SEV_INFO);
      n = at ? strtol(at + 18, NULL, 10) : -2;
      snprintf(msg, cap, "%s", x->message);
      char want[96];
      snprintf(want, sizeof want, "'RowPrefixBloomFilter.prefix_length' => '%ld'", n);
      CHECK(strstr(x->fix, want) != NULL);
      CHECK(strstr(x->why, "scan") != NULL); /* says when it helps */
    }
  } else {
    n = -3;
  }
  hfg_findings_free(fs);
  hfg_lint_free(l);
  hfg_scheme_free(s);
  return n;
}

TEST(lint_rowprefix_bloom) {
  static const struct {
    const char *tmpl;
    long n;
    const char *shown; /* in the message: the prefix's template text */
  } cases[] = {
      {"{id % 10}|{id}", 2, "{id % 10}|"},                  /* salt bucket and separator */
      {"{id % 100 :02}|{id}", 3, "{id % 100 :02}|"},        /* zero-padded bucket */
      {"{hex(md5(userId), 4)}|{userId}", 5, "{hex(md5(userId), 4)}|"}, /* hash prefix */
      {"{hex(md5(u), 6)}{u}", 6, "{hex(md5(u), 6)}"},       /* no separator: the hash alone */
      {"bucket-range:userId:16:ts:eventId", 3, "{murmur3(userId) % 16 :02}_"},
      {"{phoenix_salt(8)}{id}", 1, "{phoenix_salt(8)}"},    /* Phoenix's salt byte */
      {"t|{id % 10 :02}||{id}", 6, "t|{id % 10 :02}||"},    /* literals around it count */
      /* no fixed-width prefix */
      {"{id % 16}|{id}", 0, NULL},                          /* '3|' and '12|' */
      {"{id % 100}|{id}", 0, NULL},
      {"{id}|{id % 10}", 0, NULL},                          /* the bucket is not first */
      {"{user}|{hex(md5(user), 4)}", 0, NULL},
      {"{day(ts)}_{murmur3(d) % 8}_{ts}", 0, NULL},         /* a time bucket first */
      {"{hex(md5(u), 4)}|", 0, NULL},                       /* the prefix is the whole key */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char msg[512] = "";
    long n = lint_rowprefix(cases[i].tmpl, msg, sizeof msg);
    if (n != cases[i].n) fprintf(stderr, "  %s: rowprefix %ld, want %ld\n", cases[i].tmpl, n,
                                 cases[i].n);
    CHECK_EQ_INT(n, cases[i].n);
    if (cases[i].shown) CHECK(strstr(msg, cases[i].shown) != NULL);
  }
}

/* Every allocation of the tools failing in turn: HFG_ENOMEM, nothing leaks
 * (the sanitizer build checks leaks). */
TEST(tools_alloc_failures) {
  hfg_scheme *s = compile("{day(ts)}_{murmur3(deviceId) % 8}_{ts}_{deviceId}");
  hfg_scheme *b = compile("{hex(md5(u), 4)}|{u}|{e}");
  REQUIRE(s && b);
  int done_ranges = 0, done_splits = 0, done_lint = 0;
  for (long n = 1; n < 400 && !(done_ranges && done_splits && done_lint); n++) {
    char err[256];
    hfg_keylist *l = NULL;
    hfg_fault_alloc_arm(n);
    hfg_scan_info info;
    int rc = hfg_scheme_scan_ranges(s, "ts", (hfg_field){"1720695600000", 13, 0},
                                    (hfg_field){"1720746000000", 13, 0}, 0, NULL, 0, 100, &l, &info,
                                    err, sizeof err);
    if (!hfg_fault_alloc_fired()) {
      done_ranges = 1;
      CHECK_EQ_INT(rc, 0);
    } else {
      CHECK_EQ_INT(rc, HFG_ENOMEM);
    }
    hfg_keylist_free(l);
    l = NULL;
    hfg_findings *w = NULL;
    hfg_fault_alloc_arm(n);
    rc = hfg_splits_compute(b, HFG_SPLIT_SCHEME, 7, &l, &w, err, sizeof err);
    if (!hfg_fault_alloc_fired()) {
      done_splits = 1;
      CHECK_EQ_INT(rc, 0);
    } else {
      CHECK(rc == HFG_ENOMEM && !l);
    }
    hfg_keylist_free(l);
    hfg_findings_free(w);
    hfg_lint *lt = NULL;
    hfg_findings *fs = NULL;
    hfg_fault_alloc_arm(n);
    rc = hfg_lint_new(b, 10, &lt);
    for (int r = 0; !rc && r < 3; r++) {
      hfg_field f[2] = {{r == 1 ? "a|b" : "a", r == 1 ? 3u : 1u, 0}, {"e", 1, 0}};
      rc = hfg_lint_add(lt, f, 2);
    }
    if (!rc) rc = hfg_lint_finish(lt, &fs);
    if (!hfg_fault_alloc_fired()) {
      done_lint = 1;
      CHECK_EQ_INT(rc, 0);
    } else {
      CHECK_EQ_INT(rc, HFG_ENOMEM);
    }
    hfg_fault_alloc_arm(0);
    hfg_findings_free(fs);
    hfg_lint_free(lt);
  }
  CHECK(done_ranges && done_splits && done_lint);
  hfg_scheme_free(s);
  hfg_scheme_free(b);
}

T_MAIN
