/* Value encodings against Bytes.toBytes vectors, integer parsing, UTF-8. */
#include <math.h>

#include "build/values.h"
#include "t.h"
#include "util/alloc.h"

/* Encodes and compares with the expected bytes given as hex. */
static int enc_is(hfg_value_encoding enc, const char *text, const char *hex) {
  hfg_buf b = HFG_BUF_INIT;
  char err[128];
  int rc = hfg_value_encode(enc, text, strlen(text), &b, err, sizeof err);
  int ok = rc == 0 && b.len * 2 == strlen(hex);
  for (size_t i = 0; ok && i < b.len; i++) {
    char h[3];
    snprintf(h, sizeof h, "%02x", b.p[i]);
    ok = memcmp(h, hex + 2 * i, 2) == 0;
  }
  if (!ok) {
    fprintf(stderr, "  %s '%s': rc %d err '%s' got ", hfg_value_encoding_name(enc), text, rc, err);
    for (size_t i = 0; i < b.len; i++) fprintf(stderr, "%02x", b.p[i]);
    fprintf(stderr, " want %s\n", hex);
  }
  hfg_buf_free(&b);
  return ok;
}

/* Expects a parse error with exactly this message; out must stay unchanged. */
static int err_is(hfg_value_encoding enc, const char *text, size_t len, const char *msg) {
  hfg_buf b = HFG_BUF_INIT;
  hfg_buf_append(&b, "xy", 2);
  char err[128];
  int rc = hfg_value_encode(enc, text, len, &b, err, sizeof err);
  int ok = rc == HFG_EPARSE && strcmp(err, msg) == 0 && b.len == 2;
  if (!ok) fprintf(stderr, "  rc %d err '%s' len %zu, want '%s'\n", rc, err, b.len, msg);
  hfg_buf_free(&b);
  return ok;
}
#define ERR_IS(enc, text, msg) err_is(enc, text, strlen(text), msg)

TEST(names) {
  hfg_value_encoding e;
  const char *names[] = {"text", "long", "int", "short", "double", "float", "boolean", "hex", "base64"};
  for (int i = 0; i < 9; i++) {
    CHECK_EQ_INT(hfg_value_encoding_parse(names[i], &e), 0);
    CHECK_EQ_INT(e, i);
    CHECK(strcmp(hfg_value_encoding_name(e), names[i]) == 0);
  }
  CHECK_EQ_INT(hfg_value_encoding_parse("LONG", &e), 0);
  CHECK_EQ_INT(e, HFG_VALUE_LONG);
  CHECK_EQ_INT(hfg_value_encoding_parse("integer", &e), -1);
  CHECK_EQ_INT(hfg_value_encoding_parse("", &e), -1);
  CHECK(hfg_value_encoding_name(HFG_VALUE_COUNT_) == NULL);
}

TEST(integers) {
  CHECK(enc_is(HFG_VALUE_LONG, "1", "0000000000000001"));
  CHECK(enc_is(HFG_VALUE_LONG, "-1", "ffffffffffffffff"));
  CHECK(enc_is(HFG_VALUE_LONG, "+42", "000000000000002a"));
  CHECK(enc_is(HFG_VALUE_LONG, "9223372036854775807", "7fffffffffffffff"));
  CHECK(enc_is(HFG_VALUE_LONG, "-9223372036854775808", "8000000000000000"));
  CHECK(enc_is(HFG_VALUE_LONG, "000123", "000000000000007b"));
  CHECK(enc_is(HFG_VALUE_INT, "1420008", "0015aae8"));
  CHECK(enc_is(HFG_VALUE_INT, "-2147483648", "80000000"));
  CHECK(enc_is(HFG_VALUE_INT, "2147483647", "7fffffff"));
  CHECK(enc_is(HFG_VALUE_SHORT, "-2", "fffe"));
  CHECK(enc_is(HFG_VALUE_SHORT, "32767", "7fff"));
  CHECK(enc_is(HFG_VALUE_SHORT, "-32768", "8000"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "12a", "'12a' is not a long"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "", "'' is not a long"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "-", "'-' is not a long"));
  CHECK(ERR_IS(HFG_VALUE_LONG, " 1", "' 1' is not a long"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "1.0", "'1.0' is not a long"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "9223372036854775808", "'9223372036854775808' is out of range for long (a 64-bit integer: -9223372036854775808 to 9223372036854775807)"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "-9223372036854775809", "'-9223372036854775809' is out of range for long (a 64-bit integer: -9223372036854775808 to 9223372036854775807)"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "99999999999999999999999", "'99999999999999999999999' is out of range for long (a 64-bit integer: -9223372036854775808 to 9223372036854775807)"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "99999999999999999999999x", "'99999999999999999999999x' is not a long"));
  CHECK(ERR_IS(HFG_VALUE_INT, "2147483648", "'2147483648' is out of range for int (a 32-bit integer: -2147483648 to 2147483647)"));
  CHECK(ERR_IS(HFG_VALUE_INT, "-2147483649", "'-2147483649' is out of range for int (a 32-bit integer: -2147483648 to 2147483647)"));
  CHECK(ERR_IS(HFG_VALUE_INT, "x", "'x' is not an int"));
  CHECK(ERR_IS(HFG_VALUE_SHORT, "70000", "'70000' is out of range for short (a 16-bit integer: -32768 to 32767)"));
  CHECK(ERR_IS(HFG_VALUE_SHORT, "-32769", "'-32769' is out of range for short (a 16-bit integer: -32768 to 32767)"));
  /* messages escape bytes and cut long text */
  CHECK(err_is(HFG_VALUE_LONG, "1\n\xff", 3, "'1\\x0a\\xff' is not a long"));
  CHECK(ERR_IS(HFG_VALUE_LONG, "1234567890123456789012345678901234567890abcdefghij",
               "'1234567890123456789012345678901234567890...' is not a long"));
}

TEST(parse_i64_u64) {
  int64_t v = 7;
  CHECK_EQ_INT(hfg_parse_i64("-0", 2, &v), 0);
  CHECK_EQ_INT(v, 0);
  CHECK_EQ_INT(hfg_parse_i64("123x", 3, &v), 0); /* length-bounded */
  CHECK_EQ_INT(v, 123);
  v = 7;
  CHECK_EQ_INT(hfg_parse_i64("", 0, &v), HFG_EPARSE);
  CHECK_EQ_INT(hfg_parse_i64("+", 1, &v), HFG_EPARSE);
  CHECK_EQ_INT(hfg_parse_i64("1 ", 2, &v), HFG_EPARSE);
  CHECK_EQ_INT(hfg_parse_i64("9223372036854775808", 19, &v), HFG_ETOOBIG);
  CHECK_EQ_INT(v, 7);
  CHECK_EQ_INT(hfg_parse_i64("-9223372036854775808", 20, &v), 0);
  CHECK(v == INT64_MIN);
  uint64_t u;
  CHECK_EQ_INT(hfg_parse_u64("18446744073709551615", 20, &u), 0);
  CHECK(u == UINT64_MAX);
  CHECK_EQ_INT(hfg_parse_u64("18446744073709551616", 20, &u), HFG_ETOOBIG);
  CHECK_EQ_INT(hfg_parse_u64("-1", 2, &u), HFG_EPARSE);
}

/* Java's Double.parseDouble / Float.parseFloat grammar (trim of chars <= ' ',
 * NaN/Infinity case-sensitive, f/F/d/D suffix, hex needs p, overflow to
 * Infinity, underflow to 0). Expected bits computed outside C: doubles with
 * Python's correctly rounded float()/float.fromhex and struct.pack('>d');
 * floats by exact round-half-even of fractions.Fraction(text) to binary32. */
static const struct {
  const char *text, *hex;
} java_doubles[] = {
  {" 1.5", "3ff8000000000000"},
  {"1.5 ", "3ff8000000000000"},
  {"\t-2\r\n", "c000000000000000"},
  {"\x01\x1f 7 \x0b", "401c000000000000"},
  {"+1", "3ff0000000000000"},
  {"+.5", "3fe0000000000000"},
  {"5.", "4014000000000000"},
  {"1.e2", "4059000000000000"},
  {"00012.50", "4029000000000000"},
  {"1E-5", "3ee4f8b588e368f1"},
  {"1e+5", "40f86a0000000000"},
  {"1.5d", "3ff8000000000000"},
  {"1.5D", "3ff8000000000000"},
  {"1.5f", "3ff8000000000000"},
  {"-1.5F", "bff8000000000000"},
  {"1e5d", "40f86a0000000000"},
  {" 2.5d ", "4004000000000000"},
  {"0x1.8p1", "4008000000000000"},
  {"0X1P-2", "3fd0000000000000"},
  {"0x.8p1", "3ff0000000000000"},
  {"0x1.p1", "4000000000000000"},
  {"-0x1p1d", "c000000000000000"},
  {"+0xAbC.dEfp-4f", "406579bde0000000"},
  {"1e400", "7ff0000000000000"},
  {"-1e400", "fff0000000000000"},
  {"1.7976931348623159e308", "7ff0000000000000"},
  {"1.7976931348623158e308", "7fefffffffffffff"},
  {"1e99999999999999999999", "7ff0000000000000"},
  {"0x1p99999", "7ff0000000000000"},
  {"1e-400", "0000000000000000"},
  {"-1e-400", "8000000000000000"},
  {"1e-99999999999999999999", "0000000000000000"},
  {"2.4703282292062328e-324", "0000000000000001"},
  {"2.4703282292062327e-324", "0000000000000000"},
  {"0x1p-1075", "0000000000000000"},
  {"0x1.0000000000001p-1075", "0000000000000001"},
  {"NaN", "7ff8000000000000"},
  {"+NaN", "7ff8000000000000"},
  {" -NaN\t", "7ff8000000000000"},
  {"+Infinity", "7ff0000000000000"},
  {" -Infinity ", "fff0000000000000"},
}, java_floats[] = {
  {"0.1", "3dcccccd"},
  {" 1.5f ", "3fc00000"},
  {"3.4028235e38", "7f7fffff"},
  {"3.4028236e38", "7f800000"},
  {"1e39", "7f800000"},
  {"-1e39", "ff800000"},
  {"1e-50", "00000000"},
  {"-1e-50", "80000000"},
  {"1.4e-45", "00000001"},
  {"7e-46", "00000000"},
  {"7.1e-46", "00000001"},
  {"0x1.fffffep127", "7f7fffff"},
  {"0x1.ffffffp127", "7f800000"},
  {"0x1p128", "7f800000"},
  {"16777217", "4b800000"},
  {"16777219d", "4b800002"},
  {"1.0000000596046447753906250000000001", "3f800001"},  /* via double: 3f800000 */
  {"1.000000059604644775390625", "3f800000"},
  {" NaN ", "7fc00000"},
  {"-Infinity", "ff800000"},
};

/* Refused by both Double.parseDouble and Float.parseFloat (NumberFormatException). */
static const char *const java_rejects[] = {
    "nan", "NAN", "-nan", "inf", "-inf", "Inf", "infinity", "INFINITY", "Infinit", "NaNd",
    "Infinityf", "1e", "1e+", "1E-", "e5", ".", "-", "+", "", "   ", ".e1", "0x1.8", "0x",
    "0x.p1", "0xp1", "0x1p", "0x1p+", "0xg", "0x1.8e1", "1.5ff", "1.5fd", "1.5 f", "1.5 d",
    "1,5", "1.2.3", "1e5.5", "++1", "+-1", "1_000", "1 2", "1.5x", "d", "f", "0x1p1.5",
    "nan(1)", "NaN(1)", "\xc2\xa0" "1", "1\xc2\xa0", "\xd9\xa1", "0b1", "1e0x1", "+ 1",
};

TEST(java_grammar) {
  for (size_t i = 0; i < sizeof java_doubles / sizeof java_doubles[0]; i++)
    CHECK(enc_is(HFG_VALUE_DOUBLE, java_doubles[i].text, java_doubles[i].hex));
  for (size_t i = 0; i < sizeof java_floats / sizeof java_floats[0]; i++)
    CHECK(enc_is(HFG_VALUE_FLOAT, java_floats[i].text, java_floats[i].hex));
  for (size_t i = 0; i < sizeof java_rejects / sizeof java_rejects[0]; i++) {
    char msg[128];
    snprintf(msg, sizeof msg, "'%s' is not a double", java_rejects[i]);
    int plain = 1; /* messages spell other bytes as \\xNN */
    for (const char *c = java_rejects[i]; *c; c++) plain &= *c >= ' ' && *c <= '~';
    if (plain) CHECK(ERR_IS(HFG_VALUE_DOUBLE, java_rejects[i], msg));
    hfg_buf b = HFG_BUF_INIT;
    CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_DOUBLE, java_rejects[i], strlen(java_rejects[i]), &b, NULL, 0), HFG_EPARSE);
    CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_FLOAT, java_rejects[i], strlen(java_rejects[i]), &b, NULL, 0), HFG_EPARSE);
    CHECK_EQ_INT((int)b.len, 0);
    hfg_buf_free(&b);
  }
  /* NUL is <= ' ' too, so String.trim() drops it */
  hfg_buf b = HFG_BUF_INIT;
  CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_DOUBLE, "\0" "2\0", 3, &b, NULL, 0), 0);
  CHECK(b.len == 8 && b.p[0] == 0x40 && b.p[1] == 0x00);
  hfg_buf_free(&b);
  /* longer than any stack buffer: 0.(300 zeros)1e300 = 0.1 */
  char longer[400];
  size_t n = 0;
  n += (size_t)snprintf(longer + n, sizeof longer - n, "0.");
  for (int i = 0; i < 300; i++) longer[n++] = '0';
  snprintf(longer + n, sizeof longer - n, "1e300");
  CHECK(enc_is(HFG_VALUE_DOUBLE, longer, "3fb999999999999a"));
}

TEST(floating) {
  CHECK(enc_is(HFG_VALUE_DOUBLE, "1.5", "3ff8000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "-2", "c000000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "0", "0000000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "-0.0", "8000000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "0.1", "3fb999999999999a"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "1e308", "7fe1ccf385ebc8a0"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "4.9e-324", "0000000000000001"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "1e-400", "0000000000000000")); /* underflow, like Java */
  CHECK(enc_is(HFG_VALUE_DOUBLE, "NaN", "7ff8000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "-NaN", "7ff8000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "Infinity", "7ff0000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "-Infinity", "fff0000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, ".5", "3fe0000000000000"));
  CHECK(enc_is(HFG_VALUE_DOUBLE, "0x1.8p1", "4008000000000000"));
  CHECK(enc_is(HFG_VALUE_FLOAT, "1.5", "3fc00000"));
  CHECK(enc_is(HFG_VALUE_FLOAT, "0.1", "3dcccccd"));
  CHECK(enc_is(HFG_VALUE_FLOAT, "NaN", "7fc00000"));
  CHECK(enc_is(HFG_VALUE_FLOAT, "-Infinity", "ff800000"));
  CHECK(ERR_IS(HFG_VALUE_DOUBLE, "1.5x", "'1.5x' is not a double"));
  CHECK(ERR_IS(HFG_VALUE_DOUBLE, "", "'' is not a double"));
  CHECK(ERR_IS(HFG_VALUE_DOUBLE, "nan(1)", "'nan(1)' is not a double"));
  CHECK(ERR_IS(HFG_VALUE_DOUBLE, "1,5", "'1,5' is not a double"));
  CHECK(ERR_IS(HFG_VALUE_FLOAT, "abc", "'abc' is not a float"));
  /* the parse is bounded by len, not by a NUL */
  hfg_buf b = HFG_BUF_INIT;
  CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_DOUBLE, "2.5junk", 3, &b, NULL, 0), 0);
  CHECK(b.len == 8 && b.p[0] == 0x40 && b.p[1] == 0x04);
  hfg_buf_free(&b);
}

TEST(boolean_text) {
  CHECK(enc_is(HFG_VALUE_BOOLEAN, "true", "ff"));
  CHECK(enc_is(HFG_VALUE_BOOLEAN, "TRUE", "ff"));
  CHECK(enc_is(HFG_VALUE_BOOLEAN, "1", "ff"));
  CHECK(enc_is(HFG_VALUE_BOOLEAN, "False", "00"));
  CHECK(enc_is(HFG_VALUE_BOOLEAN, "0", "00"));
  CHECK(ERR_IS(HFG_VALUE_BOOLEAN, "yes", "'yes' is not a boolean"));
  CHECK(ERR_IS(HFG_VALUE_BOOLEAN, "", "'' is not a boolean"));
  CHECK(ERR_IS(HFG_VALUE_BOOLEAN, "truex", "'truex' is not a boolean"));
  CHECK(ERR_IS(HFG_VALUE_BOOLEAN, "tru", "'tru' is not a boolean"));
  CHECK(enc_is(HFG_VALUE_TEXT, "h\xc3\xa9", "68c3a9"));
  CHECK(enc_is(HFG_VALUE_TEXT, "", ""));
  /* encode appends */
  hfg_buf b = HFG_BUF_INIT;
  CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_SHORT, "1", 1, &b, NULL, 0), 0);
  CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_BOOLEAN, "1", 1, &b, NULL, 0), 0);
  CHECK(b.len == 3 && memcmp(b.p, "\x00\x01\xff", 3) == 0);
  char err[64];
  CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_COUNT_, "1", 1, &b, err, sizeof err), HFG_EINVAL);
  hfg_buf_free(&b);
}

TEST(hex_base64) {
  CHECK(enc_is(HFG_VALUE_HEX, "00ff", "00ff"));
  CHECK(enc_is(HFG_VALUE_HEX, "DeadBEEF", "deadbeef"));
  CHECK(enc_is(HFG_VALUE_HEX, "", ""));
  CHECK(ERR_IS(HFG_VALUE_HEX, "abc", "'abc' is not hex (odd number of digits)"));
  CHECK(ERR_IS(HFG_VALUE_HEX, "0g", "'0g' is not hex"));
  CHECK(enc_is(HFG_VALUE_BASE64, "AP8=", "00ff"));
  CHECK(enc_is(HFG_VALUE_BASE64, "", ""));
  CHECK(enc_is(HFG_VALUE_BASE64, "Zg==", "66"));
  CHECK(enc_is(HFG_VALUE_BASE64, "Zm8=", "666f"));
  CHECK(enc_is(HFG_VALUE_BASE64, "Zm9v", "666f6f"));
  CHECK(enc_is(HFG_VALUE_BASE64, "Zm9vYmFy", "666f6f626172"));
  CHECK(enc_is(HFG_VALUE_BASE64, "+/+/", "fbffbf"));
  CHECK(ERR_IS(HFG_VALUE_BASE64, "AP8", "'AP8' is not base64"));
  CHECK(ERR_IS(HFG_VALUE_BASE64, "AP9=", "'AP9=' is not base64")); /* non-zero spare bits */
  CHECK(ERR_IS(HFG_VALUE_BASE64, "Zh==", "'Zh==' is not base64"));
  CHECK(ERR_IS(HFG_VALUE_BASE64, "Z===", "'Z===' is not base64"));
  CHECK(ERR_IS(HFG_VALUE_BASE64, "Zg==Zg==", "'Zg==Zg==' is not base64"));
  CHECK(ERR_IS(HFG_VALUE_BASE64, "Zm=v", "'Zm=v' is not base64"));
  CHECK(ERR_IS(HFG_VALUE_BASE64, "Zm9-", "'Zm9-' is not base64")); /* URL alphabet */
}

TEST(alloc_failure) {
  hfg_buf b = HFG_BUF_INIT;
  hfg_fault_alloc_arm(1);
  CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_HEX, "00ff", 4, &b, NULL, 0), HFG_ENOMEM);
  hfg_fault_alloc_arm(1);
  CHECK_EQ_INT(hfg_value_encode(HFG_VALUE_LONG, "5", 1, &b, NULL, 0), HFG_ENOMEM);
  hfg_fault_alloc_arm(0);
  CHECK_EQ_INT(b.len, 0);
  hfg_buf_free(&b);
}

static int u8(const char *s) { return hfg_utf8_valid(s, strlen(s)); }

TEST(utf8) {
  CHECK(u8(""));
  CHECK(u8("plain ascii, long enough to use the 8-byte path"));
  CHECK(hfg_utf8_valid("a\0b", 3));
  CHECK(u8("\xc2\x80"));                 /* U+0080 */
  CHECK(u8("\xdf\xbf"));                 /* U+07FF */
  CHECK(u8("\xe0\xa0\x80"));             /* U+0800 */
  CHECK(u8("\xed\x9f\xbf"));             /* U+D7FF */
  CHECK(u8("\xee\x80\x80"));             /* U+E000 */
  CHECK(u8("\xef\xbf\xbf"));             /* U+FFFF */
  CHECK(u8("\xf0\x90\x80\x80"));         /* U+10000 */
  CHECK(u8("\xf4\x8f\xbf\xbf"));         /* U+10FFFF */
  CHECK(u8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 and more ascii after it"));
  CHECK(!u8("\x80"));                    /* lone continuation */
  CHECK(!u8("\xc0\x80"));                /* overlong NUL */
  CHECK(!u8("\xc1\xbf"));                /* overlong */
  CHECK(!u8("\xe0\x9f\xbf"));            /* overlong 3-byte */
  CHECK(!u8("\xf0\x8f\xbf\xbf"));        /* overlong 4-byte */
  CHECK(!u8("\xed\xa0\x80"));            /* U+D800 surrogate */
  CHECK(!u8("\xed\xbf\xbf"));            /* U+DFFF surrogate */
  CHECK(!u8("\xf4\x90\x80\x80"));        /* U+110000 */
  CHECK(!u8("\xf5\x80\x80\x80"));
  CHECK(!u8("\xff"));
  CHECK(!u8("\xc3"));                    /* truncated */
  CHECK(!u8("\xe2\x82"));
  CHECK(!u8("abcdefgh\xe2\x82"));        /* truncated after the fast path */
  CHECK(!u8("\xe2\x28\xa1"));            /* bad second byte */
  CHECK(!u8("\xe2\x82\x28"));            /* bad third byte */
  CHECK(!u8("\xf0\x9f\x98\x28"));        /* bad fourth byte */
  CHECK(!hfg_utf8_valid("\xc3\xa9", 1)); /* bounded by n */
}

T_MAIN
