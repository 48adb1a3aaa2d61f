/* util/timefmt: zone offsets (X XX XXX x xx xxx Z), refused letters, and the
 * calendar across day, month, year and leap-day boundaries. Expected instants
 * come from Python's datetime.fromisoformat(...).timestamp(), an independent
 * implementation. */
#include <string.h>

#include "hfilegen/status.h"
#include "t.h"
#include "util/timefmt.h"

static int parse(const char *pat, const char *s, int64_t *ms) {
  return hfg_time_parse(pat, s, strlen(s), ms);
}

#define ISO "yyyy-MM-dd'T'HH:mm:ss"

TEST(offsets_against_python) {
  static const struct { const char *pat, *s; int64_t ms; } v[] = {
      {ISO "XXX", "2024-03-01T01:00:00+05:30", 1709235000000LL},  /* back across a leap day */
      {ISO "XXX", "2023-12-31T23:30:00-08:00", 1704094200000LL},  /* forward into a new year */
      {ISO "XXX", "2024-07-11T23:59:59Z", 1720742399000LL},
      {ISO "X", "2024-07-11T23:59:59Z", 1720742399000LL},
      {ISO "XX", "2024-07-11T23:59:59Z", 1720742399000LL},
      {ISO ".SSSXXX", "2024-02-29T23:59:59.123+00:00", 1709251199123LL},
      {ISO "XXX", "2000-02-29T20:00:00-08:00", 951883200000LL},   /* to March 1st, 400-year leap */
      {ISO "XXX", "2100-02-28T23:00:00-01:00", 4107542400000LL},  /* 2100 is not a leap year */
      {ISO "XXX", "1970-01-01T00:00:00+01:00", -3600000LL},       /* before the epoch */
      {ISO "XXX", "2024-07-11T12:00:00+18:00", 1720634400000LL},  /* the limits */
      {ISO "XXX", "2024-07-11T12:00:00-18:00", 1720764000000LL},
      {ISO "X", "2024-07-11T12:00:00+02", 1720692000000LL},
      {ISO "X", "2024-07-11T12:00:00+0545", 1720678500000LL},
      {ISO "XX", "2024-07-11T12:00:00+0545", 1720678500000LL},
      {ISO "x", "2024-07-11T12:00:00+02", 1720692000000LL},
      {ISO "xx", "2024-07-11T12:00:00+0200", 1720692000000LL},
      {ISO "xxx", "2024-07-11T12:00:00+05:45", 1720678500000LL},
      {"yyyy-MM-dd HH:mm:ss Z", "2024-07-11 12:00:00 +0200", 1720692000000LL},
      {"yyyy-MM-dd HH:mm:ss ZZZ", "2024-07-11 12:00:00 +0545", 1720678500000LL},
      {"yyyy-MM-dd HH:mm:ss Z", "2024-03-01 01:00:00 +0530", 1709235000000LL},
      {"XXX yyyy-MM-dd HH:mm", "-08:00 2023-12-31 23:30", 1704094200000LL}, /* zone first */
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    int64_t ms = 0;
    int rc = parse(v[i].pat, v[i].s, &ms);
    if (rc != 0 || ms != v[i].ms) {
      fprintf(stderr, "  %s by %s: rc %d, %lld, expected %lld\n", v[i].s, v[i].pat, rc,
              (long long)ms, (long long)v[i].ms);
      t_failed_now = 1;
    }
  }
}

TEST(offset_shifts_local_time_exactly) {
  /* every offset in 15-minute steps, on instants around midnight of days
   * across leap and non-leap Februaries: local text at +off = UTC + off */
  static const char *const days[] = {"2023-02-28", "2024-02-28", "2024-02-29", "2024-12-31",
                                     "1999-12-31", "2000-02-29"};
  for (size_t d = 0; d < sizeof days / sizeof days[0]; d++) {
    int64_t base;
    char txt[64];
    snprintf(txt, sizeof txt, "%s 23:45:00", days[d]);
    REQUIRE(parse("yyyy-MM-dd HH:mm:ss", txt, &base) == 0);
    for (int q = -72; q <= 72; q++) { /* -18:00 .. +18:00 */
      int64_t off = (int64_t)q * 15 * 60000, utc = base + 7 * 3600000LL;
      char local[32], zone[16], line[64];
      /* the local fields of utc + off, formatted as UTC text, then labelled with the offset */
      REQUIRE(hfg_time_format(utc + off, "yyyy-MM-dd HH:mm:ss", local, sizeof local) == 19);
      int a = q < 0 ? -q : q;
      snprintf(zone, sizeof zone, "%c%02d:%02d", q < 0 ? '-' : '+', a / 4, a % 4 * 15);
      snprintf(line, sizeof line, "%s%s", local, zone);
      int64_t got = 0;
      if (parse("yyyy-MM-dd HH:mm:ssXXX", line, &got) || got != utc) {
        fprintf(stderr, "  %s: %lld, expected %lld\n", line, (long long)got, (long long)utc);
        t_failed_now = 1;
        return;
      }
    }
  }
}

TEST(bad_offsets_do_not_match) {
  static const struct { const char *pat, *s; } v[] = {
      {ISO "XXX", "2024-07-11T12:00:00+18:01"}, /* past 18:00 */
      {ISO "XXX", "2024-07-11T12:00:00+19:00"},
      {ISO "XXX", "2024-07-11T12:00:00+05:60"},
      {ISO "XXX", "2024-07-11T12:00:00 05:30"}, /* no sign */
      {ISO "XXX", "2024-07-11T12:00:00+5:30"},
      {ISO "XXX", "2024-07-11T12:00:00+0530"},  /* XXX wants the colon */
      {ISO "XXX", "2024-07-11T12:00:00+05"},
      {ISO "XXX", "2024-07-11T12:00:00z"},
      {ISO "XXX", "2024-07-11T12:00:00"},
      {ISO "XX", "2024-07-11T12:00:00+05"},
      {ISO "XX", "2024-07-11T12:00:00+05:30"},
      {ISO "X", "2024-07-11T12:00:00+05:30"},   /* ":30" is left over */
      {ISO "X", "2024-07-11T12:00:00+053"},
      {ISO "xxx", "2024-07-11T12:00:00Z"},      /* x has no Z */
      {ISO "x", "2024-07-11T12:00:00Z"},
      {"yyyy-MM-dd HH:mm:ss Z", "2024-07-11 12:00:00 Z"},
      {"yyyy-MM-dd HH:mm:ss Z", "2024-07-11 12:00:00 +02:00"},
      {"yyyy-MM-dd HH:mm:ss Z", "2024-07-11 12:00:00 +02"},
      {ISO "XXX", "2024-02-30T12:00:00Z"},      /* the date is still checked */
      {ISO "XXX", "2023-02-29T12:00:00+01:00"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    int64_t ms;
    if (parse(v[i].pat, v[i].s, &ms) != HFG_EPARSE) {
      fprintf(stderr, "  %s by %s was accepted\n", v[i].s, v[i].pat);
      t_failed_now = 1;
    }
  }
}

TEST(refused_patterns_name_the_letter) {
  static const struct { const char *pat, *says; } v[] = {
      {"yyyy-MM-dd HH:mm:ss z", "'z' (a time zone name)"},
      {"yyyy-MM-dd HH:mm:ss zzzz", "'zzzz' (a time zone name)"},
      {"yyyy-MM-dd'T'HH:mm:ss'['VV']'", "'VV' (a time zone name)"},
      {"yyyy-MM-dd HH:mm:ssXXXX", "'XXXX' (an offset with seconds)"},
      {"yyyy-MM-dd HH:mm:ssxxxxx", "'xxxxx' (an offset with seconds)"},
      {"yyyy-MM-dd HH:mm:ss ZZZZ", "'ZZZZ' is not supported"},
      {"yyyy-MM-dd HH:mm:ssXXX Z", "more than one zone offset field"},
      {"yyyy-MM-dd a", "'a' is not a supported pattern letter"},
      {"yy-MM-dd", "'yy' is not supported"},
      {"yyyy-MMM-dd", "'MMM' is not supported"},
      {"yyyy-MM-dd'T", "unterminated quote"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    char why[256];
    int rc = hfg_time_pattern_explain(v[i].pat, why, sizeof why);
    if (rc != HFG_EPARSE || !strstr(why, v[i].says)) {
      fprintf(stderr, "  %s: rc %d, '%s'\n", v[i].pat, rc, why);
      t_failed_now = 1;
    }
    CHECK_EQ_INT(hfg_time_pattern_check(v[i].pat), HFG_EPARSE);
    int64_t ms;
    CHECK_EQ_INT(parse(v[i].pat, "2024-07-11 12:00:00 +0200", &ms), HFG_EPARSE);
  }
  char why[256] = "x";
  CHECK_EQ_INT(hfg_time_pattern_explain(ISO "XXX", why, sizeof why), 0);
  CHECK(why[0] == '\0');
  CHECK_EQ_INT(hfg_time_pattern_check("'z' yyyy X"), 0); /* quoted letters are text */
  CHECK_EQ_INT(hfg_time_pattern_check("yyyyMMddHHmmssSSSZ"), 0);
}

TEST(format_writes_utc_offsets) {
  char buf[64];
  int64_t t = 1720742399000LL; /* 2024-07-11T23:59:59Z */
  static const struct { const char *pat, *want; } v[] = {
      {ISO "X", "2024-07-11T23:59:59Z"},       {ISO "XX", "2024-07-11T23:59:59Z"},
      {ISO "XXX", "2024-07-11T23:59:59Z"},     {ISO "x", "2024-07-11T23:59:59+00"},
      {ISO "xx", "2024-07-11T23:59:59+0000"},  {ISO "xxx", "2024-07-11T23:59:59+00:00"},
      {ISO "Z", "2024-07-11T23:59:59+0000"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    int k = hfg_time_format(t, v[i].pat, buf, sizeof buf);
    CHECK_EQ_INT(k, (long long)strlen(v[i].want));
    if (k >= 0 && strcmp(buf, v[i].want)) {
      fprintf(stderr, "  %s: '%s', expected '%s'\n", v[i].pat, buf, v[i].want);
      t_failed_now = 1;
    }
    int64_t back = 0; /* and what is written parses back to the instant */
    CHECK(k >= 0 && parse(v[i].pat, buf, &back) == 0 && back == t);
  }
  CHECK_EQ_INT(hfg_time_format(t, ISO "xxx", buf, 25), -1); /* one byte short of the NUL */
}

T_MAIN
