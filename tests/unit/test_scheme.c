/* Rowkey template language: every example of format-specs/rowkey-templates.md
 * as an acceptance vector, eval errors, compile errors, presets, and the
 * hash and time utilities underneath. Expected hash values were computed
 * independently (Python hashlib/zlib and a reference MurmurHash3). */
#include "hfilegen/scheme.h"
#include "t.h"
#include "util/alloc.h"
#include "util/hashes.h"
#include "util/murmur.h"
#include "util/timefmt.h"

/* Evaluates tmpl over "name=value" pairs; returns the status, key in out. */
static int key_of(const char *tmpl, const char *const *kv, size_t n, char *out, size_t *len,
                  char *err) {
  hfg_scheme *s;
  char em[256];
  int rc = hfg_scheme_compile(tmpl, NULL, 0, &s, em, sizeof em);
  if (rc) {
    if (err) snprintf(err, 256, "%s", em);
    fprintf(stderr, "  compile '%s': %s\n", tmpl, em);
    return rc;
  }
  hfg_named_value v[8];
  char names[8][64];
  for (size_t i = 0; i < n; i++) {
    const char *eq = strchr(kv[i], '=');
    snprintf(names[i], sizeof names[i], "%.*s", (int)(eq - kv[i]), kv[i]);
    v[i].name = names[i];
    v[i].value = (hfg_field){eq + 1, strlen(eq + 1), 0};
  }
  uint8_t *k = NULL;
  rc = hfg_scheme_key(s, v, n, &k, len, em, sizeof em);
  if (!rc) {
    memcpy(out, k, *len);
    out[*len] = '\0';
  } else if (err) {
    snprintf(err, 256, "%s", em);
  }
  hfg_scheme_buf_free(k);
  hfg_scheme_free(s);
  return rc;
}

#define KEY_IS(tmpl, expect, ...)                                        \
  do {                                                                   \
    const char *kv_[] = {__VA_ARGS__};                                   \
    char out_[512];                                                      \
    size_t len_ = 0;                                                     \
    int rc_ = key_of(tmpl, kv_, sizeof kv_ / sizeof kv_[0], out_, &len_, NULL); \
    CHECK_EQ_INT(rc_, 0);                                                \
    if (!rc_ && (len_ != strlen(expect) || memcmp(out_, expect, len_))) { \
      fprintf(stderr, "  %s: got '%s' want '%s'\n", tmpl, out_, expect); \
      t_failed_now = 1;                                                  \
    }                                                                    \
  } while (0)

TEST(salt_examples) {
  KEY_IS("{id % 10}|{id}", "8|1420008", "id=1420008");
  KEY_IS("{id % 10 :02}-{id}", "01-900001", "id=900001");
  KEY_IS("{id % 10 :02}-{id}", "02-900002", "id=900002");
  KEY_IS("{id % 10 :02}-{id}", "01-9000011", "id=9000011");
  KEY_IS("{id % 1000 :03}|{id}", "008|1420008", "id=1420008");
  KEY_IS("{id % 10}|{reverse(id)}", "8|8000241", "id=1420008");
  KEY_IS("{id%10}|{id}", "3|-7", "id=-7"); /* floor modulo: -7 -> 3 */
}

TEST(hash_prefixes) {
  /* md5("user1") = 24c9e15e52afc47c225b757e7bee1f9d */
  KEY_IS("{hex(md5(userId), 4)}", "24c9", "userId=user1");
  KEY_IS("{hex(md5(userId))}", "24c9e15e52afc47c225b757e7bee1f9d", "userId=user1");
  /* crc32("user1") = 0x8c518555 -> % 16 = 5 */
  KEY_IS("{crc32(userId) % 16 :02}", "05", "userId=user1");
  KEY_IS("{hex(crc32(userId), 8)}", "8c518555", "userId=user1");
  KEY_IS("{crc32(userId)}", "8c518555", "userId=user1");
  /* murmur3("hello") = 0x248bfa47, big-endian hex of the integer */
  KEY_IS("{hex(murmur3(x), 8)}", "248bfa47", "x=hello");
  KEY_IS("{upper(hex(murmur3(x), 4))}", "248B", "x=hello");
  /* xxhash64("abc") = 0x44bc2cf5ad770999 */
  KEY_IS("{xxhash64(x)}", "44bc2cf5ad770999", "x=abc");
  KEY_IS("{xxhash64(x) % 1000 :03}", "249", "x=abc"); /* 0x44bc2cf5ad770999 % 1000 */
  /* md5 % N uses the first 8 digest bytes: 0x24c9e15e52afc47c % 100 */
  KEY_IS("{md5(userId) % 100 :02}", "88", "userId=user1");
}

TEST(phoenix_salt) {
  /* Java Arrays.hashCode("1420008") = -477780010; abs(h % 16) = 10 */
  KEY_IS("{phoenix_salt(id, 16)}", "\x0a", "id=1420008");
  KEY_IS("{phoenix_salt(id, 16)}", "\x07", "id=900001");
  /* Salt over the rest of the key, as Phoenix salts its row key. */
  KEY_IS("{phoenix_salt(16)}{id}", "\x0a" "1420008", "id=1420008");
  CHECK_EQ_INT(hfg_hash_java("", 0), 1);
  CHECK_EQ_INT(hfg_hash_java("a", 1), 128);
  CHECK_EQ_INT(hfg_hash_java("\xff", 1), 30); /* signed byte: 31 - 1 */
  CHECK_EQ_INT(hfg_phoenix_salt("12345678901", 11, 16), 5);
}

TEST(fixed_width_and_reverse) {
  KEY_IS("{reverse(phone)}", "4321098631", "phone=1368901234");
  KEY_IS("{lpad(id, 10, '0')}", "0000000042", "id=42");
  KEY_IS("{lpad(id, 10)}", "0000000042", "id=42");
  KEY_IS("{rpad(code, 5, '_')}|", "ab___|", "code=ab");
  KEY_IS("{id :06}", "000042", "id=42");
}

TEST(bucket_range_and_business_prefix) {
  KEY_IS("{murmur3(userId) % 16 :02}_{ts}_{eventId}", "03_1720695600000_event001", "userId=user39",
         "ts=1720695600000", "eventId=event001");
  KEY_IS("{substr(orderNo, 0, 4)}_{orderNo}_{ts}", "2024_2024ORD0001_1720695600000",
         "orderNo=2024ORD0001", "ts=1720695600000");
  KEY_IS("{substr(x, 2)}", "cde", "x=abcde");
  KEY_IS("{substr(x, 9, 2)}", "", "x=abcde");
}

TEST(time_buckets) {
  /* 1720695600000 = 2024-07-11 11:00:00 UTC; murmur3("dev-1") % 8 = 2 */
  KEY_IS("{day(ts)}_{murmur3(deviceId) % 8}_{ts}_{deviceId}", "20240711_2_1720695600000_dev-1",
         "ts=1720695600000", "deviceId=dev-1");
  KEY_IS("{hour(ts)}", "2024071111", "ts=1720695600000");
  KEY_IS("{month(ts)}", "202407", "ts=1720695600000");
  KEY_IS("{day(created, 'yyyy-MM-dd HH:mm:ss')}", "20240711", "created=2024-07-11 23:59:59");
  KEY_IS("{hour(created, 'yyyy-MM-dd\\'T\\'HH:mm')}", "2024071123", "created=2024-07-11T23:59");
  KEY_IS("{millis(created, 'yyyy-MM-dd HH:mm:ss')}", "1720695600000", "created=2024-07-11 11:00:00");
  KEY_IS("{desc(ts)}", "9223370316159175807", "ts=1720695600000");
  KEY_IS("{desc(ts)}", "9223372036854775807", "ts=0");
  KEY_IS("{desc(millis(created, 'yyyy-MM-dd HH:mm:ss'))}", "9223370316159175807",
         "created=2024-07-11 11:00:00");
}

TEST(binary_parts) {
  char out[64], err[256];
  size_t len;
  const char *kv[] = {"id=1420008"};
  REQUIRE(key_of("{long(id)}", kv, 1, out, &len, NULL) == 0);
  CHECK_EQ_INT(len, 8);
  CHECK_MEM(out, "\x00\x00\x00\x00\x00\x15\xaa\xe8", 8);
  const char *kv2[] = {"x=-2"};
  REQUIRE(key_of("{int(x)}", kv2, 1, out, &len, NULL) == 0);
  CHECK_EQ_INT(len, 4);
  CHECK_MEM(out, "\xff\xff\xff\xfe", 4);
  const char *kv3[] = {"x=4294967296"};
  CHECK_EQ_INT(key_of("{int(x)}", kv3, 1, out, &len, err), HFG_EPARSE);
  CHECK(strstr(err, "does not fit int()") != NULL);
  KEY_IS("{x}{{c}}", "1{c}", "x=1");
  const char *kv4[] = {"id=7"};
  REQUIRE(key_of("\\x00{id}\\\\", kv4, 1, out, &len, NULL) == 0);
  CHECK_EQ_INT(len, 3);
  CHECK_MEM(out, "\x00" "7\\", 3);
}

TEST(eval_errors) {
  char out[64], err[256];
  size_t len;
  const char *kv[] = {"id=abc"};
  CHECK_EQ_INT(key_of("{id % 10}|{id}", kv, 1, out, &len, err), HFG_EPARSE);
  CHECK(strcmp(err, "column id: 'abc' is not an integer") == 0);
  CHECK_EQ_INT(key_of("{long(id)}", kv, 1, out, &len, err), HFG_EPARSE);
  CHECK(strcmp(err, "column id: 'abc' is not an integer") == 0);
  const char *kv2[] = {"id=99999999999999999999"};
  CHECK_EQ_INT(key_of("{id % 10}", kv2, 1, out, &len, err), HFG_EPARSE);
  /* digits past int64 are out of range, not "not an integer" */
  CHECK(strcmp(err, "column id: '99999999999999999999' is out of the 64-bit integer range "
                    "(-9223372036854775808 to 9223372036854775807)") == 0);
  const char *kv2n[] = {"id=-9223372036854775809"};
  CHECK_EQ_INT(key_of("{long(id)}", kv2n, 1, out, &len, err), HFG_EPARSE);
  CHECK(strstr(err, "is out of the 64-bit integer range") != NULL);
  const char *kv2x[] = {"id=-"};
  CHECK_EQ_INT(key_of("{id % 10}", kv2x, 1, out, &len, err), HFG_EPARSE);
  CHECK(strcmp(err, "column id: '-' is not an integer") == 0);
  const char *kv3[] = {"ts=-5"};
  CHECK_EQ_INT(key_of("{desc(ts)}", kv3, 1, out, &len, err), HFG_EPARSE);
  const char *kv4[] = {"c=2024-13-01 00:00:00"};
  CHECK_EQ_INT(key_of("{day(c, 'yyyy-MM-dd HH:mm:ss')}", kv4, 1, out, &len, err), HFG_EPARSE);
  CHECK(strstr(err, "does not match the date format") != NULL);
  const char *kv5[] = {"id=12345678901"};
  CHECK_EQ_INT(key_of("{lpad(id, 10)}", kv5, 1, out, &len, err), HFG_EPARSE);
  CHECK(strstr(err, "longer than the fixed width 10") != NULL);
  const char *kv6[] = {"x=a"};
  CHECK_EQ_INT(key_of("{long(md5(x))}", kv6, 1, out, &len, err), HFG_EPARSE);
  CHECK(strstr(err, "hash") != NULL);
  /* Refused when compiled, as no record could ever be keyed: integer readers
   * of binary values or hashes, a `:0W` pad on binary bytes. */
  static const struct {
    const char *tmpl, *msg;
  } R[] = {
      {"{long(id) % 4}", "position 2: long(...) makes 8 binary bytes, which % cannot read"},
      {"{int(id) % 4}|{id}", "position 2: int(...) makes 4 binary bytes"},
      {"{phoenix_salt(id, 8) % 4}", "position 2: phoenix_salt(...) makes one binary byte"},
      {"{desc(long(ts))}", "position 7: long(...) makes 8 binary bytes, which desc cannot"},
      {"{day(int(ts))}", "which day cannot read"},
      {"{long(md5(x))}", "position 7: long cannot read a hash (md5(...))"},
      {"{desc(crc32(x))}", "desc cannot read a hash"},
      {"{millis(murmur3(x), 'yyyy')}", "millis cannot read a hash"},
      {"{phoenix_salt(16) :03}{id}", "position 19: phoenix_salt(...) makes one binary byte, not text"},
      {"{phoenix_salt(id, 16) :03}{id}", "a ':03' pad would put '0' characters"},
      {"{long(id) :010}", "position 11: long(...) makes 8 binary bytes, not text"},
      {"{int(id) :4}", "int(...) makes 4 binary bytes, not text"},
  };
  for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
    hfg_scheme *rs = NULL;
    char em[512];
    CHECK_EQ_INT(hfg_scheme_compile(R[i].tmpl, NULL, 0, &rs, em, sizeof em), HFG_EPARSE);
    if (!strstr(em, R[i].msg)) {
      fprintf(stderr, "  %s: %s\n  want ...%s...\n", R[i].tmpl, em, R[i].msg);
      t_failed_now = 1;
    }
    hfg_scheme_free(rs);
  }
  /* an error inside a preset's expansion shows the expansion its position counts in */
  {
    hfg_scheme *ps = NULL;
    char em[512];
    const char *cols[] = {"id"};
    CHECK_EQ_INT(hfg_scheme_compile("salt:nosuch:10", cols, 1, &ps, em, sizeof em), HFG_EPARSE);
    CHECK(strstr(em, "preset salt:nosuch:10 is {nosuch % 10}|{nosuch}: template position 2: ") == em);
    hfg_scheme_free(ps);
  }
  /* still fine: a hash's buckets, hex of binary, a pad on a hash's digits */
  static const char *const OK[] = {"{murmur3(x) % 16 :02}", "{hex(long(id))}", "{hex(md5(x), 2) :04}",
                                   "{murmur3(x) :010}", "{reverse(long(id))}", "{id % 10 :03}"};
  for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++) {
    hfg_scheme *rs = NULL;
    char em[512];
    CHECK_EQ_INT(hfg_scheme_compile(OK[i], NULL, 0, &rs, em, sizeof em), 0);
    hfg_scheme_free(rs);
  }

  /* Eval against a record: missing field, output capacity. */
  hfg_scheme *s;
  const char *cols[] = {"id", "name"};
  REQUIRE(hfg_scheme_compile("{id}|{name}", cols, 2, &s, err, sizeof err) == 0);
  hfg_field f[2] = {{"12", 2, 0}, {"bob", 3, 0}};
  uint8_t k[8];
  CHECK_EQ_INT(hfg_scheme_eval(s, f, 2, k, sizeof k, &len, err, sizeof err), 0);
  CHECK_EQ_INT(len, 6);
  CHECK_EQ_INT(hfg_scheme_eval(s, f, 2, k, 5, &len, err, sizeof err), HFG_ETOOBIG);
  CHECK_EQ_INT(hfg_scheme_eval(s, f, 1, k, sizeof k, &len, err, sizeof err), HFG_EINVAL);
  hfg_scheme_free(s);
}

TEST(compile_errors) {
  hfg_scheme *s = NULL;
  char err[256];
  const char *cols[] = {"id"};
  CHECK_EQ_INT(hfg_scheme_compile("{nope}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK(strstr(err, "position 2: unknown column 'nope'") != NULL);
  CHECK_EQ_INT(hfg_scheme_compile("{frob(id)}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK(strstr(err, "unknown function 'frob'") != NULL);
  CHECK_EQ_INT(hfg_scheme_compile("{id", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("a}b", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("{id % 0}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("{id % x}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("{id :x}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("{lpad(id)}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK(strstr(err, "lpad takes 2 to 3 arguments") != NULL);
  CHECK_EQ_INT(hfg_scheme_compile("{lpad(id, id)}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("{hex(md5(id), 33)}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("{phoenix_salt(id, 300)}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("{day(id, 'yyyy-QQ')}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("{reverse(phoenix_salt(4))}", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK_EQ_INT(hfg_scheme_compile("salt:id:x", cols, 1, &s, err, sizeof err), HFG_EPARSE);
  CHECK(s == NULL);
  /* Backquoted column names. */
  const char *odd[] = {"user id"};
  REQUIRE(hfg_scheme_compile("{`user id`}!", odd, 1, &s, err, sizeof err) == 0);
  hfg_scheme_free(s);
  hfg_scheme_free(NULL);
}

/* The character a compile error's "template position N" points at ('\0' past the end). */
static char error_char(const char *tmpl, const char *const *cols, size_t ncols, char *err, size_t cap) {
  hfg_scheme *s = NULL;
  if (hfg_scheme_compile(tmpl, cols, ncols, &s, err, cap) != HFG_EPARSE) {
    hfg_scheme_free(s);
    return '?';
  }
  unsigned pos = 0;
  if (sscanf(err, "template position %u:", &pos) != 1 || pos == 0 || pos > strlen(tmpl) + 1) return '?';
  return tmpl[pos - 1];
}

/* Errors in a part's pad width or bucket count point at the offending
 * character (the caret a user would draw under the template), not at the
 * part's opening brace. */
TEST(compile_error_positions) {
  const char *cols[] = {"id"};
  char err[256];
  /* `:0x`: the 'x' is what is wrong (column 12). */
  CHECK_EQ_INT(error_char("{id % 10 :0x}", cols, 1, err, sizeof err), 'x');
  CHECK(strstr(err, "template position 12: expected '}' after the pad width") != NULL);
  CHECK_EQ_INT(error_char("{id :02x}|{id}", cols, 1, err, sizeof err), 'x');
  CHECK_EQ_INT(error_char("{id :0 2}", cols, 1, err, sizeof err), '2');
  /* the width itself */
  CHECK_EQ_INT(error_char("a|{id :0}", cols, 1, err, sizeof err), '0');
  CHECK(strstr(err, "template position 8: pad width must be at least 1") != NULL);
  CHECK_EQ_INT(error_char("{id :099}", cols, 1, err, sizeof err), '0');
  CHECK(strstr(err, "template position 6: pad width above 64") != NULL);
  CHECK_EQ_INT(error_char("{id :x}", cols, 1, err, sizeof err), 'x');
  /* the bucket count */
  CHECK_EQ_INT(error_char("{id %  0}", cols, 1, err, sizeof err), '0');
  CHECK(strstr(err, "template position 8: bucket count must be at least 1") != NULL);
  CHECK_EQ_INT(error_char("{id % 99999999999999999999}", cols, 1, err, sizeof err), '9');
  CHECK_EQ_INT(error_char("{id % x}", cols, 1, err, sizeof err), 'x');
  CHECK_EQ_INT(error_char("{id % 10 x}", cols, 1, err, sizeof err), 'x');
}

TEST(presets) {
  static const struct {
    const char *preset, *tmpl;
  } P[] = {
      {"salt:id:10", "{id % 10}|{id}"},
      {"salt:id:16", "{id % 16 :02}|{id}"},
      {"salt-pad:id:100", "{id % 100 :02}|{id}"},
      {"salt-reverse:id:10", "{id % 10}|{reverse(id)}"},
      {"hash-prefix:md5:userId:4", "{hex(md5(userId), 4)}|{userId}"},
      {"bucket-range:userId:16:ts:eventId", "{murmur3(userId) % 16 :02}_{ts}_{eventId}"},
      {"time-bucket:ts:deviceId:8", "{day(ts)}_{murmur3(deviceId) % 8}_{ts}_{deviceId}"},
  };
  for (size_t i = 0; i < sizeof P / sizeof P[0]; i++) {
    hfg_scheme *s;
    char err[256];
    REQUIRE(hfg_scheme_compile(P[i].preset, NULL, 0, &s, err, sizeof err) == 0);
    if (strcmp(hfg_scheme_template(s), P[i].tmpl)) {
      fprintf(stderr, "  %s -> %s\n", P[i].preset, hfg_scheme_template(s));
      t_failed_now = 1;
    }
    hfg_scheme_free(s);
  }
  KEY_IS("salt:id:10", "8|1420008", "id=1420008");
  KEY_IS("salt-reverse:id:10", "8|8000241", "id=1420008");
  CHECK(hfg_scheme_presets()[0] != NULL);
}

TEST(columns_discovered) {
  hfg_scheme *s;
  char err[256];
  REQUIRE(hfg_scheme_compile("{murmur3(userId) % 16 :02}_{ts}_{eventId}_{userId}", NULL, 0, &s, err,
                             sizeof err) == 0);
  CHECK_EQ_INT(hfg_scheme_column_count(s), 3);
  CHECK(!strcmp(hfg_scheme_column_name(s, 0), "userId"));
  CHECK(!strcmp(hfg_scheme_column_name(s, 2), "eventId"));
  CHECK_EQ_INT(hfg_scheme_column_index(s, "ts"), 1);
  hfg_bucket_info b;
  hfg_scheme_bucket(s, &b);
  CHECK_EQ_INT(b.kind, HFG_BUCKET_DECIMAL);
  CHECK_EQ_INT(b.buckets, 16);
  CHECK_EQ_INT(b.width, 2);
  hfg_scheme_free(s);
}

TEST(alloc_failures_are_clean) {
  /* Fail each allocation of a compile in turn: no leak, HFG_ENOMEM. */
  for (long n = 1; n < 200; n++) {
    hfg_scheme *s = NULL;
    char err[256];
    hfg_fault_alloc_arm(n);
    int rc = hfg_scheme_compile("{day(ts)}_{murmur3(deviceId) % 8}_{ts}_{deviceId}", NULL, 0, &s,
                                err, sizeof err);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (!fired) {
      CHECK_EQ_INT(rc, 0);
      hfg_scheme_free(s);
      break;
    }
    CHECK_EQ_INT(rc, HFG_ENOMEM);
    CHECK(s == NULL);
  }
}

/* ---- utilities ---- */

static void md5hex(const char *s, char out[33]) {
  uint8_t d[16];
  hfg_hash_md5(s, strlen(s), d);
  for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

TEST(md5_rfc1321_vectors) {
  static const char *const V[][2] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
       "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
       "57edf4a22be3c955ac49da2e2107b67a"},
  };
  for (size_t i = 0; i < sizeof V / sizeof V[0]; i++) {
    char h[33];
    md5hex(V[i][0], h);
    if (strcmp(h, V[i][1])) {
      fprintf(stderr, "  md5('%s') = %s\n", V[i][0], h);
      t_failed_now = 1;
    }
  }
  /* Lengths around the padding boundary (55, 56, 64 bytes). */
  char h[33];
  md5hex("0123456789012345678901234567890123456789012345678901234", h);
  CHECK(!strcmp(h, "6e7a4fc92eb1c3f6e652425bcc8d44b5"));
}

TEST(other_hashes) {
  CHECK_EQ_INT(hfg_hash_crc32("123456789", 9), 0xcbf43926u);
  CHECK(hfg_hash_xxh64("", 0) == 0xef46db3751d8e999ull);
  CHECK(hfg_hash_xxh64("abc", 3) == 0x44bc2cf5ad770999ull);
  CHECK_EQ_INT(hfg_murmur3_32("hello", 5, 0), 0x248bfa47u);
}

TEST(timefmt) {
  CHECK_EQ_INT(hfg_days_from_civil(1970, 1, 1), 0);
  CHECK_EQ_INT(hfg_days_from_civil(2000, 3, 1), 11017);
  CHECK_EQ_INT(hfg_days_from_civil(1969, 12, 31), -1);
  int64_t y;
  int m, d;
  hfg_civil_from_days(19915, &y, &m, &d); /* 2024-07-11 */
  CHECK(y == 2024 && m == 7 && d == 11);
  hfg_civil_from_days(-719468, &y, &m, &d); /* 0000-03-01 */
  CHECK(y == 0 && m == 3 && d == 1);
  for (int64_t k = -800000; k < 3000000; k += 997) { /* round trip over ~10000 years */
    hfg_civil_from_days(k, &y, &m, &d);
    if (hfg_days_from_civil(y, m, d) != k) {
      t_failed_now = 1;
      break;
    }
  }
  int64_t ms;
  CHECK_EQ_INT(hfg_time_parse("yyyy-MM-dd HH:mm:ss.SSS", "2024-02-29 23:59:59.123", 23, &ms), 0);
  CHECK_EQ_INT(ms, 1709251199123LL);
  CHECK_EQ_INT(hfg_time_parse("yyyy-MM-dd", "2023-02-29", 10, &ms), HFG_EPARSE);
  CHECK_EQ_INT(hfg_time_parse("yyyy-MM-dd", "2023-02-2", 9, &ms), HFG_EPARSE);
  CHECK_EQ_INT(hfg_time_parse("yyyy-MM-dd", "2023-02-011", 11, &ms), HFG_EPARSE);
  CHECK_EQ_INT(hfg_time_parse("yyyyMMdd", "19691231", 8, &ms), 0);
  CHECK_EQ_INT(ms, -86400000LL);
  char buf[32];
  CHECK_EQ_INT(hfg_time_format(1720695600000LL, "yyyyMMddHH", buf, sizeof buf), 10);
  CHECK(!strcmp(buf, "2024071111"));
  CHECK_EQ_INT(hfg_time_format(-1, "yyyy-MM-dd HH:mm:ss.SSS", buf, sizeof buf), 23);
  CHECK(!strcmp(buf, "1969-12-31 23:59:59.999"));
  CHECK_EQ_INT(hfg_time_format(0, "yyyyMMdd", buf, 8), -1); /* no room for the NUL */
  CHECK_EQ_INT(hfg_time_pattern_check("yyyy-MM-dd'T'HH"), 0);
  CHECK_EQ_INT(hfg_time_pattern_check("yyyy-MM-dd'T"), HFG_EPARSE);
  CHECK_EQ_INT(hfg_time_pattern_check("yy"), HFG_EPARSE);
}

T_MAIN

/* `{col}` and `{col % N}` take a shortcut past the general evaluator: they
 * must give what it gives. substr(id, 0, 100) is the same bytes through the
 * evaluator, so both templates must agree on every record, errors included. */
TEST(salt_shortcut_matches_evaluator) {
  const char *cols[] = {"id"};
  hfg_scheme *fast, *slow;
  char err[256];
  REQUIRE(hfg_scheme_compile("{id % 7 :03}|{id}", cols, 1, &fast, err, sizeof err) == 0);
  REQUIRE(hfg_scheme_compile("{substr(id, 0, 100) % 7 :03}|{substr(id, 0, 100)}", cols, 1, &slow,
                             err, sizeof err) == 0);
  static const char *fixed[] = {"0", "-1", "-7", "-8", "6", "1420008", "9223372036854775807",
                                "-9223372036854775808", "9223372036854775808", "123456789012345678",
                                "1234567890123456789", "", "+5", " 5", "5 ", "x", "-", "0x10",
                                "00012", "--1"};
  uint64_t seed = 42;
  for (int i = 0; i < 20000; i++) {
    char buf[32];
    const char *v;
    if (i < (int)(sizeof fixed / sizeof *fixed)) {
      v = fixed[i];
    } else {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      int64_t x = (int64_t)(seed >> 1) >> (seed % 60);
      snprintf(buf, sizeof buf, "%lld", (long long)(seed & 1 ? -x : x));
      v = buf;
    }
    hfg_field f = {v, strlen(v), 0};
    uint8_t k1[128], k2[128];
    size_t l1 = 0, l2 = 0;
    int r1 = hfg_scheme_eval(fast, &f, 1, k1, sizeof k1, &l1, err, sizeof err);
    int r2 = hfg_scheme_eval(slow, &f, 1, k2, sizeof k2, &l2, err, sizeof err);
    CHECK_EQ_INT(r1, r2);
    if (r1 == 0) CHECK(l1 == l2 && !memcmp(k1, k2, l1));
    if (r1 != r2 || (r1 == 0 && (l1 != l2 || memcmp(k1, k2, l1)))) {
      fprintf(stderr, "  value '%s'\n", v);
      break;
    }
  }
  hfg_scheme_free(fast);
  hfg_scheme_free(slow);
}

/* Integers of 1..8 digits take the word-at-a-time parse: every length, digits
 * at every position, a non-digit at every position (the bytes on both sides of
 * '0'..'9' and ones whose low nibble is a digit's), against the rendering of
 * {id % 100000000 :08} (the number itself, zero padded); longer and negative
 * numbers the digit loop. */
TEST(mod_parses_every_digit_string) {
  static const unsigned char bad[] = {'/', ':', '?', ' ', 'a', 0xb5, 0x35 + 0x40, 0xff};
  uint32_t r = 99;
  char val[32], kvs[48], out[64], want[16];
  size_t len;
  for (size_t n = 1; n <= 8; n++) {
    for (int round = 0; round < 60; round++) {
      for (size_t i = 0; i < n; i++) {
        r = r * 1103515245u + 12345u;
        val[i] = (char)('0' + (r >> 16) % 10);
      }
      if (round == 0) memset(val, '9', n);
      if (round == 1) memset(val, '0', n);
      val[n] = '\0';
      snprintf(kvs, sizeof kvs, "id=%s", val);
      const char *kv[] = {kvs};
      snprintf(want, sizeof want, "%08lld", atoll(val));
      REQUIRE(key_of("{id % 100000000 :08}", kv, 1, out, &len, NULL) == 0);
      if (strcmp(out, want)) {
        fprintf(stderr, "  %s: got %s want %s\n", val, out, want);
        t_failed_now = 1;
      }
      for (size_t k = 0; k < n && round < 8; k++) {
        char keep = val[k];
        val[k] = (char)bad[round];
        snprintf(kvs, sizeof kvs, "id=%s", val);
        CHECK_EQ_INT(key_of("{id % 10}", kv, 1, out, &len, NULL), HFG_EPARSE);
        val[k] = keep;
      }
    }
  }
  KEY_IS("{id % 100000000 :08}", "23456789", "id=123456789");
  KEY_IS("{id % 10}", "2", "id=-12345678");
  KEY_IS("{id % 7}", "0", "id=0");
}
