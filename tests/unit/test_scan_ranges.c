/* Scan ranges against a brute-force oracle: for templates of every range-part
 * kind and ranges of every shape, the keys of a universe of values are
 * checked against the ranges: every key of a value in the range must be in a
 * range (always), no key outside it may be (when the result says exact), and
 * no key is in two ranges. Plus the cases of issue #11: `{id % 10}|{id}`
 * with 100..200 (a superset: 1000 sorts inside), 5..10 compared as numbers,
 * the padded alternative and the filter. */
#include "hfilegen/scheme.h"
#include "t.h"
#include "util/alloc.h"

static hfg_scheme *compile(const char *tmpl) {
  hfg_scheme *s = NULL;
  char err[256];
  if (hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) fprintf(stderr, "  %s: %s\n", tmpl, err);
  return s;
}

static int cmp_key(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t n = an < bn ? an : bn;
  int c = n ? memcmp(a, b, n) : 0;
  return c ? c : (an > bn) - (an < bn);
}

/* How many ranges of l hold key. */
static int ranges_holding(const hfg_keylist *l, const uint8_t *key, size_t len) {
  int n = 0;
  for (size_t i = 0; i + 1 < hfg_keylist_count(l); i += 2) {
    size_t sl, tl;
    const uint8_t *st = hfg_keylist_get(l, i, &sl), *sp = hfg_keylist_get(l, i + 1, &tl);
    if (cmp_key(key, len, st, sl) >= 0 && (tl == 0 || cmp_key(key, len, sp, tl) < 0)) n++;
  }
  return n;
}

/* The key of one record {range field = v, other = ov}; 0 when the template
 * cannot key it (build would reject the record). */
static int key_of(const hfg_scheme *s, const char *field, const char *v, const char *other,
                  const char *ov, uint8_t **key, size_t *len) {
  hfg_named_value nv[2] = {{field, {v, strlen(v), 0}}, {other, {ov, strlen(ov), 0}}};
  size_t n = hfg_scheme_column_index(s, other) >= 0 ? 2 : 1;
  char err[256];
  return hfg_scheme_key(s, nv, n, key, len, err, sizeof err) == 0;
}

typedef struct oracle_stats {
  int queries, exact, superset, keys_checked;
} oracle_stats;

/* One query against the universe: values[i] is in the range iff inr[i]. */
static void check_query(const char *tmpl, const char *field, const char *other, const char *ov,
                        const char *from, const char *to, int incl, const char *const *values,
                        const int *inr, size_t nvalues, oracle_stats *st) {
  hfg_scheme *s = compile(tmpl);
  REQUIRE(s);
  hfg_named_value fixed = {other, {ov, strlen(ov), 0}};
  size_t nfixed = hfg_scheme_column_index(s, other) >= 0 ? 1 : 0;
  hfg_keylist *l = NULL;
  hfg_scan_info info;
  char err[512];
  int rc = hfg_scheme_scan_ranges(s, field, (hfg_field){from, strlen(from), 0}, (hfg_field){to, strlen(to), 0},
                                  incl, &fixed, nfixed, 100000, &l, &info, err, sizeof err);
  if (rc) {
    fprintf(stderr, "  %s %s..%s%s: %s\n", tmpl, from, to, incl ? "]" : ")", err);
    t_failed_now = 1;
    hfg_scheme_free(s);
    return;
  }
  st->queries++;
  if (info.exact) st->exact++;
  else st->superset++;
  for (size_t i = 0; i < nvalues; i++) {
    uint8_t *k = NULL;
    size_t len = 0;
    if (!key_of(s, field, values[i], other, ov, &k, &len)) continue;
    int held = ranges_holding(l, k, len);
    st->keys_checked++;
    if (held > 1 || (inr[i] && !held) || (info.exact && held && !inr[i])) {
      fprintf(stderr, "  %s %s..%s%s (%s): value %s is %s the range but in %d ranges\n", tmpl, from,
              to, incl ? "]" : ")", info.exact ? "exact" : "superset", values[i],
              inr[i] ? "in" : "outside", held);
      t_failed_now = 1;
    }
    hfg_scheme_buf_free(k);
  }
  hfg_keylist_free(l);
  hfg_scheme_free(s);
}

/* Integers 0..2600, around powers of ten, and negatives. */
static size_t int_universe(char (*buf)[24], int64_t *vals, size_t cap) {
  size_t n = 0;
  static const int64_t extra[] = {9999, 10000, 10001, 10050, 19999, 20000, 99995, 99999, 100000,
                                  100001, 100005, 123456, 123457, 999999, 1000000, 1234567,
                                  9999999, 10000000, 2000000000, 9999999999LL, 10000000000LL};
  for (int64_t v = -130; v <= 2600 && n < cap; v++) vals[n++] = v;
  for (size_t i = 0; i < sizeof extra / sizeof extra[0] && n < cap; i++) vals[n++] = extra[i];
  for (size_t i = 0; i < n; i++) snprintf(buf[i], sizeof buf[i], "%lld", (long long)vals[i]);
  return n;
}

TEST(integer_ranges_against_oracle) {
  static char buf[3000][24];
  static int64_t vals[3000];
  static const char *vp[3000];
  static int inr[3000];
  size_t n = int_universe(buf, vals, 3000);
  for (size_t i = 0; i < n; i++) vp[i] = buf[i];
  static const char *const T[] = {
      "{id % 10}|{id}",  "{id % 10}|{id :010}", "{id :04}|{u}",    "{u}|{id}",
      "{u}|{id}|x",      "{id}",                "{desc(id)}|{u}",  "{u}_{long(id)}",
      "{int(id)}",       "{lpad(id, 8)}|{u}",   "{id % 4}{id :06}", "{lpad(id, 8, ' ')}",
      "{lpad(id, 8, 'x')}|{u}", "{id :02}",
  };
  static const struct {
    int64_t from, to;
    int incl;
  } Q[] = {{100, 200, 0}, {100, 200, 1}, {5, 10, 0},     {0, 9, 1},        {0, 0, 1},
           {99995, 100005, 0}, {-50, 30, 0}, {-120, -3, 1}, {1, 2500, 0},  {10, 99, 1},
           {123456, 123457, 1}, {2000, 2001, 0}, {0, 100, 0}, {-1, 0, 0}, {7, 7, 1}};
  oracle_stats st = {0, 0, 0, 0};
  for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
    for (size_t q = 0; q < sizeof Q / sizeof Q[0]; q++) {
      if (strstr(T[t], "desc") && Q[q].from < 0) continue; /* desc() has no negative values */
      char from[24], to[24];
      snprintf(from, sizeof from, "%lld", (long long)Q[q].from);
      snprintf(to, sizeof to, "%lld", (long long)Q[q].to);
      for (size_t i = 0; i < n; i++)
        inr[i] = vals[i] >= Q[q].from && (Q[q].incl ? vals[i] <= Q[q].to : vals[i] < Q[q].to);
      check_query(T[t], "id", "u", "k", from, to, Q[q].incl, vp, inr, n, &st);
    }
  }
  fprintf(stderr, "  %d queries (%d exact, %d superset), %d keys checked\n", st.queries, st.exact,
          st.superset, st.keys_checked);
  CHECK(st.exact > 40 && st.superset > 40);
}

/* Buckets not given are enumerated, each rendered as build writes it: with a
 * `:0W` pad a hex bucket's ranges once lacked its zeros and held no row. */
TEST(enumerated_buckets_hold_the_built_keys) {
  static const char *const T[] = {
      "{hex(md5(u), 2) :04}|{id :08}", "{hex(md5(u), 2)}|{id :08}",
      "{upper(hex(crc32(u), 1)) :03}|{id :05}", "{crc32(u) % 16 :03}|{id :08}",
      "{murmur3(u) % 100 :02}|{id :06}", "k{hex(xxhash64(u), 1) :02}{id :04}",
  };
  for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
    hfg_scheme *s = compile(T[t]);
    REQUIRE(s);
    hfg_keylist *l = NULL;
    hfg_scan_info info;
    char err[512];
    REQUIRE(hfg_scheme_scan_ranges(s, "id", (hfg_field){"3", 1, 0}, (hfg_field){"9", 1, 0}, 0, NULL,
                                   0, 100000, &l, &info, err, sizeof err) == 0);
    CHECK(info.exact);
    int held_ok = 0;
    for (int ui = 0; ui < 60; ui++) {
      for (int id = 0; id < 12; id++) {
        char u[16], v[8];
        snprintf(u, sizeof u, "user%d", ui);
        snprintf(v, sizeof v, "%d", id);
        uint8_t *k = NULL;
        size_t len = 0;
        REQUIRE(key_of(s, "id", v, "u", u, &k, &len));
        int held = ranges_holding(l, k, len), want = id >= 3 && id < 9;
        if (held != want) {
          fprintf(stderr, "  %s: u=%s id=%d in %d ranges, want %d\n", T[t], u, id, held, want);
          t_failed_now = 1;
        }
        held_ok += held == want;
        hfg_scheme_buf_free(k);
      }
    }
    CHECK_EQ_INT(held_ok, 60 * 12);
    hfg_keylist_free(l);
    hfg_scheme_free(s);
  }
}

TEST(string_ranges_against_oracle) {
  static const char *const V[] = {"", "a", "a0", "ab", "ab|", "ab0", "abc", "abcd", "abd", "ac",
                                  "b", "b|", "ba", "bb", "c", "zz", "~", "a\x7f"};
  size_t n = sizeof V / sizeof V[0];
  int inr[32];
  static const char *const T[] = {"{u}", "{u}|{id}", "x{u}\\x00{id}", "{lpad(u, 4)}|{id}",
                                  "{u :04}", "{id % 10}|{u}"};
  static const struct {
    const char *from, *to;
    int incl;
  } Q[] = {{"ab", "b", 0}, {"ab", "b", 1}, {"a", "abc", 0}, {"abc", "abc", 1},
           {"b", "ba", 1}, {"a0", "ab", 0}, {"ab", "abd", 1}, {"", "a", 1}};
  oracle_stats st = {0, 0, 0, 0};
  for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
    for (size_t q = 0; q < sizeof Q / sizeof Q[0]; q++) {
      for (size_t i = 0; i < n; i++) {
        int lo = strcmp(V[i], Q[q].from), hi = strcmp(V[i], Q[q].to);
        inr[i] = lo >= 0 && (Q[q].incl ? hi <= 0 : hi < 0);
      }
      check_query(T[t], "u", "id", "7", Q[q].from, Q[q].to, Q[q].incl, V, inr, n, &st);
    }
  }
  fprintf(stderr, "  %d queries (%d exact, %d superset), %d keys checked\n", st.queries, st.exact,
          st.superset, st.keys_checked);
  CHECK(st.exact >= 16 && st.superset >= 16);
}

static int query(const char *tmpl, const char *field, const char *from, const char *to, int incl,
                 const char *fixed_kv, hfg_scan_info *info, char *out, size_t cap) {
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
  int rc = hfg_scheme_scan_ranges(s, field, (hfg_field){from, strlen(from), 0}, (hfg_field){to, strlen(to), 0},
                                  incl, fv, nf, 1000, &l, info, err, sizeof err);
  size_t o = 0;
  out[0] = '\0';
  if (rc) snprintf(out, cap, "%s", err);
  for (size_t i = 0; !rc && i < hfg_keylist_count(l); i++) {
    size_t len;
    const uint8_t *k = hfg_keylist_get(l, i, &len);
    if (i && o + 1 < cap) out[o++] = ',';
    for (size_t j = 0; j < len && o + 5 < cap; j++)
      o += (size_t)(k[j] >= 0x20 && k[j] < 0x7f ? snprintf(out + o, cap - o, "%c", k[j])
                                                 : snprintf(out + o, cap - o, "\\x%02x", k[j]));
    out[o] = '\0';
  }
  hfg_keylist_free(l);
  hfg_scheme_free(s);
  return rc;
}

/* Issue #11: the README's own template. */
TEST(salted_decimal_is_a_superset) {
  hfg_scan_info in;
  static char out[8192];
  REQUIRE(query("{id % 10}|{id}", "id", "100", "200", 0, NULL, &in, out, sizeof out) == 0);
  CHECK(!in.exact);
  CHECK(!strncmp(out, "0|100,0|200,1|100,1|200,", 24)); /* the byte ranges themselves are as before */
  CHECK(strstr(in.reason, "template position 11: {id} writes numbers in decimal without a fixed width") != NULL);
  CHECK(strstr(in.reason, "the key of 1000 begins with the key of 100") != NULL);
  CHECK(!strcmp(in.filter, "100 <= id < 200 (as integers)"));
  CHECK(!strcmp(in.padded, "{id % 10}|{id :010}"));
  CHECK(in.numeric && in.gets && in.first == 100 && in.last == 199 && in.values == 100);
  /* the padded template is exact, same range count */
  REQUIRE(query("{id % 10}|{id :010}", "id", "100", "200", 0, NULL, &in, out, sizeof out) == 0);
  CHECK(in.exact);
  CHECK(!strncmp(out, "0|0000000100,0|0000000200,", 26));
  /* without info a superset is refused, naming why */
  REQUIRE(query("{id % 10}|{id}", "id", "100", "200", 0, NULL, NULL, out, sizeof out) == HFG_EINVAL);
  CHECK(strstr(out, "not be exact") != NULL);
  REQUIRE(query("{id % 10}|{id :010}", "id", "100", "200", 0, NULL, NULL, out, sizeof out) == 0);
}

/* Issue #11: 5..10 on created_at was "empty" (compared as strings). */
TEST(numbers_compare_as_numbers) {
  hfg_scan_info in;
  static char out[8192];
  const char *T = "{murmur3(user_id) % 16 :02}_{created_at}_{id}";
  REQUIRE(query(T, "created_at", "5", "10", 0, "user_id=u1", &in, out, sizeof out) == 0);
  CHECK(!in.exact && in.numeric && in.values == 5);
  CHECK(!in.gets); /* id is not given: no point gets */
  char b[3];
  memcpy(b, out, 2);
  b[2] = '\0';
  char want[64];
  snprintf(want, sizeof want, "%s_5,%s_:", b, b); /* 5..9: one digit */
  CHECK(!strcmp(out, want));
  /* 5..150: one interval per width (5-9, 10-99, 100-150), which overlap as bytes: merged */
  REQUIRE(query(T, "created_at", "5", "150", 1, "user_id=u1", &in, out, sizeof out) == 0);
  snprintf(want, sizeof want, "%s_10,%s_:", b, b);
  CHECK(!strcmp(out, want));
  /* reversed is an error, not an empty result */
  CHECK_EQ_INT(query(T, "created_at", "10", "5", 0, "user_id=u1", &in, out, sizeof out), HFG_EINVAL);
  CHECK(strstr(out, "--from 10 is after --to 5 (compared as integers)") != NULL);
  CHECK_EQ_INT(query(T, "created_at", "7", "7", 0, "user_id=u1", &in, out, sizeof out), HFG_EINVAL);
  CHECK(strstr(out, "--to is exclusive") != NULL);
  REQUIRE(query(T, "created_at", "7", "7", 1, "user_id=u1", &in, out, sizeof out) == 0);
  /* leading zeros: text, compared as bytes */
  REQUIRE(query("{u}|{zip}|{id}", "zip", "01000", "02000", 0, "u=a", &in, out, sizeof out) == 0);
  CHECK(!in.numeric && !in.exact);
  CHECK(!strcmp(out, "a|01000,a|03")); /* "02" < "02000" is in the range, and "02|..." with it */
  CHECK(!strcmp(in.filter, "01000 <= zip < 02000 (compared as byte strings)"));
  CHECK(!strcmp(in.padded, "{u}|{zip}\\x00|{id}"));
  /* text that ends the key is exact */
  REQUIRE(query("{u}|{zip}", "zip", "01000", "02000", 0, "u=a", &in, out, sizeof out) == 0);
  CHECK(in.exact && !strcmp(out, "a|01000,a|02000"));
}

TEST(exact_kinds) {
  hfg_scan_info in;
  static char out[8192];
  /* long() across 0: the negatives sort last, two exact ranges */
  REQUIRE(query("{long(id)}", "id", "-2", "3", 0, NULL, &in, out, sizeof out) == 0);
  CHECK(in.exact);
  CHECK(!strcmp(out, "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00,\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03,"
                     "\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe,"));
  /* all negative, exclusive to = 0 (was "empty": 0xff.. > 0x00..) */
  REQUIRE(query("{long(id)}", "id", "-2", "0", 0, NULL, &in, out, sizeof out) == 0);
  CHECK(in.exact && !strcmp(out, "\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe,"));
  /* text that ends the key: inclusive stops right after `to`, not after every key starting with it */
  REQUIRE(query("{u}|{name}", "name", "ab", "ab", 1, "u=x", &in, out, sizeof out) == 0);
  CHECK(in.exact && !strcmp(out, "x|ab,x|ab\\x00"));
  /* desc: unchanged */
  REQUIRE(query("{u}|{desc(ts)}", "ts", "1000", "2000", 0, "u=a", &in, out, sizeof out) == 0);
  CHECK(in.exact && !strcmp(out, "a|9223372036854773808,a|9223372036854774808"));
  /* millis() of a datetime: decimal, a superset with a time filter */
  REQUIRE(query("{millis(t, 'yyyy-MM-dd')}|{u}", "t", "2024-07-11", "2024-07-12", 0, NULL, &in, out,
                sizeof out) == 0);
  CHECK(!in.exact && !strcmp(out, "1720656000000,1720742400000"));
  CHECK(strstr(in.filter, "as times in the format 'yyyy-MM-dd'") != NULL);
  CHECK(!strcmp(in.padded, "{millis(t, 'yyyy-MM-dd') :014}|{u}"));
  CHECK(!in.gets);
  /* negatives in decimal: the alternative is long() */
  REQUIRE(query("{id}|{u}", "id", "-5", "5", 0, NULL, &in, out, sizeof out) == 0);
  CHECK(!in.exact && !strcmp(in.padded, "{long(id)}|{u}"));
  CHECK(strstr(in.reason, "negative numbers sort as text") != NULL);
}

T_MAIN
