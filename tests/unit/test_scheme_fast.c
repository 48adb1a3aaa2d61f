/* The evaluator's shortcut (src/scheme/eval.c fast_part: literals as one
 * 8-byte store, `{col}`, `{col % N}` with the word parse of 1..8 digits, the
 * 32-bit division and the one-digit result) against the general path of the
 * same template: a second copy compiled with the shortcut switched off (every
 * expression part FK_NONE, so eval_node renders it). Both must give the same
 * status, key and message for every value (all lengths, signs, INT64_MIN/MAX
 * and one past, non-digits at every position, empty, missing, no value) and
 * every key capacity from 0 to past the key. */
#include "hfilegen/scheme.h"
#include "scheme/scheme_internal.h"
#include "t.h"
#include "util/alloc.h"

static const char *const TEMPLATES[] = {
    "{id % 10}|{id}",
    "{id % 10 :01}{id}",
    "{id % 10 :02}-{id}",
    "{id % 1}",
    "{id % 2}{id % 9}{id % 11}",
    "{id % 7 :03}|{id}",
    "{id % 16 :02}_{id :12}",
    "{id % 4294967295}-{id % 4294967296}/{id % 4294967297}",
    "{id % 9223372036854775807}",
    "{id % 100000000 :08}",
    "x{id}abcdefgh{id % 3}abcdefghi",
    "12345678{id}1234567",
    "{id}",
    "{id :20}",
    "a|b{v}{id % 2}",
    "{v % 10}|{id}|{v}",
    "{v % 1000 :04}{v}",
    "{id % 10}abcdefghi{id}",
    "{id % 10}|{id :3}",
    "{id % 3}",
    "{v % 10}|{id}",
    "{v % 16 :02}#{id}",
};

static const char *const FIXED[] = {
    "", "0", "-0", "1", "-1", "9", "10", "-10", "99999999", "100000000", "-99999999",
    "4294967295", "4294967296", "-4294967296", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "-9223372036854775809", "00000000", "0000000000000000001",
    "000000000000000000000000001", "+1", " 1", "1 ", "x", "-", "--1", "1-", "12345678x",
    "1234x678", "/", ":", "123:", "12/4", "\xff", "0x10", "1e5", "18446744073709551616", "1",
};

/* The same template with the shortcut off: the general path renders every
 * expression part (literal parts keep their copy, as the evaluator's). */
static hfg_scheme *general(const char *tmpl, const char *const *cols, size_t ncols) {
  hfg_scheme *s;
  char err[256];
  if (hfg_scheme_compile(tmpl, cols, ncols, &s, err, sizeof err)) return NULL;
  hfg_free(s->fops);
  s->fops = NULL;
  s->fops_salt = 0;
  for (size_t i = 0; i < s->nparts; i++)
    if (s->parts[i].root >= 0) s->parts[i].fkind = FK_NONE;
  return s;
}

static uint64_t seed = 7;
static uint64_t rnd(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return seed >> 11;
}

/* A value: a fixed one, or a number of 1..20 digits (maybe negative), maybe
 * with one byte at a random position replaced by a non-digit. */
static size_t make_value(int i, char *buf) {
  int nfixed = (int)(sizeof FIXED / sizeof *FIXED);
  if (i < nfixed) {
    size_t n = strlen(FIXED[i]);
    memcpy(buf, FIXED[i], n + 1);
    if (i == nfixed - 1) { /* "1" and a NUL byte */
      buf[n++] = '\0';
      buf[n] = '\0';
    }
    return n;
  }
  size_t n = 0, digits = i % 16 == 0 ? 80 + rnd() % 60 : 1 + rnd() % 20; /* some past 96 bytes */
  if (rnd() % 3 == 0) buf[n++] = '-';
  for (size_t k = 0; k < digits; k++) buf[n++] = (char)('0' + rnd() % 10);
  if (rnd() % 4 == 0) {
    static const char bad[] = {'/', ':', ' ', 'a', '-', '+', '\x30' + 0x40, '\xb9', '\x00'};
    buf[rnd() % n] = bad[rnd() % sizeof bad];
  }
  buf[n] = '\0';
  return n;
}

static int same(const hfg_scheme *fast, const hfg_scheme *slow, const hfg_field *f, size_t nf,
                size_t cap, const char *tmpl) {
  uint8_t k1[600], k2[600];
  char e1[256] = "", e2[256] = "";
  size_t l1 = 0, l2 = 0;
  memset(k1, 0xaa, sizeof k1);
  int r1 = hfg_scheme_eval(fast, f, nf, k1, cap, &l1, e1, sizeof e1);
  int r2 = hfg_scheme_eval(slow, f, nf, k2, cap, &l2, e2, sizeof e2);
  int ok = r1 == r2 && (r1 ? !strcmp(e1, e2) : l1 == l2 && l1 <= cap && !memcmp(k1, k2, l1));
  for (size_t k = cap; k < sizeof k1; k++) ok &= k1[k] == 0xaa; /* nothing past cap */
  if (!ok) {
    fprintf(stderr, "  %s cap %zu, id '%.*s': %d '%.*s' (%s) vs %d '%.*s' (%s)\n", tmpl, cap,
            nf && f[0].p ? (int)f[0].len : 0, nf && f[0].p ? f[0].p : "", r1, (int)l1,
            (const char *)k1, e1, r2, (int)l2, (const char *)k2, e2);
    t_failed_now = 1;
  }
  return ok;
}

TEST(shortcut_matches_general_path) {
  const char *cols[] = {"id", "v"};
  for (size_t t = 0; t < sizeof TEMPLATES / sizeof *TEMPLATES; t++) {
    hfg_scheme *fast, *slow = general(TEMPLATES[t], cols, 2);
    char err[256];
    REQUIRE(slow != NULL);
    REQUIRE(hfg_scheme_compile(TEMPLATES[t], cols, 2, &fast, err, sizeof err) == 0);
    CHECK(fast->fops != NULL);
    int fails = 0;
    for (int i = 0; i < 3000 && fails < 3; i++) {
      char a[160], b[160];
      size_t na = make_value(i, a), nb = make_value((i * 7 + 1) % 3000, b);
      hfg_field f[2] = {{a, na, 0}, {b, nb, 0}};
      size_t full = 0;
      uint8_t key[600];
      char em[256];
      hfg_scheme_eval(slow, f, 2, key, sizeof key, &full, em, sizeof em);
      size_t top = i < 200 ? full + 10 : full + 1;
      for (size_t cap = i < 200 ? 0 : full; cap <= top; cap++)
        fails += !same(fast, slow, f, 2, cap, TEMPLATES[t]);
      fails += !same(fast, slow, f, 2, 512, TEMPLATES[t]);
    }
    /* a missing column, a field without bytes (no value), NULL with len 0 (empty) */
    hfg_field f[2] = {{"5", 1, 0}, {"6", 1, 0}};
    same(fast, slow, f, 1, 512, TEMPLATES[t]);
    same(fast, slow, f, 0, 512, TEMPLATES[t]);
    f[0] = (hfg_field){NULL, 3, 0};
    same(fast, slow, f, 2, 512, TEMPLATES[t]);
    f[0] = (hfg_field){NULL, 0, 0};
    same(fast, slow, f, 2, 512, TEMPLATES[t]);
    f[0] = (hfg_field){"", 0, 1};
    same(fast, slow, f, 2, 512, TEMPLATES[t]);
    hfg_scheme_free(fast);
    hfg_scheme_free(slow);
  }
}

/* {id % N} against a parse and floor modulo written out here: optional '-',
 * one or more digits, within int64; anything else is not an integer. The
 * general path shares the word parse, so this is what checks it. */
static int ref_mod(const char *v, size_t n, int64_t m, char *out) {
  size_t i = n && v[0] == '-';
  if (i == n) return -1;
  uint64_t x = 0, lim = i ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < n; i++) {
    if (v[i] < '0' || v[i] > '9') return -1;
    if (x > (lim - (uint64_t)(v[i] - '0')) / 10) return -1;
    x = x * 10 + (uint64_t)(v[i] - '0');
  }
  int64_t r;
  if (v[0] == '-') {
    uint64_t q = x % (uint64_t)m;
    r = q ? m - (int64_t)q : 0;
  } else {
    r = (int64_t)(x % (uint64_t)m);
  }
  return sprintf(out, "%lld", (long long)r);
}

TEST(mod_matches_a_written_out_parse) {
  const char *cols[] = {"id"};
  static const int64_t mods[] = {1, 2, 7, 10, 16, 1000, 4294967295, 4294967296, 4294967297,
                                 INT64_MAX};
  for (size_t t = 0; t < sizeof mods / sizeof *mods; t++) {
    char tmpl[64], err[256];
    snprintf(tmpl, sizeof tmpl, "{id %% %lld}|{id}", (long long)mods[t]);
    hfg_scheme *s;
    REQUIRE(hfg_scheme_compile(tmpl, cols, 1, &s, err, sizeof err) == 0);
    for (int i = 0; i < 20000; i++) {
      char v[160], want[200];
      size_t n = make_value(i % 3000 == 0 ? 0 : i, v);
      int k = ref_mod(v, n, mods[t], want);
      if (k >= 0) {
        want[k++] = '|';
        memcpy(want + k, v, n);
        k += (int)n;
      }
      hfg_field f = {v, n, 0};
      uint8_t key[600];
      size_t len = 0;
      int rc = hfg_scheme_eval(s, &f, 1, key, sizeof key, &len, err, sizeof err);
      if (k < 0 ? rc != HFG_EPARSE : rc != 0 || len != (size_t)k || memcmp(key, want, len)) {
        fprintf(stderr, "  %s, id '%s': rc %d '%.*s', want %s\n", tmpl, v, rc, (int)len,
                (const char *)key, k < 0 ? "not an integer" : want);
        t_failed_now = 1;
        break;
      }
    }
    hfg_scheme_free(s);
  }
}

/* The word parse reads no byte past the value: the value at the very end of
 * an exact-size heap block (ASan reports a read past it). */
TEST(shortcut_reads_only_the_value) {
  const char *cols[] = {"id"};
  hfg_scheme *s;
  char err[256];
  REQUIRE(hfg_scheme_compile("{id % 10}|{id}", cols, 1, &s, err, sizeof err) == 0);
  for (size_t n = 1; n <= 12; n++) {
    char *v = malloc(n);
    REQUIRE(v != NULL);
    memset(v, '7', n);
    hfg_field f = {v, n, 0};
    uint8_t key[64];
    size_t len = 0;
    CHECK_EQ_INT(hfg_scheme_eval(s, &f, 1, key, sizeof key, &len, err, sizeof err), 0);
    CHECK(len == n + 2 && key[0] == '7' && key[1] == '|');
    free(v);
  }
  hfg_scheme_free(s);
}

/* Templates the shortcut does not take go the general way whole; the salt
 * presets' shape ({a % N}, a literal of <= 8 bytes, {b}) takes the straight
 * line (fast_salt), others of literals, {col} and {col % N} the ops. */
TEST(shortcut_only_for_its_shapes) {
  const char *cols[] = {"id", "v"};
  static const char *const salt[] = {"{id % 10}|{id}", "{id % 7 :03}|{id}", "{v % 10}|{id}",
                                     "{id % 100 :02}12345678{id}"};
  static const char *const ops[] = {"{id}", "{id % 10}{id}", "x{id % 3}|{id}",
                                    "{id % 10}abcdefghi{id}", "{id % 10}|{id :3}",
                                    "{id % 10}|{id}|"};
  for (size_t t = 0; t < sizeof salt / sizeof *salt; t++) {
    hfg_scheme *s;
    char err[256];
    REQUIRE(hfg_scheme_compile(salt[t], cols, 2, &s, err, sizeof err) == 0);
    CHECK(s->fops != NULL && s->fops_salt == 1);
    hfg_scheme_free(s);
  }
  for (size_t t = 0; t < sizeof ops / sizeof *ops; t++) {
    hfg_scheme *s;
    char err[256];
    REQUIRE(hfg_scheme_compile(ops[t], cols, 2, &s, err, sizeof err) == 0);
    CHECK(s->fops != NULL && s->fops_salt == 0);
    hfg_scheme_free(s);
  }
  static const char *const other[] = {"{phoenix_salt(4)}{id}", "{md5(id) % 16}|{id}",
                                      "{reverse(id)}", "{'x'}{id}", "{id % 10}{lpad(id, 9)}"};
  for (size_t t = 0; t < sizeof other / sizeof *other; t++) {
    hfg_scheme *s;
    char err[256];
    REQUIRE(hfg_scheme_compile(other[t], cols, 2, &s, err, sizeof err) == 0);
    CHECK(s->fops == NULL);
    hfg_scheme_free(s);
  }
}

T_MAIN
