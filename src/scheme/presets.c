/*
 * Rowkey presets (hfg_scheme_presets): names with arguments that expand to
 * a template before it is compiled, e.g. salt:id:10 to {id % 10}|{id}.
 * format-specs/rowkey-templates.md, "Presets". A column argument that is
 * no bare name ("Order Id") is quoted in the expansion.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "scheme/scheme_internal.h"

static const char *const PRESETS[] = {
    "salt:COL:N                  = {COL % N}|{COL}   (zero-padded when N > 10)",
    "salt-pad:COL:N              = {COL % N :0W}|{COL}   (W = digits of N-1)",
    "salt-reverse:COL:N          = {COL % N}|{reverse(COL)}",
    "hash-prefix:HASH:COL:K      = {hex(HASH(COL), K)}|{COL}   (HASH: crc32 md5 murmur3 xxhash64)",
    "bucket-range:COL:N:TS:ID    = {murmur3(COL) % N :0W}_{TS}_{ID}",
    "time-bucket:TS:COL:N        = {day(TS)}_{murmur3(COL) % N}_{TS}_{COL}",
    NULL};

const char *const *hfg_scheme_presets(void) { return PRESETS; }

static int parse_count(const char *s, uint64_t *out) {
  if (!*s) return -1;
  uint64_t v = 0;
  for (; *s; s++) {
    if (!isdigit((unsigned char)*s)) return -1;
    v = v * 10 + (uint64_t)(*s - '0');
    if (v > 1000000000u) return -1;
  }
  if (v < 1) return -1;
  *out = v;
  return 0;
}

int scheme_expand_preset(const char *tmpl, char *out, size_t cap, char *em, size_t el) {
  if (strchr(tmpl, '{')) return 1;
  const char *colon = strchr(tmpl, ':');
  if (!colon) return 1;
  char buf[512];
  if (strlen(tmpl) >= sizeof buf) return 1;
  strcpy(buf, tmpl);
  char *a[6];
  int na = 0;
  for (char *s = buf; na < 6;) {
    a[na++] = s;
    char *c = strchr(s, ':');
    if (!c) break;
    *c = '\0';
    s = c + 1;
  }
  static const char *const names[] = {"salt", "salt-pad", "salt-reverse", "hash-prefix",
                                      "bucket-range", "time-bucket"};
  static const int nargs[] = {3, 3, 3, 4, 5, 4};
  int k = -1;
  for (int i = 0; i < 6; i++)
    if (!strcmp(a[0], names[i])) k = i;
  if (k < 0) return 1;
  if (na != nargs[k])
    return scheme_errf(em, el, HFG_EPARSE, "preset %s takes %d arguments (%s)", names[k], nargs[k] - 1,
                       PRESETS[k]);
  static const int count_at[] = {2, 2, 2, 3, 2, 3};
  char quoted[6][1040];
  for (int i = 1; i < na; i++) /* columns that are no bare names, quoted unless they are */
    if (a[i][0] && i != count_at[k] && !(k == 3 && i == 1) && a[i][0] != '"' && a[i][0] != '`')
      a[i] = (char *)hfg_scheme_quote_name(a[i], quoted[i], sizeof quoted[i]);
  uint64_t n = 0;
  int w, r;
  switch (k) {
    case 0:
    case 1:
    case 2:
      if (parse_count(a[2], &n)) goto bad_n;
      w = scheme_digits(n - 1);
      if (k == 0 && n > 10)
        r = snprintf(out, cap, "{%s %% %llu :0%d}|{%s}", a[1], (unsigned long long)n, w, a[1]);
      else if (k == 1)
        r = snprintf(out, cap, "{%s %% %llu :0%d}|{%s}", a[1], (unsigned long long)n, w, a[1]);
      else if (k == 0)
        r = snprintf(out, cap, "{%s %% %llu}|{%s}", a[1], (unsigned long long)n, a[1]);
      else if (n > 10)
        r = snprintf(out, cap, "{%s %% %llu :0%d}|{reverse(%s)}", a[1], (unsigned long long)n, w, a[1]);
      else
        r = snprintf(out, cap, "{%s %% %llu}|{reverse(%s)}", a[1], (unsigned long long)n, a[1]);
      break;
    case 3:
      if (strcmp(a[1], "crc32") && strcmp(a[1], "md5") && strcmp(a[1], "murmur3") &&
          strcmp(a[1], "xxhash64"))
        return scheme_errf(em, el, HFG_EPARSE, "preset hash-prefix: unknown hash '%s' (crc32, md5, murmur3, xxhash64)", a[1]);
      if (parse_count(a[3], &n)) goto bad_n;
      r = snprintf(out, cap, "{hex(%s(%s), %llu)}|{%s}", a[1], a[2], (unsigned long long)n, a[2]);
      break;
    case 4:
      if (parse_count(a[2], &n)) goto bad_n;
      w = scheme_digits(n - 1);
      r = snprintf(out, cap, "{murmur3(%s) %% %llu :0%d}_{%s}_{%s}", a[1], (unsigned long long)n, w,
                   a[3], a[4]);
      break;
    default:
      if (parse_count(a[3], &n)) goto bad_n;
      if (n > 10)
        r = snprintf(out, cap, "{day(%s)}_{murmur3(%s) %% %llu :0%d}_{%s}_{%s}", a[1], a[2],
                     (unsigned long long)n, scheme_digits(n - 1), a[1], a[2]);
      else
        r = snprintf(out, cap, "{day(%s)}_{murmur3(%s) %% %llu}_{%s}_{%s}", a[1], a[2],
                     (unsigned long long)n, a[1], a[2]);
      break;
  }
  if (r < 0 || (size_t)r >= cap) return scheme_errf(em, el, HFG_EPARSE, "preset too long");
  return 0;
bad_n:
  return scheme_errf(em, el, HFG_EPARSE, "preset %s: bad count in '%s' (%s)", names[k], tmpl,
                     PRESETS[k]);
}

