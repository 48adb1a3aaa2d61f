/* Column names in templates (src/scheme/names.c): quoted names, byte for
 * byte with the quote doubled, round-trip through hfg_scheme_quote_name for
 * any name; the advice for a name written bare; old-key patterns read the
 * same quotes; out of memory anywhere in a quoted template is HFG_ENOMEM. */
#include <string.h>

#include "hfilegen/keyparse.h"
#include "hfilegen/scheme.h"
#include "t.h"
#include "util/alloc.h"

/* {<name as hfg_scheme_quote_name writes it>} keys a record by that column,
 * compiled with and without the input's columns. */
static int roundtrip(const char *name) {
  char q[600], tmpl[700], err[512];
  hfg_scheme_quote_name(name, q, sizeof q);
  snprintf(tmpl, sizeof tmpl, "{%s}|{id}", q);
  hfg_scheme *s = NULL;
  if (hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) {
    fprintf(stderr, "  %s: %s\n", tmpl, err);
    return 0;
  }
  int ok = hfg_scheme_column_count(s) == 2 && !strcmp(hfg_scheme_column_name(s, 0), name);
  hfg_scheme_free(s);
  const char *cols[] = {"id", name};
  if (hfg_scheme_compile(tmpl, cols, 2, &s, err, sizeof err)) {
    fprintf(stderr, "  %s against its columns: %s\n", tmpl, err);
    return 0;
  }
  hfg_field f[2] = {{"7", 1, 0}, {"v", 1, 0}};
  uint8_t key[16];
  size_t len = 0;
  ok &= hfg_scheme_eval(s, f, 2, key, sizeof key, &len, err, sizeof err) == 0 && len == 3 &&
        !memcmp(key, "v|7", 3);
  hfg_scheme_free(s);
  if (!ok) fprintf(stderr, "  %s: not the column '%s'\n", tmpl, name);
  return ok;
}

TEST(quote_name) {
  char b[64];
  CHECK(!strcmp(hfg_scheme_quote_name("user_id", b, sizeof b), "user_id"));
  CHECK(!strcmp(hfg_scheme_quote_name("a.b-c", b, sizeof b), "a.b-c"));
  CHECK(!strcmp(hfg_scheme_quote_name("Order Id", b, sizeof b), "\"Order Id\""));
  CHECK(!strcmp(hfg_scheme_quote_name("say \"hi\"", b, sizeof b), "\"say \"\"hi\"\"\""));
  CHECK(!strcmp(hfg_scheme_quote_name("2nd", b, sizeof b), "\"2nd\""));
  CHECK(!strcmp(hfg_scheme_quote_name("", b, sizeof b), "\"\""));
  CHECK(!strcmp(hfg_scheme_quote_name("Order Id", b, 6), "\"Ord\"")); /* cut, still quoted */
}

TEST(quoted_names_roundtrip) {
  static const char *const names[] = {"Order Id", "say \"hi\"", "a`b", "\"", "\"\"x", "2nd",
                                      "Stra\xc3\x9f" "e", "{x}", "a}b", "x % 4", "md5(id)",
                                      "it's", "back\\slash", " lead", "trail ", "-", "a,b"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) CHECK(roundtrip(names[i]));
  uint64_t r = 29;
  for (int k = 0; k < 300; k++) { /* random printable names */
    char n[12];
    size_t len = 1 + t_rand(&r) % 10;
    for (size_t j = 0; j < len; j++) n[j] = (char)(0x20 + t_rand(&r) % 95);
    n[len] = '\0';
    if (!strcmp(n, "id")) continue;
    CHECK(roundtrip(n));
  }
}

TEST(back_quotes_double_too) {
  hfg_scheme *s = NULL;
  char err[256];
  REQUIRE(hfg_scheme_compile("{`a``b`}{``}", NULL, 0, &s, err, sizeof err) == 0);
  CHECK(!strcmp(hfg_scheme_column_name(s, 0), "a`b"));
  CHECK(!strcmp(hfg_scheme_column_name(s, 1), "")); /* a header column without a name */
  hfg_scheme_free(s);
  CHECK(hfg_scheme_compile("{\"a}", NULL, 0, &s, err, sizeof err) == HFG_EPARSE);
  CHECK(strstr(err, "template position 2: unterminated \"column name\"") != NULL);
}

static void advice(const char *tmpl, const char *const *cols, size_t n, const char *want) {
  hfg_scheme *s = NULL;
  char err[1024];
  int rc = hfg_scheme_compile(tmpl, cols, n, &s, err, sizeof err);
  hfg_scheme_free(s);
  CHECK(rc == HFG_EPARSE);
  if (rc == HFG_EPARSE && !strstr(err, want)) {
    fprintf(stderr, "  %s: got '%s', want '%s'\n", tmpl, err, want);
    CHECK(0);
  }
}

TEST(advice_for_bare_names) {
  const char *cols[] = {"id", "Order", "Order Id", "Order Id 2", "2nd"};
  advice("{Order Id}", cols, 5,
         "template position 8: expected '}'; the column 'Order Id' holds a space, so a template "
         "quotes it: write {\"Order Id\"}");
  advice("{ Order Id 2 :04}|{id}", cols, 5, "write { \"Order Id 2\" :04}");
  advice("x{lpad(Order Id, 8, '}')}", cols, 5, "write {lpad(\"Order Id\", 8, '}')}");
  advice("{id}|{md5(Order Id)", cols, 5, "write {md5(\"Order Id\")}");
  advice("{2nd}", cols, 5, "the column '2nd' does not start with a letter or _");
  /* no column fits: the old message and its list of columns */
  advice("{Orderx Id}", cols, 5, "unknown column 'Orderx'; the columns read are");
  advice("{Order Ids}", cols, 5, "template position 8: expected '}'"); /* and no advice: */
  hfg_scheme *t = NULL;
  char e[512];
  CHECK(hfg_scheme_compile("{Order Ids}", cols, 5, &t, e, sizeof e) == HFG_EPARSE);
  CHECK(strstr(e, "write") == NULL);
  /* without columns, a guess; none for what cannot be one name */
  advice("{Order Id % 4}", NULL, 0, "if 'Order Id' is one column name, quote it: write "
         "{\"Order Id\" % 4}");
  hfg_scheme *s = NULL;
  char err[512];
  CHECK(hfg_scheme_compile("{foo bar(id)}", NULL, 0, &s, err, sizeof err) == HFG_EPARSE);
  CHECK(strstr(err, "quote it") == NULL);
  CHECK(hfg_scheme_compile("{id} {x y", NULL, 0, &s, err, sizeof err) == HFG_EPARSE);
  CHECK(strstr(err, "write {\"x y\"}") != NULL); /* the part's missing '}' added */
}

TEST(presets_quote_columns) {
  hfg_scheme *s = NULL;
  char err[256];
  REQUIRE(hfg_scheme_compile("salt:Order Id:4", NULL, 0, &s, err, sizeof err) == 0);
  CHECK(!strcmp(hfg_scheme_template(s), "{\"Order Id\" % 4}|{\"Order Id\"}"));
  hfg_scheme_free(s);
  REQUIRE(hfg_scheme_compile("hash-prefix:md5:user id:4", NULL, 0, &s, err, sizeof err) == 0);
  CHECK(!strcmp(hfg_scheme_template(s), "{hex(md5(\"user id\"), 4)}|{\"user id\"}"));
  hfg_scheme_free(s);
  REQUIRE(hfg_scheme_compile("salt:id:4", NULL, 0, &s, err, sizeof err) == 0);
  CHECK(!strcmp(hfg_scheme_template(s), "{id % 4}|{id}")); /* bare names as before */
  hfg_scheme_free(s);
}

TEST(old_key_patterns) {
  hfg_keyparse *kp = NULL;
  char err[512];
  REQUIRE(hfg_keyparse_compile("{\"Order Id\"}|{`a``b`:long}", &kp, err, sizeof err) == 0);
  CHECK_EQ_INT(hfg_keyparse_field_count(kp), 2);
  CHECK(!strcmp(hfg_keyparse_field_names(kp)[0], "Order Id"));
  CHECK(!strcmp(hfg_keyparse_field_names(kp)[1], "a`b"));
  hfg_keyparse_free(kp);
  CHECK(hfg_keyparse_compile("{Order Id:long}", &kp, err, sizeof err) == HFG_EPARSE);
  CHECK(strstr(err, "write {\"Order Id\":long}") != NULL);
}

TEST(out_of_memory) {
  const char *cols[] = {"id", "Order Id", "a\"b"};
  for (long n = 1;; n++) {
    hfg_scheme *s = NULL;
    char err[512];
    hfg_fault_alloc_arm(n);
    int rc = hfg_scheme_compile("{\"Order Id\" % 4}|{\"a\"\"b\"}|{id}", cols, 3, &s, err, sizeof err);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    hfg_scheme_free(s);
    if (!fired) {
      CHECK(rc == 0);
      break;
    }
    CHECK(rc == HFG_ENOMEM);
    hfg_keyparse *kp = NULL;
    hfg_fault_alloc_arm(n);
    rc = hfg_keyparse_compile("{\"Order Id\"}|{x}", &kp, err, sizeof err);
    fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    hfg_keyparse_free(kp);
    CHECK(fired ? rc == HFG_ENOMEM : rc == 0);
  }
}

T_MAIN
