/*
 * Cell timestamps from a column. The magnitude check of the plain form is
 * what stops the common mistake of an export in epoch seconds (or Java
 * microseconds): taken as milliseconds such cells land in January 1970, and
 * with a TTL on the family HBase expires them at once.
 */
#include "build/timestamps.h"

#include <stdio.h>
#include <string.h>

#include "build/values.h"
#include "util/timefmt.h"

/* Plain milliseconds outside [MS_LOW, MS_HIGH] are taken for another unit:
 * 1e11 ms is 1973-03-03 (1e11 s is year 5138), 1e14 ms is year 5138 (1e14 us
 * is 1973); above 1e17 microseconds would be past 5138 again: nanoseconds. */
#define MS_LOW 100000000000LL
#define MS_HIGH 100000000000000LL
#define US_HIGH 100000000000000000LL

static const struct { const char *word; int kind; } units[] = {
    {"s", HFG_STAMP_S}, {"ms", HFG_STAMP_MS}, {"us", HFG_STAMP_US}, {"ns", HFG_STAMP_NS}};

int hfg_stamp_init(hfg_stamp *s, const hfg_build_options *o, const char *const *names, size_t n,
                   char *why, size_t whylen) {
  memset(s, 0, sizeof *s);
  s->column = -1;
  if (!o->timestamp_column) {
    if (o->job_timestamp >= 0) {
      snprintf(why, whylen, "a job timestamp is for jobs that take the cell timestamps from a "
                            "column: without one the timestamp itself names the files");
      return HFG_EINVAL;
    }
    return 0;
  }
  s->name = o->timestamp_column;
  for (size_t i = 0; i < n && s->column < 0; i++)
    if (!strcmp(names[i], s->name)) s->column = (long)i;
  if (s->column < 0) {
    char hint[400];
    snprintf(why, whylen, "timestamp column '%s' is not a column%s", s->name,
             hfg_columns_hint(hint, sizeof hint, names, n, s->name, strlen(s->name)));
    return HFG_EINVAL;
  }
  s->kind = HFG_STAMP_MS_CHECKED;
  const char *f = o->timestamp_format;
  if (!f) return 0;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (!strcmp(f, units[i].word)) {
      s->kind = units[i].kind;
      return 0;
    }
  char msg[256];
  if (hfg_time_pattern_explain(f, msg, sizeof msg)) {
    snprintf(why, whylen, "timestamp column '%s': pattern '%s': %s (units: s, ms, us, ns)",
             s->name, f, msg);
    return HFG_EINVAL;
  }
  s->kind = HFG_STAMP_PATTERN;
  s->pattern = f;
  return 0;
}

#define QUOTED(f) (int)((f)->len > 40 ? 40 : (f)->len), (f)->p

int hfg_stamp_parse(const hfg_stamp *s, const hfg_field *f, int64_t *ts, char *why,
                    size_t whylen) {
  if (s->kind == HFG_STAMP_PATTERN) {
    if (hfg_time_parse(s->pattern, f->p, f->len, ts)) {
      snprintf(why, whylen, "timestamp column '%s': '%.*s' does not match '%s'", s->name,
               QUOTED(f), s->pattern);
      return HFG_EPARSE;
    }
    if (*ts < 0) {
      snprintf(why, whylen, "timestamp column '%s': '%.*s' is before 1970 (a negative "
               "timestamp)", s->name, QUOTED(f));
      return HFG_EPARSE;
    }
    return 0;
  }
  static const char *const unit_name[] = {
      [HFG_STAMP_MS_CHECKED] = "epoch milliseconds", [HFG_STAMP_S] = "epoch seconds",
      [HFG_STAMP_MS] = "epoch milliseconds", [HFG_STAMP_US] = "epoch microseconds",
      [HFG_STAMP_NS] = "epoch nanoseconds"};
  int64_t v;
  int prc = hfg_parse_i64(f->p, f->len, &v);
  if (prc == HFG_ETOOBIG) {
    snprintf(why, whylen, "timestamp column '%s': '%.*s' is out of the 64-bit integer range "
             "(%s up to 9223372036854775807)", s->name, QUOTED(f), unit_name[s->kind]);
    return HFG_EPARSE;
  }
  if (prc) {
    snprintf(why, whylen, "timestamp column '%s': '%.*s' is not an integer (%s)", s->name,
             QUOTED(f), unit_name[s->kind]);
    return HFG_EPARSE;
  }
  if (v < 0) {
    snprintf(why, whylen, "timestamp column '%s': '%.*s' is negative (before 1970)", s->name,
             QUOTED(f));
    return HFG_EPARSE;
  }
  switch (s->kind) {
    case HFG_STAMP_MS_CHECKED:
      if (v < MS_LOW || v > MS_HIGH) {
        const char *unit = v < MS_LOW ? "seconds" : v <= US_HIGH ? "microseconds" : "nanoseconds";
        const char *word = v < MS_LOW ? "s" : v <= US_HIGH ? "us" : "ns";
        snprintf(why, whylen,
                 "timestamp column '%s': '%.*s' looks like epoch %s, not milliseconds (as "
                 "milliseconds it is %s): say the unit with column:%s:%s (or column:%s:ms "
                 "if it is milliseconds)",
                 s->name, QUOTED(f), unit, v < MS_LOW ? "before 1973" : "after the year 5138",
                 s->name, word, s->name);
        return HFG_EPARSE;
      }
      *ts = v;
      return 0;
    case HFG_STAMP_S:
      if (v > INT64_MAX / 1000) {
        snprintf(why, whylen, "timestamp column '%s': '%.*s' epoch seconds do not fit in "
                 "milliseconds", s->name, QUOTED(f));
        return HFG_EPARSE;
      }
      *ts = v * 1000;
      return 0;
    case HFG_STAMP_MS: *ts = v; return 0;
    case HFG_STAMP_US: *ts = v / 1000; return 0;
    default: *ts = v / 1000000; return 0;
  }
}
