/* Old-key patterns (include/hfilegen/keyparse.h, issue #26): text, numbers as
 * Bytes.toBytes writes them (the byte strings worked by hand from two's
 * complement), separated parts, skipped prefixes, escapes, every parse and
 * compile error with its message, round trips through the rowkey scheme, the
 * new rowkey's field check and the injectivity guard, threads, allocation. */
#include <pthread.h>

#include "hfilegen/keyparse.h"
#include "t.h"
#include "util/alloc.h"

/* Parses key[0..len) with pat; "a=x;b=y" (values escaped \xNN) into out, or
 * the error message; returns the status (a compile error: its status too). */
static int parsed(const char *pat, const void *key, size_t len, char *out, size_t cap) {
  hfg_keyparse *kp;
  char em[512];
  int rc = hfg_keyparse_compile(pat, &kp, em, sizeof em);
  if (rc) {
    snprintf(out, cap, "compile: %s", em);
    return rc;
  }
  hfg_keyparse_result r;
  rc = hfg_keyparse_parse(kp, key, len, &r, em, sizeof em);
  if (rc) {
    snprintf(out, cap, "%s", em);
  } else {
    size_t o = 0;
    out[0] = '\0';
    const char *const *names = hfg_keyparse_field_names(kp);
    for (size_t i = 0; i < hfg_keyparse_field_count(kp); i++) {
      o += (size_t)snprintf(out + o, cap - o, "%s%s=", i ? ";" : "", names[i]);
      for (size_t k = 0; k < r.fields[i].len; k++) {
        unsigned char c = (unsigned char)r.fields[i].p[k];
        o += (size_t)snprintf(out + o, cap - o, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
      }
    }
  }
  hfg_keyparse_free(kp);
  return rc;
}

static void parses_(int line, const char *pat, const void *key, size_t len, int want_rc,
                    const char *want) {
  char got[1024];
  int rc = parsed(pat, key, len, got, sizeof got);
  if (rc != want_rc || strcmp(got, want)) {
    fprintf(stderr, "  %s:%d: %s: rc %d want %d\n   got '%s'\n  want '%s'\n", __FILE__, line, pat,
            rc, want_rc, got, want);
    t_failed_now = 1;
  }
}

/* PARSES(pattern, key, len, "a=x;b=y"); REFUSES(pattern, key, len, status, message) */
#define PARSES(pat, ...) parses_ok_(__LINE__, pat, __VA_ARGS__)
#define parses_ok_(line, pat, key, len, want) parses_(line, pat, key, len, 0, want)
#define REFUSES(pat, ...) parses_bad_(__LINE__, pat, __VA_ARGS__)
#define parses_bad_(line, pat, key, len, rc, want) parses_(line, pat, key, len, rc, want)

#define S(lit) lit, sizeof lit - 1 /* a key literal and its length (NULs included) */

TEST(text_fields) {
  PARSES("{id}", S("abc"), "id=abc");
  PARSES("{id:text}", S("abc"), "id=abc");
  PARSES("{ `user id` }", S("u 1"), "user id=u 1");
  PARSES("{user}|{ts}", S("u1|1720695600000"), "user=u1;ts=1720695600000");
  /* every text field but the last ends at the first '|'; the last takes the rest */
  PARSES("{user}|{ts}", S("a|b|c"), "user=a;ts=b|c");
  PARSES("{a}|{b}|{c}", S("x|y|z|w"), "a=x;b=y;c=z|w");
  /* the last text field runs up to the fixed-width rest of the pattern */
  PARSES("{a}|{b}|", S("x|y|z|"), "a=x;b=y|z");
  PARSES("{a}--{b}", S("p--q--r"), "a=p;b=q--r");
  /* empty values are values */
  PARSES("{a}|{b}", S("|"), "a=;b=");
  PARSES("{id}", "", 0, "id=");
  PARSES("k:{id}", S("k:42"), "id=42");
}

TEST(numbers_as_bytes_tobytes) {
  /* Bytes.toBytes(1420008L): 1420008 = 0x15aae8 */
  PARSES("{id:long}", S("\x00\x00\x00\x00\x00\x15\xaa\xe8"), "id=1420008");
  /* -1420008L: 2^64 - 0x15aae8 = 0xffffffffffea5518 */
  PARSES("{id:long}", S("\xff\xff\xff\xff\xff\xea\x55\x18"), "id=-1420008");
  PARSES("{id:long}", S("\xff\xff\xff\xff\xff\xff\xff\xff"), "id=-1");
  PARSES("{id:long}", S("\x00\x00\x00\x00\x00\x00\x00\x00"), "id=0");
  PARSES("{id:long}", S("\x80\x00\x00\x00\x00\x00\x00\x00"), "id=-9223372036854775808");
  PARSES("{id:long}", S("\x7f\xff\xff\xff\xff\xff\xff\xff"), "id=9223372036854775807");
  /* Bytes.toBytes(1420008) (int) and -1420008: 2^32 - 0x15aae8 = 0xffea5518 */
  PARSES("{id:int}", S("\x00\x15\xaa\xe8"), "id=1420008");
  PARSES("{id:int}", S("\xff\xea\x55\x18"), "id=-1420008");
  PARSES("{id:int}", S("\x80\x00\x00\x00"), "id=-2147483648");
  PARSES("{id:int}", S("\x7f\xff\xff\xff"), "id=2147483647");
  /* Bytes.toBytes((short) 300) = 01 2c, (short) -2 = ff fe, Short.MIN_VALUE = 80 00 */
  PARSES("{n:short}", S("\x01\x2c"), "n=300");
  PARSES("{n:short}", S("\xff\xfe"), "n=-2");
  PARSES("{n:short}", S("\x80\x00"), "n=-32768");
  /* several in a row, and text after a number */
  PARSES("{a:int}{b:short}{c}", S("\x00\x00\x00\x07\xff\xff" "rest"), "a=7;b=-1;c=rest");
  /* text before a fixed tail is anchored at the end, so it may hold any byte;
   * 1720695600000 = 0x190a1733380 */
  PARSES("{user}{ts:long}", S("u|1\x00\x00\x01\x90\xa1\x73\x33\x80"), "user=u|1;ts=1720695600000");
  PARSES("{user}|{ts:long}", S("a|b|\x00\x00\x00\x00\x00\x00\x00\x05"), "user=a|b;ts=5");
}

TEST(bytes_and_skipped_prefixes) {
  PARSES("{x:bytes:3}{y}", S("\x00\x01\x02yz"), "x=\\x00\\x01\\x02;y=yz");
  PARSES("{ x : bytes : 2 }|", S("ab|"), "x=ab");
  /* an old salt or bucket: skipped, and not among the fields */
  PARSES("{_:bytes:2}{id}", S("07" "1420008"), "id=1420008");
  PARSES("{_}|{id}", S("8|1420008"), "id=1420008");
  PARSES("{_:bytes:1}{id}", S("\x0a" "1420008"), "id=1420008");
  PARSES("{_}|{_}|{id:int}", S("a|b|\x00\x00\x00\x2a"), "id=42");
  hfg_keyparse *kp;
  REQUIRE(hfg_keyparse_compile("{_:bytes:2}{user}|{_:long}|{ts}", &kp, NULL, 0) == 0);
  CHECK_EQ_INT(hfg_keyparse_field_count(kp), 2);
  CHECK(!strcmp(hfg_keyparse_field_names(kp)[0], "user"));
  CHECK(!strcmp(hfg_keyparse_field_names(kp)[1], "ts"));
  CHECK(hfg_keyparse_field_names(kp)[2] == NULL);
  CHECK(!strcmp(hfg_keyparse_pattern(kp), "{_:bytes:2}{user}|{_:long}|{ts}"));
  hfg_keyparse_free(kp);
  /* only skipped parts: no field, but a names array all the same */
  REQUIRE(hfg_keyparse_compile("{_}", &kp, NULL, 0) == 0);
  CHECK_EQ_INT(hfg_keyparse_field_count(kp), 0);
  CHECK(hfg_keyparse_field_names(kp) != NULL);
  hfg_keyparse_free(kp);
}

TEST(escapes) {
  PARSES("{a}\\x00{b}", S("ab\x00" "cd"), "a=ab;b=cd");
  PARSES("{a}\\x00\\xFF{b}", S("ab\x00\xff" "cd"), "a=ab;b=cd");
  PARSES("{{{a}}}", S("{x}"), "a=x");
  PARSES("\\{{a}\\}", S("{x}"), "a=x");
  PARSES("{a}\\\\{b}", S("p\\q"), "a=p;b=q");
  PARSES("{a}\\'{b}", S("p'q"), "a=p;b=q");
}

TEST(parse_errors) {
  REFUSES("{_:bytes:1}|{id}", S("ax1"), HFG_EPARSE,
          "byte offset 1: expected the literal '|', found 'x'");
  REFUSES("{_:bytes:1}|{id}", S("a\x00" "1"), HFG_EPARSE,
          "byte offset 1: expected the literal '|', found '\\x00'");
  REFUSES("{id:int}|", S("\x00\x00\x00\x01"), HFG_EPARSE,
          "byte offset 4: expected the literal '|', found the end of the key");
  REFUSES("{_:bytes:1}::{id}", S("a:"), HFG_EPARSE,
          "byte offset 1: expected the literal '::', found ':' and the end of the key");
  REFUSES("k:{id}", S("x:1"), HFG_EPARSE, "byte offset 0: expected the literal 'k:', found 'x:'");
  REFUSES("{user}|{ts}", S("abc"), HFG_EPARSE,
          "byte offset 0: field 'user' runs to the literal '|' after it, which the rest of the key "
          "does not hold");
  REFUSES("{a}|{b}--{c}", S("x|yz"), HFG_EPARSE,
          "byte offset 2: field 'b' runs to the literal '--' after it, which the rest of the key "
          "does not hold");
  REFUSES("{id:long}", S("\x00\x00\x01"), HFG_EPARSE,
          "byte offset 0: field 'id' (long) needs 8 bytes, the key has 3 left");
  REFUSES("{_:bytes:2}{id}", S("a"), HFG_EPARSE,
          "byte offset 0: the '_' field at template position 1 (bytes) needs 2 bytes, the key has "
          "1 left");
  /* anchored at the end: with 3 bytes for '|' and a short, 'a' is empty and the '|' is missing */
  REFUSES("{a}|{n:short}", S("x|\x01"), HFG_EPARSE,
          "byte offset 0: expected the literal '|', found 'x'");
  REFUSES("{user}{ts:long}", S("abc"), HFG_EPARSE,
          "byte offset 0: field 'user' is followed by 8 bytes of fixed width to the end of the "
          "pattern, the key has 3 left");
  REFUSES("{id:int}", S("\x00\x00\x00\x01\x00\\"), HFG_EPARSE,
          "byte offset 4: the pattern ends, the key has 2 more bytes ('\\x00\\\\')");
  REFUSES("{a}|", S("x|y"), HFG_EPARSE, "byte offset 2: expected the literal '|', found 'y'");
  REFUSES("{a}|", "", 0, HFG_EPARSE,
          "byte offset 0: field 'a' is followed by 1 byte of fixed width to the end of the "
          "pattern, the key has 0 left");
}

TEST(compile_errors) {
  static const struct {
    const char *pat, *want;
  } C[] = {
      {"", "template position 1: empty pattern"},
      {"id", "template position 1: the pattern has no field: name the key's parts in braces, e.g. "
             "'{id}' or '{_}|{id}'"},
      {"{id", "template position 4: expected '}'"},
      {"{}", "template position 2: expected a field name ({id}, or {_} for a part to skip)"},
      {"{`id}", "template position 2: unterminated `field name`"},
      {"{id:lng}", "template position 5: unknown type 'lng' (text, long, int, short or bytes:N)"},
      {"{id:06}", "template position 5: expected a type after ':' (text, long, int, short or "
                  "bytes:N)"},
      {"{id:long:8}", "template position 9: expected '}' (one type per field)"},
      {"{id:bytes}", "template position 10: bytes needs a width: bytes:N (N bytes)"},
      {"{id:bytes:x}", "template position 11: expected a width after 'bytes:'"},
      {"{id:bytes:0}", "template position 11: bytes width must be at least 1"},
      {"{id:bytes:40000}", "template position 11: bytes width above 32767"},
      {"{a}|{a}", "template position 6: field 'a' appears twice (first at template position 1): "
                  "name a part that repeats another '_' to skip it"},
      {"{a}{b}|", "template position 4: the text field at template position 1, of any length, is "
                  "directly followed by this field and the rest of the pattern is not of fixed "
                  "width: where it ends is unknown (put a literal separator between them, or give "
                  "it a width: {x:bytes:N})"},
      {"{id % 10}|{id}", "template position 5: an old-key pattern names what each part of the key "
                         "holds and computes nothing: {id:long} reads the bytes long(id) wrote, {_} "
                         "skips a part computed from others (a bucket, hash or salt)"},
      {"{long(id)}", "template position 6: an old-key pattern names what each part of the key "
                     "holds and computes nothing: {id:long} reads the bytes long(id) wrote, {_} "
                     "skips a part computed from others (a bucket, hash or salt)"},
      {"a}{id}", "template position 2: unmatched '}' (write }} for a literal brace)"},
      {"x\\q{id}", "template position 2: bad escape (use \\\\, \\', \\{, \\} or \\xNN)"},
      {"{id}\\x4", "template position 5: bad escape (use \\\\, \\', \\{, \\} or \\xNN)"},
  };
  for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
    char em[512] = "";
    hfg_keyparse *kp = (hfg_keyparse *)1;
    CHECK_EQ_INT(hfg_keyparse_compile(C[i].pat, &kp, em, sizeof em), HFG_EPARSE);
    CHECK(kp == NULL);
    if (strcmp(em, C[i].want)) {
      fprintf(stderr, "  '%s':\n   got '%s'\n  want '%s'\n", C[i].pat, em, C[i].want);
      t_failed_now = 1;
    }
  }
  /* these are fine: a text field before a fixed-width rest, fields separated by literals */
  const char *ok[] = {"{a}{b:long}", "{a}{b:int}|{c:bytes:2}", "{_:bytes:2}{a}|{b}", "{a}|{b}{c:short}"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    hfg_keyparse *kp;
    char em[512];
    CHECK_EQ_INT(hfg_keyparse_compile(ok[i], &kp, em, sizeof em), 0);
    hfg_keyparse_free(kp);
  }
  /* 64 named fields at most (skipped ones do not count) */
  char big[2048];
  size_t o = 0;
  for (int i = 0; i < 65; i++) o += (size_t)snprintf(big + o, sizeof big - o, "{_}|{f%d}|", i);
  hfg_keyparse *kp;
  char em[512];
  CHECK_EQ_INT(hfg_keyparse_compile(big, &kp, em, sizeof em), HFG_EPARSE);
  CHECK(strstr(em, "more than 64 named fields") != NULL);
  big[strlen(big) - strlen("{_}|{f64}|")] = '\0';
  CHECK_EQ_INT(hfg_keyparse_compile(big, &kp, em, sizeof em), 0);
  CHECK_EQ_INT(hfg_keyparse_field_count(kp), 64);
  hfg_keyparse_free(kp);
}

/* The old key tmpl builds from "name=value" pairs (n of them) into key. */
static size_t old_key(const char *tmpl, const char *const *kv, size_t n, uint8_t *key) {
  hfg_scheme *s;
  char em[256];
  if (hfg_scheme_compile(tmpl, NULL, 0, &s, em, sizeof em)) return (size_t)-1;
  hfg_named_value v[8];
  char names[8][64];
  for (size_t i = 0; i < n; i++) {
    const char *eq = strchr(kv[i], '=');
    snprintf(names[i], sizeof names[i], "%.*s", (int)(eq - kv[i]), kv[i]);
    v[i].name = names[i];
    v[i].value = (hfg_field){eq + 1, strlen(eq + 1), 0};
  }
  uint8_t *k = NULL;
  size_t len = 0;
  if (hfg_scheme_key(s, v, n, &k, &len, em, sizeof em)) len = (size_t)-1;
  else memcpy(key, k, len);
  hfg_scheme_buf_free(k);
  hfg_scheme_free(s);
  return len;
}

TEST(round_trips_through_the_rowkey_scheme) {
  uint64_t st = 0x9e3779b97f4a7c15u;
  for (int i = 0; i < 2000; i++) {
    int64_t id = (int64_t)t_rand(&st);
    if (i % 3 == 0) id %= 100000; /* small ones, negative too */
    char idv[40], userv[40], want[128];
    snprintf(idv, sizeof idv, "id=%lld", (long long)id);
    snprintf(userv, sizeof userv, "user=u%u|x", (unsigned)(t_rand(&st) % 1000));
    const char *kv[] = {idv, userv};
    uint8_t key[256];
    size_t len = old_key("{long(id)}{user}", kv, 2, key);
    REQUIRE(len == 8 + strlen(userv) - 5);
    snprintf(want, sizeof want, "%s;%s", idv, userv);
    PARSES("{id:long}{user}", key, len, want);
    /* a salt before: skipped; the text before the fixed tail keeps its '|' */
    len = old_key("{phoenix_salt(16)}{user}{long(id)}", kv, 2, key);
    snprintf(want, sizeof want, "%s;%s", userv, idv);
    PARSES("{_:bytes:1}{user}{id:long}", key, len, want);
    if (id >= INT32_MIN && id <= INT32_MAX) {
      len = old_key("{id % 16 :02}_{int(id)}_{user}", kv, 2, key);
      REQUIRE(len != (size_t)-1);
      snprintf(want, sizeof want, "%s;%s", idv, userv);
      PARSES("{_:bytes:2}_{id:int}_{user}", key, len, want);
    }
  }
  /* the salt preset's key, its id back */
  const char *kv[] = {"id=1420008"};
  uint8_t key[64];
  size_t len = old_key("salt:id:10", kv, 1, key);
  PARSES("{_}|{id}", key, len, "id=1420008");
}

/* Re-keys old through pat -> tmpl: the new key's bytes in out, or the first error. */
static int rekey(const char *pat, const char *tmpl, const void *old, size_t olen, char *out,
                 size_t cap) {
  hfg_keyparse *kp;
  hfg_scheme *s = NULL;
  char em[512], warn[512];
  int rc = hfg_keyparse_compile(pat, &kp, em, sizeof em);
  if (!rc) rc = hfg_keyparse_rowkey(kp, tmpl, &s, em, sizeof em);
  if (!rc) rc = hfg_keyparse_check_rekey(kp, s, warn, sizeof warn, em, sizeof em);
  hfg_keyparse_result r;
  if (!rc) rc = hfg_keyparse_parse(kp, old, olen, &r, em, sizeof em);
  uint8_t key[256];
  size_t len = 0;
  if (!rc)
    rc = hfg_scheme_eval(s, r.fields, hfg_keyparse_field_count(kp), key, sizeof key, &len, em,
                         sizeof em);
  if (rc) {
    snprintf(out, cap, "%s", em);
  } else { /* the bytes, NULs included, and a NUL after them */
    if (len >= cap) len = cap - 1;
    memcpy(out, key, len);
    out[len] = '\0';
  }
  hfg_scheme_free(s);
  hfg_keyparse_free(kp);
  return rc;
}

TEST(rekey_end_to_end) {
  char out[512];
  /* murmur3("user39") % 16 = 3 (rowkey-templates.md's vector) */
  CHECK_EQ_INT(rekey("{user}|{ts}", "{murmur3(user) % 16 :02}_{ts}_{user}", S("user39|1720695600000"),
                     out, sizeof out), 0);
  CHECK(!strcmp(out, "03_1720695600000_user39"));
  /* an old salt of 10 to one of 100: 1420008 % 100 = 8 */
  CHECK_EQ_INT(rekey("{_}|{id}", "{id % 100 :02}|{id}", S("8|1420008"), out, sizeof out), 0);
  CHECK(!strcmp(out, "08|1420008"));
  /* binary ids to text and back */
  CHECK_EQ_INT(rekey("{id:long}", "{id % 10}|{id}", S("\xff\xff\xff\xff\xff\xea\x55\x18"), out,
                     sizeof out), 0);
  CHECK(!strcmp(out, "2|-1420008")); /* floor modulo: -1420008 = -142001 * 10 + 2 */
  CHECK_EQ_INT(rekey("{_:bytes:2}{id}", "{long(id)}", S("07" "1420008"), out, sizeof out), 0);
  CHECK_MEM(out, "\x00\x00\x00\x00\x00\x15\xaa\xe8", 8);
  /* a presets' column must be an old-key field as well */
  CHECK_EQ_INT(rekey("{_}|{id}", "salt-pad:id:100", S("8|1420008"), out, sizeof out), 0);
  CHECK(!strcmp(out, "08|1420008"));
  /* the new template's own eval errors stay its own: text read as a number */
  CHECK_EQ_INT(rekey("{_}|{id}", "{id % 10}|{id}", S("8|abc"), out, sizeof out), HFG_EPARSE);
  CHECK(!strcmp(out, "column id: 'abc' is not an integer"));
}

TEST(new_rowkey_fields) {
  hfg_keyparse *kp;
  hfg_scheme *s = (hfg_scheme *)1;
  char em[512];
  REQUIRE(hfg_keyparse_compile("{_:bytes:1}{user}|{ts:long}", &kp, NULL, 0) == 0);
  CHECK_EQ_INT(hfg_keyparse_rowkey(kp, "{usr}|{ts}", &s, em, sizeof em), HFG_EPARSE);
  CHECK(s == NULL);
  CHECK(!strcmp(em, "template position 2: unknown column 'usr': not a field of the old key; the "
                    "old key's fields are 'user', 'ts' (2)"));
  CHECK_EQ_INT(hfg_keyparse_rowkey(kp, "{ts}|{reverse(User)}", &s, em, sizeof em), HFG_EPARSE);
  CHECK(!strcmp(em, "template position 15: unknown column 'User': not a field of the old key; "
                    "the old key's fields are 'user', 'ts' (2); did you mean 'user'?"));
  CHECK_EQ_INT(hfg_keyparse_rowkey(kp, "{_}{user}", &s, em, sizeof em), HFG_EPARSE);
  CHECK(!strcmp(em, "template position 2: '_' is no field: the old key's '_' parts are skipped "
                    "when it is read; the old key's fields are 'user', 'ts' (2)"));
  CHECK_EQ_INT(hfg_keyparse_rowkey(kp, "salt:uid:10", &s, em, sizeof em), HFG_EPARSE);
  CHECK(!strcmp(em, "preset salt:uid:10 is {uid % 10}|{uid}: template position 2: unknown column "
                    "'uid': not a field of the old key; the old key's fields are 'user', 'ts' (2)"));
  /* the rowkey's own compile errors are the scheme's */
  CHECK_EQ_INT(hfg_keyparse_rowkey(kp, "{nope(user)}", &s, em, sizeof em), HFG_EPARSE);
  CHECK(!strcmp(em, "template position 2: unknown function 'nope'"));
  /* columns in the old key's order, whatever order the template names them in */
  REQUIRE(hfg_keyparse_rowkey(kp, "{ts}|{user}", &s, em, sizeof em) == 0);
  CHECK_EQ_INT(hfg_scheme_column_count(s), 2);
  CHECK(!strcmp(hfg_scheme_column_name(s, 0), "user"));
  CHECK(!strcmp(hfg_scheme_column_name(s, 1), "ts"));
  hfg_scheme_free(s);
  hfg_keyparse_free(kp);
  /* an old key of skipped parts only */
  REQUIRE(hfg_keyparse_compile("{_}|{_:int}", &kp, NULL, 0) == 0);
  CHECK_EQ_INT(hfg_keyparse_rowkey(kp, "{id}", &s, em, sizeof em), HFG_EPARSE);
  CHECK(!strcmp(em, "template position 2: unknown column 'id': not a field of the old key; the "
                    "old key has no named field (its '_' parts are skipped)"));
  hfg_keyparse_free(kp);
}

/* hfg_keyparse_check_rekey of pat -> tmpl: status; the message or warning in out. */
static int check(const char *pat, const char *tmpl, char *out, size_t cap) {
  hfg_keyparse *kp;
  hfg_scheme *s;
  char em[1024], warn[1024];
  if (hfg_keyparse_compile(pat, &kp, em, sizeof em)) return snprintf(out, cap, "%s", em), 99;
  if (hfg_keyparse_rowkey(kp, tmpl, &s, em, sizeof em)) {
    hfg_keyparse_free(kp);
    return snprintf(out, cap, "%s", em), 98;
  }
  int rc = hfg_keyparse_check_rekey(kp, s, warn, sizeof warn, em, sizeof em);
  snprintf(out, cap, "%s", rc ? em : warn);
  hfg_scheme_free(s);
  hfg_keyparse_free(kp);
  return rc;
}

TEST(injectivity_guard) {
  char out[1024];
  CHECK_EQ_INT(check("{user}|{ts}", "{user}", out, sizeof out), HFG_EINVAL);
  CHECK(!strcmp(out, "the new rowkey '{user}' does not use the old key's field 'ts': old keys "
                     "that differ only there would get one new key (the re-keying would not be "
                     "one-to-one). Use every field in the new rowkey, or name the part '_' in the "
                     "old-key pattern to drop it knowingly (the job then catches the duplicate "
                     "new keys)"));
  CHECK_EQ_INT(check("{a}|{b}|{c}", "{b}", out, sizeof out), HFG_EINVAL);
  CHECK(strstr(out, "does not use the old key's fields 'a', 'c': ") != NULL);
  CHECK_EQ_INT(check("{user}|{ts}", "constant", out, sizeof out), HFG_EINVAL);
  CHECK(!strcmp(out, "the new rowkey 'constant' uses no field of the old key '{user}|{ts}': every "
                     "old key would get this one new key; the old key's fields are 'user', 'ts' (2)"));
  CHECK_EQ_INT(check("{_}", "constant", out, sizeof out), HFG_EINVAL);
  CHECK(strstr(out, "the old key has no named field") != NULL);
  /* dropping a field knowingly */
  CHECK_EQ_INT(check("{user}|{_}", "{user}", out, sizeof out), 0);
  CHECK(!strcmp(out, ""));
  /* every field kept whole: no warning */
  const char *whole[] = {"{ts}|{user}", "{user % 10}|{user}_{ts}", "{hex(user)}{desc(ts)}",
                         "{reverse(user)}|{long(ts)}", "{lpad(user, 12)}{int(ts)}",
                         "{md5(user) % 4}{upper(user)}|{ts}|{user}"};
  for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
    CHECK_EQ_INT(check("{user}|{ts}", whole[i], out, sizeof out), 0);
    if (strcmp(out, "")) {
      fprintf(stderr, "  %s: warned '%s'\n", whole[i], out);
      t_failed_now = 1;
    }
  }
  /* a field only through a function that can map two values to one: accepted, warned */
  CHECK_EQ_INT(check("{user}|{ts}", "{day(ts)}|{user}", out, sizeof out), 0);
  CHECK(!strcmp(out, "field 'ts' reaches the new key only through day(), which can map different "
                     "values to one: old keys that differ only there may get one new key (the job "
                     "catches the duplicates)"));
  CHECK_EQ_INT(check("{user}|{ts}", "{hex(md5(user), 4)}|{ts % 7}", out, sizeof out), 0);
  CHECK(!strcmp(out, "field 'user' reaches the new key only through hex(x, n); field 'ts' reaches "
                     "the new key only through %, which can map different values to one: old "
                     "keys that differ only there may get one new key (the job catches the "
                     "duplicates)"));
  CHECK_EQ_INT(check("{user}|{ts}", "{hex(md5(user))}{lpad(substr(ts, 2), 4)}", out, sizeof out), 0);
  CHECK(strstr(out, "field 'user' reaches the new key only through md5(); field 'ts' reaches the "
                    "new key only through substr(), ") == out);
  /* a scheme not compiled against the old key's fields */
  hfg_keyparse *kp;
  hfg_scheme *s;
  char em[512];
  REQUIRE(hfg_keyparse_compile("{user}|{ts}", &kp, NULL, 0) == 0);
  REQUIRE(hfg_scheme_compile("{ts}|{user}", NULL, 0, &s, NULL, 0) == 0);
  CHECK_EQ_INT(hfg_keyparse_check_rekey(kp, s, NULL, 0, em, sizeof em), HFG_EINVAL);
  CHECK(strstr(em, "not compiled against the old key's fields") != NULL);
  hfg_scheme_free(s);
  hfg_keyparse_free(kp);
}

typedef struct par {
  const hfg_keyparse *kp;
  uint64_t seed;
  int bad;
} par;

static void *par_main(void *arg) {
  par *a = arg;
  for (int i = 0; i < 20000; i++) {
    uint64_t v = t_rand(&a->seed);
    uint8_t key[32];
    int n = snprintf((char *)key, sizeof key, "u%u|", (unsigned)(v % 100000));
    for (int k = 0; k < 8; k++) key[n + k] = (uint8_t)(v >> (56 - 8 * k));
    hfg_keyparse_result r;
    char em[256];
    if (hfg_keyparse_parse(a->kp, key, (size_t)n + 8, &r, em, sizeof em)) {
      a->bad++;
      continue;
    }
    char want[32];
    int wn = snprintf(want, sizeof want, "%lld", (long long)(int64_t)v);
    if (r.fields[0].len != (size_t)n - 1 || memcmp(r.fields[0].p, key, (size_t)n - 1) ||
        r.fields[1].len != (size_t)wn || memcmp(r.fields[1].p, want, (size_t)wn))
      a->bad++;
  }
  return NULL;
}

TEST(threads_share_one_pattern) {
  hfg_keyparse *kp;
  REQUIRE(hfg_keyparse_compile("{user}|{ts:long}", &kp, NULL, 0) == 0);
  pthread_t th[4];
  par a[4];
  for (int i = 0; i < 4; i++) {
    a[i] = (par){kp, 0x1234567u * (uint64_t)(i + 1), 0};
    REQUIRE(pthread_create(&th[i], NULL, par_main, &a[i]) == 0);
  }
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(a[i].bad, 0);
  hfg_keyparse_free(kp);
}

TEST(parse_allocates_nothing_compile_survives_no_memory) {
  hfg_keyparse *kp;
  REQUIRE(hfg_keyparse_compile("{_:bytes:2}{user}|{ts:long}", &kp, NULL, 0) == 0);
  hfg_keyparse_result r;
  char em[256];
  hfg_fault_alloc_arm(1);
  int rc = hfg_keyparse_parse(kp, (const uint8_t *)"07u1|\0\0\0\0\0\0\0\x2a", 13, &r, em, sizeof em);
  int rc2 = hfg_keyparse_parse(kp, (const uint8_t *)"07u1", 4, &r, em, sizeof em);
  CHECK_EQ_INT(hfg_fault_alloc_fired(), 0);
  hfg_fault_alloc_arm(0);
  CHECK_EQ_INT(rc, 0);
  CHECK_EQ_INT(rc2, HFG_EPARSE);
  hfg_keyparse_free(kp);
  /* every allocation of compile and rowkey failing in turn: ENOMEM, nothing leaked (ASan) */
  for (long n = 1; n < 200; n++) {
    hfg_keyparse *k = NULL;
    hfg_scheme *s = NULL;
    hfg_fault_alloc_arm(n);
    int c = hfg_keyparse_compile("{_:bytes:2}{user}|{ts:long}|x{more}", &k, em, sizeof em);
    if (!c) c = hfg_keyparse_rowkey(k, "{user % 4}|{ts}|{more}", &s, em, sizeof em);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    hfg_scheme_free(s);
    hfg_keyparse_free(k);
    if (!fired) {
      CHECK_EQ_INT(c, 0);
      break;
    }
    CHECK_EQ_INT(c, HFG_ENOMEM);
  }
}

T_MAIN
