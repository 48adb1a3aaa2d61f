/*
 * Epoch milliseconds <-> UTC calendar, for the time functions of rowkey
 * schemes (day(), hour(), month(), millis(); format-specs/rowkey-templates.md).
 * Proleptic Gregorian calendar, UTC only, no leap seconds (as java.time).
 *
 * Patterns use the Java SimpleDateFormat letters with fixed widths:
 *   yyyy year (4 digits, 0000..9999)   MM month 01..12   dd day 01..31
 *   HH hour 00..23   mm minute   ss second   SSS milliseconds
 * and at most one zone offset field (as java.time's DateTimeFormatter):
 *   X    Z, +HH or +HHMM        XX   Z or +HHMM       XXX  Z or +HH:MM
 *   x    +HH or +HHMM           xx   +HHMM            xxx  +HH:MM
 *   Z    +HHMM (RFC 822; also ZZ, ZZZ)
 * where + is '+' or '-', HH 00..18, MM 00..59, at most 18:00 in all. The
 * fields before it are local time at that offset; the result is UTC.
 * Without a zone field the text is UTC. Formatting always writes UTC (X: "Z",
 * x: "+00", xx and Z: "+0000", xxx: "+00:00").
 * Named zones (z, VV, "Europe/Paris") are refused: they need the tz database,
 * whose rules change; so are ZZZZ, XXXX and every other letter.
 * Any other character matches itself; text in single quotes is literal
 * ('T'), and '' is a quote. Parsing requires the input to match the pattern
 * exactly (same length, digits where digits are due); fields the pattern lacks
 * default to January 1st, 00:00:00.000.
 */
#ifndef HFG_UTIL_TIMEFMT_H
#define HFG_UTIL_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

#define HFG_MILLIS_PER_DAY 86400000LL

typedef struct hfg_tm {
  int64_t year;
  int month;  /* 1..12 */
  int day;    /* 1..31 */
  int hour, minute, second, milli;
} hfg_tm;

/* Days since 1970-01-01 (may be negative) of a valid date, and back. */
int64_t hfg_days_from_civil(int64_t year, int month, int day);
void hfg_civil_from_days(int64_t days, int64_t *year, int *month, int *day);

void hfg_tm_from_millis(int64_t millis, hfg_tm *out);
/* The fields must be in range (hfg_time_parse checks them). */
int64_t hfg_tm_to_millis(const hfg_tm *t);

/* Checks a pattern: 0, or HFG_EPARSE for an unterminated quote or a pattern
 * letter (a-z, A-Z outside quotes) that is not one of the tokens above. */
int hfg_time_pattern_check(const char *pattern);

/* hfg_time_pattern_check with the reason in why (NUL-terminated, capacity
 * whylen > 0), naming the letter that is refused: "'z' (a time zone name)
 * ...". 0 or HFG_EPARSE. */
int hfg_time_pattern_explain(const char *pattern, char *why, size_t whylen);

/* Parses s[0..n) by pattern into epoch millis. 0 or HFG_EPARSE. */
int hfg_time_parse(const char *pattern, const char *s, size_t n, int64_t *millis);

/* Formats millis by pattern into out (capacity cap, NUL-terminated). Returns
 * the length, or -1 when it does not fit or the year is outside 0..9999. */
int hfg_time_format(int64_t millis, const char *pattern, char *out, size_t cap);

#endif
