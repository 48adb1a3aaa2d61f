/* The explanation added to "unknown column" errors: see hfg_columns_hint in
 * include/hfilegen/scheme.h. A header read with the wrong format or
 * delimiter is one long column name; say so instead of leaving the user with
 * "unknown column 'id'". */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hfilegen/scheme.h"

typedef struct out {
  char *p;
  size_t cap, len;
} out;

static void add(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(out *o, const char *fmt, ...) {
  if (o->len + 1 >= o->cap) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  o->len += (size_t)k;
  if (o->len >= o->cap) { /* cut: end in "..." */
    o->len = o->cap - 1;
    if (o->cap > 4) memcpy(o->p + o->cap - 4, "...", 4);
  }
}

/* s[0..n) without surrounding blanks and one pair of quotes */
static void trim(const char **s, size_t *n) {
  while (*n && isspace((unsigned char)(*s)[0])) (*s)++, (*n)--;
  while (*n && isspace((unsigned char)(*s)[*n - 1])) (*n)--;
  if (*n >= 2 && ((*s)[0] == '"' || (*s)[0] == '\'') && (*s)[*n - 1] == (*s)[0]) (*s)++, *n -= 2;
}

static int loose_eq(const char *a, size_t an, const char *b, size_t bn) {
  trim(&a, &an);
  trim(&b, &bn);
  if (an != bn || an == 0) return 0;
  for (size_t i = 0; i < an; i++)
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return 0;
  return 1;
}

/* Length of the well-formed UTF-8 sequence at s (1..4), or 0 */
static size_t utf8_len(const unsigned char *s) {
  size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                             : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
  for (size_t i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  return n;
}

/* The first name is a number: the first line is a record, not a header. */
static int looks_like_data(const char *h) {
  size_t n = strlen(h);
  trim(&h, &n);
  if (n && *h == '-') h++, n--;
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (h[i] < '0' || h[i] > '9') return 0;
  return 1;
}

const char *hfg_columns_hint(char *buf, size_t cap, const char *const *names, size_t n,
                             const char *unknown, size_t unknown_len) {
  out o = {buf, cap, 0};
  if (!cap) return buf;
  buf[0] = '\0';
  if (!names || n == 0) {
    add(&o, "; no columns were read");
    return buf;
  }
  add(&o, "; the column%s read %s ", n == 1 ? "" : "s", n == 1 ? "is" : "are");
  int binary = 0, cr = 0; /* control bytes or broken UTF-8: shown as \xNN, never raw */
  for (size_t i = 0; i < n && o.len < 160; i++) {
    add(&o, "%s'", i ? ", " : "");
    for (const unsigned char *c = (const unsigned char *)names[i]; *c && o.len < 160;) {
      size_t u = utf8_len(c);
      if (*c == '\t') add(&o, "\\t"); /* a TAB shows as \t */
      else if (u == 0 || *c < 0x20 || *c == 0x7f) {
        add(&o, "\\x%02x", *c);
        if (*c == '\r') cr = 1;
        else binary = 1;
        u = 1;
      } else add(&o, "%.*s", (int)u, (const char *)c);
      c += u ? u : 1;
    }
    add(&o, "'");
  }
  if (o.len >= 160 && n > 1) add(&o, " ...");
  add(&o, " (%zu)", n);
  if (cr && !binary) {
    add(&o, "; the header holds CRs (\\x0d): lines that end in CR alone (classic Mac OS) are "
            "one line here; convert them (tr '\\r' '\\n')");
  } else if (binary) {
    add(&o, "; the header is not text: is the input a binary file, or compressed in a format "
            "hfilegen does not read?");
  } else if (n == 1 && strchr(names[0], '\t') &&
             (strstr(names[0], "\\N") || looks_like_data(names[0]))) {
    add(&o, "; the line holds tabs and is a record, not a header: a MySQL (SELECT ... INTO "
            "OUTFILE, mysqldump --tab) or PostgreSQL (COPY) text dump has none: give --format "
            "mysql or --format pg-text with --columns a,b,c");
  } else if (looks_like_data(names[0])) {
    add(&o, "; the first line is a record, not a header: give the column names with "
            "--columns a,b,c");
  } else if (n == 1) {
    const char *h = names[0];
    if (strchr(h, '\t'))
      add(&o, "; the line holds tabs: is it TSV? give --format tsv (names ending in .tsv or "
              ".tab are read as TSV unless --delimiter says otherwise: drop it)");
    else if (strchr(h, ';'))
      add(&o, "; the line holds ';': give --delimiter ';'");
    else if (strchr(h, '|'))
      add(&o, "; the line holds '|': give --delimiter '|'");
    else if (strchr(h, ','))
      add(&o, "; the line holds commas: is it CSV? give --format csv");
  }
  for (size_t i = 0; unknown && i < n; i++)
    if (loose_eq(unknown, unknown_len, names[i], strlen(names[i]))) {
      add(&o, "; did you mean '%s'?", names[i]);
      break;
    }
  return buf;
}
