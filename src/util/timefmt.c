/*
 * Calendar arithmetic by the "days from civil" method: shift the year to
 * start in March so the leap day is the last day of the (shifted) year, then
 * count 400-year eras of 146097 days. Exact over the whole int64 day range we
 * accept, with no tables and no libc time zone state (gmtime/timegm would read
 * TZ and are not bounded the same way on every libc).
 */
#include "util/timefmt.h"

#include <stdio.h>
#include <string.h>

#include "hfilegen/status.h"

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t hfg_days_from_civil(int64_t year, int month, int day) {
  int64_t y = year - (month <= 2);
  int64_t era = floor_div(y, 400);
  int64_t yoe = y - era * 400;                                        /* 0..399 */
  int64_t mp = (month + 9) % 12;                                      /* March = 0 */
  int64_t doy = (153 * mp + 2) / 5 + day - 1;                         /* 0..365 */
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;                /* 0..146096 */
  return era * 146097 + doe - 719468;                                 /* 1970-03-01 shift */
}

void hfg_civil_from_days(int64_t days, int64_t *year, int *month, int *day) {
  int64_t z = days + 719468;
  int64_t era = floor_div(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int d = (int)(doy - (153 * mp + 2) / 5 + 1);
  int m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (m <= 2);
  *month = m;
  *day = d;
}

void hfg_tm_from_millis(int64_t millis, hfg_tm *out) {
  int64_t days = floor_div(millis, HFG_MILLIS_PER_DAY);
  int64_t rem = millis - days * HFG_MILLIS_PER_DAY;
  hfg_civil_from_days(days, &out->year, &out->month, &out->day);
  out->hour = (int)(rem / 3600000);
  out->minute = (int)(rem / 60000 % 60);
  out->second = (int)(rem / 1000 % 60);
  out->milli = (int)(rem % 1000);
}

int64_t hfg_tm_to_millis(const hfg_tm *t) {
  return hfg_days_from_civil(t->year, t->month, t->day) * HFG_MILLIS_PER_DAY +
         (int64_t)t->hour * 3600000 + (int64_t)t->minute * 60000 + (int64_t)t->second * 1000 +
         t->milli;
}

/* One pattern element: a numeric field of fixed width, a zone offset (its
 * letter's run length in the width), or a literal byte. */
enum { T_LIT, T_YEAR, T_MONTH, T_DAY, T_HOUR, T_MIN, T_SEC, T_MILLI, T_ISO, T_ISOX, T_RFC, T_BAD };

static size_t run_of(const char *p) {
  size_t r = 1;
  while (p[r] == p[0]) r++;
  return r;
}

/* Reads the next element at *i; *lit receives the literal byte. Returns the
 * kind, and the width through *w. Quoted text yields one literal per call via
 * the *inq state. */
static int next_elem(const char *p, size_t *i, int *inq, char *lit, int *w) {
  for (;;) {
    char c = p[*i];
    if (c == '\0') { /* end inside quotes: report a NUL literal, do not advance */
      *lit = '\0';
      return T_LIT;
    }
    if (c == '\'') {
      if (p[*i + 1] == '\'') { /* '' is a literal quote, in or out of quotes */
        *i += 2;
        *lit = '\'';
        return T_LIT;
      }
      *inq = !*inq;
      (*i)++;
      continue;
    }
    if (*inq || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      *lit = c;
      (*i)++;
      return T_LIT;
    }
    if (c == 'X' || c == 'x' || c == 'Z') { /* X/x: ISO 8601 offsets; Z: RFC 822 */
      size_t r = run_of(p + *i);
      if (r > 3) return T_BAD;
      *i += r;
      *w = (int)r;
      return c == 'X' ? T_ISO : c == 'x' ? T_ISOX : T_RFC;
    }
    static const struct { const char *tok; int kind; } toks[] = {
        {"yyyy", T_YEAR}, {"MM", T_MONTH}, {"dd", T_DAY}, {"HH", T_HOUR},
        {"mm", T_MIN},    {"ss", T_SEC},   {"SSS", T_MILLI}};
    for (size_t k = 0; k < sizeof toks / sizeof toks[0]; k++) {
      size_t n = strlen(toks[k].tok);
      if (!strncmp(p + *i, toks[k].tok, n)) {
        /* A longer run of the same letter ("yyyyy", "MMM") is not supported. */
        if (p[*i + n] == c) return T_BAD;
        *i += n;
        *w = (int)n;
        return toks[k].kind;
      }
    }
    return T_BAD;
  }
}

static int is_zone(int kind) { return kind == T_ISO || kind == T_ISOX || kind == T_RFC; }

/* Why the letters at p are refused (next_elem said T_BAD there). */
static void refused(const char *p, char *why, size_t whylen) {
  int r = (int)run_of(p);
  char c = p[0];
  if (c == 'z' || c == 'V' || c == 'v' || c == 'O')
    snprintf(why, whylen,
             "'%.*s' (a time zone name) is not supported: named zones need the tz database; "
             "use an offset field (X: Z or +01, XXX: Z or +01:00, Z: +0100)", r, p);
  else if (c == 'X' || c == 'x')
    snprintf(why, whylen, "'%.*s' (an offset with seconds) is not supported: use X, XX or XXX "
             "(x, xx, xxx)", r, p);
  else if (c == 'Z')
    snprintf(why, whylen, "'%.*s' is not supported: use Z (+HHMM) or XXX (Z or +HH:MM)", r, p);
  else if (strchr("yMdHmsS", c))
    snprintf(why, whylen, "'%.*s' is not supported: the fields are yyyy MM dd HH mm ss SSS "
             "(fixed widths)", r, p);
  else
    snprintf(why, whylen, "'%c' is not a supported pattern letter (yyyy MM dd HH mm ss SSS, "
             "zones X XX XXX x xx xxx Z; quote literal letters: 'T')", c);
}

int hfg_time_pattern_explain(const char *pattern, char *why, size_t whylen) {
  size_t i = 0;
  int inq = 0, w = 0, zones = 0;
  char lit = 0;
  why[0] = '\0';
  while (pattern[i]) {
    int kind = next_elem(pattern, &i, &inq, &lit, &w);
    if (kind == T_BAD) { /* i is at the refused letter */
      refused(pattern + i, why, whylen);
      return HFG_EPARSE;
    }
    if (kind == T_LIT && !lit) break;
    if (is_zone(kind) && ++zones > 1) {
      snprintf(why, whylen, "more than one zone offset field");
      return HFG_EPARSE;
    }
  }
  if (inq) {
    snprintf(why, whylen, "unterminated quote");
    return HFG_EPARSE;
  }
  return 0;
}

int hfg_time_pattern_check(const char *pattern) {
  char why[8];
  return hfg_time_pattern_explain(pattern, why, sizeof why);
}

static int days_in_month(int64_t y, int m) {
  static const int dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 ? 28 + leap : dm[m - 1];
}

static int two_digits(const char *s, size_t n, size_t j, int *v) {
  if (j + 2 > n || s[j] < '0' || s[j] > '9' || s[j + 1] < '0' || s[j + 1] > '9') return -1;
  *v = (s[j] - '0') * 10 + (s[j + 1] - '0');
  return 0;
}

/* Reads a zone offset of the given kind and letter count at s[*j]: its
 * milliseconds east of UTC. 0, or -1 when the text is no such offset. */
static int parse_offset(int kind, int w, const char *s, size_t n, size_t *j, int64_t *off) {
  if (kind == T_ISO && *j < n && s[*j] == 'Z') {
    (*j)++;
    *off = 0;
    return 0;
  }
  if (*j >= n || (s[*j] != '+' && s[*j] != '-')) return -1;
  int neg = s[*j] == '-', hh, mm = 0;
  size_t k = *j + 1;
  if (two_digits(s, n, k, &hh)) return -1;
  k += 2;
  if (kind != T_RFC && w == 3) { /* +HH:MM */
    if (k >= n || s[k] != ':' || two_digits(s, n, k + 1, &mm)) return -1;
    k += 3;
  } else if (kind == T_RFC || w == 2) { /* +HHMM */
    if (two_digits(s, n, k, &mm)) return -1;
    k += 2;
  } else if (two_digits(s, n, k, &mm) == 0) { /* X, x: +HH, or +HHMM */
    k += 2;
  }
  if (mm > 59 || hh * 60 + mm > 18 * 60) return -1;
  *off = (neg ? -1 : 1) * ((int64_t)hh * 3600000 + (int64_t)mm * 60000);
  *j = k;
  return 0;
}

int hfg_time_parse(const char *pattern, const char *s, size_t n, int64_t *millis) {
  hfg_tm t = {1970, 1, 1, 0, 0, 0, 0};
  size_t i = 0, j = 0;
  int inq = 0, w = 0, zones = 0;
  int64_t off = 0;
  char lit = 0;
  while (pattern[i]) {
    int kind = next_elem(pattern, &i, &inq, &lit, &w);
    if (kind == T_BAD) return HFG_EPARSE;
    if (kind == T_LIT) {
      if (!lit) break; /* unterminated quote reached the end */
      if (j >= n || s[j] != lit) return HFG_EPARSE;
      j++;
      continue;
    }
    if (is_zone(kind)) {
      if (++zones > 1 || parse_offset(kind, w, s, n, &j, &off)) return HFG_EPARSE;
      continue;
    }
    int v = 0;
    for (int k = 0; k < w; k++, j++) {
      if (j >= n || s[j] < '0' || s[j] > '9') return HFG_EPARSE;
      v = v * 10 + (s[j] - '0');
    }
    switch (kind) {
      case T_YEAR: t.year = v; break;
      case T_MONTH: t.month = v; break;
      case T_DAY: t.day = v; break;
      case T_HOUR: t.hour = v; break;
      case T_MIN: t.minute = v; break;
      case T_SEC: t.second = v; break;
      default: t.milli = v; break;
    }
  }
  if (inq || j != n) return HFG_EPARSE;
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > days_in_month(t.year, t.month) ||
      t.hour > 23 || t.minute > 59 || t.second > 59)
    return HFG_EPARSE;
  *millis = hfg_tm_to_millis(&t) - off; /* local time at +off is off ahead of UTC */
  return 0;
}

int hfg_time_format(int64_t millis, const char *pattern, char *out, size_t cap) {
  hfg_tm t;
  hfg_tm_from_millis(millis, &t);
  if (t.year < 0 || t.year > 9999 || cap == 0) return -1;
  size_t i = 0, o = 0;
  int inq = 0, w = 0;
  char lit = 0;
  while (pattern[i]) {
    int kind = next_elem(pattern, &i, &inq, &lit, &w);
    if (kind == T_BAD) return -1;
    if (kind == T_LIT) {
      if (!lit) break;
      if (o + 1 >= cap) return -1;
      out[o++] = lit;
      continue;
    }
    if (is_zone(kind)) { /* always UTC */
      const char *z = kind == T_ISO ? "Z"
                    : kind == T_RFC ? "+0000"
                    : w == 1 ? "+00" : w == 2 ? "+0000" : "+00:00";
      size_t zl = strlen(z);
      if (o + zl >= cap) return -1;
      memcpy(out + o, z, zl);
      o += zl;
      continue;
    }
    int64_t v = kind == T_YEAR ? t.year : kind == T_MONTH ? t.month : kind == T_DAY ? t.day
              : kind == T_HOUR ? t.hour : kind == T_MIN ? t.minute : kind == T_SEC ? t.second
              : t.milli;
    if (o + (size_t)w >= cap) return -1;
    for (int k = w - 1; k >= 0; k--, v /= 10) out[o + (size_t)k] = (char)('0' + v % 10);
    o += (size_t)w;
  }
  out[o] = '\0';
  return (int)o;
}
