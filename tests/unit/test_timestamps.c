/* build/timestamps: how a timestamp column is read (units, magnitudes,
 * patterns), and what is refused before any record. */
#include <string.h>

#include "hfilegen/status.h"
#include "build/timestamps.h"
#include "t.h"

static const char *const cols[] = {"id", "ts", "when"};

/* A stamp for column ts (or `col`) read by `format`; the init's rc. */
static int stamp(hfg_stamp *s, const char *col, const char *format, char *why, size_t wl) {
  hfg_build_options o;
  hfg_build_options_init(&o);
  o.timestamp_column = col;
  o.timestamp_format = format;
  return hfg_stamp_init(s, &o, cols, 3, why, wl);
}

/* Parses text by the stamp: the rc, the timestamp in *ts, the reason in why. */
static int value(const hfg_stamp *s, const char *text, int64_t *ts, char *why) {
  hfg_field f = {text, strlen(text), 0};
  why[0] = '\0';
  return hfg_stamp_parse(s, &f, ts, why, 512);
}

TEST(plain_column_is_checked_milliseconds) {
  hfg_stamp s;
  char why[512];
  REQUIRE(stamp(&s, "ts", NULL, why, sizeof why) == 0);
  CHECK_EQ_INT(s.kind, HFG_STAMP_MS_CHECKED);
  CHECK_EQ_INT(s.column, 1);
  int64_t ts = -1;
  CHECK_EQ_INT(value(&s, "1720695600123", &ts, why), 0);
  CHECK_EQ_INT(ts, 1720695600123LL);
  CHECK_EQ_INT(value(&s, "100000000000", &ts, why), 0); /* the edges are milliseconds */
  CHECK_EQ_INT(ts, 100000000000LL);
  CHECK_EQ_INT(value(&s, "100000000000000", &ts, why), 0);
  CHECK_EQ_INT(ts, 100000000000000LL);
  static const struct { const char *text, *unit, *fix; } v[] = {
      {"1720695600", "epoch seconds", "column:ts:s"},
      {"99999999999", "epoch seconds", "column:ts:s"},
      {"0", "epoch seconds", "column:ts:s"},
      {"100000000000001", "epoch microseconds", "column:ts:us"},
      {"1720695600123456", "epoch microseconds", "column:ts:us"},
      {"100000000000000000", "epoch microseconds", "column:ts:us"},
      {"100000000000000001", "epoch nanoseconds", "column:ts:ns"},
      {"1720695600123456789", "epoch nanoseconds", "column:ts:ns"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    ts = -7;
    int rc = value(&s, v[i].text, &ts, why);
    if (rc != HFG_EPARSE || ts != -7 || !strstr(why, v[i].unit) || !strstr(why, v[i].fix) ||
        !strstr(why, "column:ts:ms") || !strstr(why, v[i].text)) {
      fprintf(stderr, "  %s: rc %d ts %lld '%s'\n", v[i].text, rc, (long long)ts, why);
      t_failed_now = 1;
    }
  }
  CHECK_EQ_INT(value(&s, "-1720695600123", &ts, why), HFG_EPARSE);
  CHECK(strstr(why, "negative") != NULL);
  CHECK_EQ_INT(value(&s, "17206956001x", &ts, why), HFG_EPARSE);
  CHECK(strstr(why, "not an integer (epoch milliseconds)") != NULL);
  CHECK_EQ_INT(value(&s, "", &ts, why), HFG_EPARSE);
  CHECK_EQ_INT(value(&s, "99999999999999999999", &ts, why), HFG_EPARSE); /* past int64 */
}

TEST(explicit_units_convert) {
  hfg_stamp s;
  char why[512];
  int64_t ts = 0;
  REQUIRE(stamp(&s, "ts", "s", why, sizeof why) == 0);
  CHECK_EQ_INT(s.kind, HFG_STAMP_S);
  CHECK_EQ_INT(value(&s, "1720695600", &ts, why), 0);
  CHECK_EQ_INT(ts, 1720695600000LL);
  CHECK_EQ_INT(value(&s, "0", &ts, why), 0);
  CHECK_EQ_INT(ts, 0);
  CHECK_EQ_INT(value(&s, "9223372036854775", &ts, why), 0); /* INT64_MAX / 1000 */
  CHECK_EQ_INT(ts, 9223372036854775000LL);
  CHECK_EQ_INT(value(&s, "9223372036854776", &ts, why), HFG_EPARSE);
  CHECK(strstr(why, "do not fit") != NULL);
  CHECK_EQ_INT(value(&s, "-1", &ts, why), HFG_EPARSE);
  CHECK_EQ_INT(value(&s, "1.5", &ts, why), HFG_EPARSE);
  CHECK(strstr(why, "not an integer (epoch seconds)") != NULL);

  REQUIRE(stamp(&s, "ts", "ms", why, sizeof why) == 0);
  CHECK_EQ_INT(s.kind, HFG_STAMP_MS);
  CHECK_EQ_INT(value(&s, "5", &ts, why), 0); /* said to be ms: no magnitude check */
  CHECK_EQ_INT(ts, 5);
  CHECK_EQ_INT(value(&s, "1720695600123456", &ts, why), 0);
  CHECK_EQ_INT(ts, 1720695600123456LL);

  REQUIRE(stamp(&s, "ts", "us", why, sizeof why) == 0);
  CHECK_EQ_INT(value(&s, "1720695600123999", &ts, why), 0); /* truncated */
  CHECK_EQ_INT(ts, 1720695600123LL);
  CHECK_EQ_INT(value(&s, "999", &ts, why), 0);
  CHECK_EQ_INT(ts, 0);
  CHECK_EQ_INT(value(&s, "-1000", &ts, why), HFG_EPARSE);

  REQUIRE(stamp(&s, "ts", "ns", why, sizeof why) == 0);
  CHECK_EQ_INT(value(&s, "1720695600123999999", &ts, why), 0);
  CHECK_EQ_INT(ts, 1720695600123LL);
  CHECK_EQ_INT(value(&s, "9223372036854775807", &ts, why), 0);
  CHECK_EQ_INT(ts, 9223372036854LL);
}

TEST(patterns) {
  hfg_stamp s;
  char why[512];
  int64_t ts = 0;
  REQUIRE(stamp(&s, "when", "yyyy-MM-dd'T'HH:mm:ssXXX", why, sizeof why) == 0);
  CHECK_EQ_INT(s.kind, HFG_STAMP_PATTERN);
  CHECK_EQ_INT(s.column, 2);
  CHECK_EQ_INT(value(&s, "2024-03-01T01:00:00+05:30", &ts, why), 0);
  CHECK_EQ_INT(ts, 1709235000000LL);
  CHECK_EQ_INT(value(&s, "2024-03-01 01:00:00", &ts, why), HFG_EPARSE);
  CHECK(strstr(why, "does not match 'yyyy-MM-dd'T'HH:mm:ssXXX'") != NULL);
  CHECK_EQ_INT(value(&s, "1970-01-01T00:30:00+01:00", &ts, why), HFG_EPARSE);
  CHECK(strstr(why, "before 1970") != NULL);
  /* "ss" is a pattern (seconds of the minute), "s" a unit */
  REQUIRE(stamp(&s, "ts", "ss", why, sizeof why) == 0);
  CHECK_EQ_INT(s.kind, HFG_STAMP_PATTERN);
  CHECK_EQ_INT(value(&s, "07", &ts, why), 0);
  CHECK_EQ_INT(ts, 7000);
}

TEST(refused_before_any_record) {
  hfg_stamp s;
  char why[512];
  CHECK_EQ_INT(stamp(&s, "when", "yyyy-MM-dd HH:mm:ss z", why, sizeof why), HFG_EINVAL);
  CHECK(strstr(why, "'when'") && strstr(why, "'z' (a time zone name)"));
  CHECK_EQ_INT(stamp(&s, "when", "yyyy-MM-dd HH:mm:ss ZZZZ", why, sizeof why), HFG_EINVAL);
  CHECK(strstr(why, "'ZZZZ'") != NULL);
  CHECK_EQ_INT(stamp(&s, "when", "sec", why, sizeof why), HFG_EINVAL); /* neither unit nor pattern */
  CHECK(strstr(why, "units: s, ms, us, ns") != NULL);
  CHECK_EQ_INT(stamp(&s, "nope", NULL, why, sizeof why), HFG_EINVAL);
  CHECK(strstr(why, "timestamp column 'nope' is not a column") != NULL);

  hfg_build_options o;
  hfg_build_options_init(&o);
  CHECK_EQ_INT(hfg_stamp_init(&s, &o, cols, 3, why, sizeof why), 0); /* the constant form */
  CHECK_EQ_INT(s.kind, HFG_STAMP_NONE);
  CHECK_EQ_INT(s.column, -1);
  o.job_timestamp = 5; /* names files only when cells take a column */
  CHECK_EQ_INT(hfg_stamp_init(&s, &o, cols, 3, why, sizeof why), HFG_EINVAL);
  CHECK(strstr(why, "job timestamp") != NULL);
  o.timestamp_column = "ts";
  CHECK_EQ_INT(hfg_stamp_init(&s, &o, cols, 3, why, sizeof why), 0);
}

T_MAIN
