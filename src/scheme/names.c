/*
 * Column names in rowkey templates and old-key patterns
 * (format-specs/rowkey-templates.md, "Columns"): a bare identifier, or any
 * name in double quotes ("Order Id") or back quotes (`Order Id`), taken byte
 * for byte with its quote character doubled inside. And the advice for a
 * name that was written bare but cannot be: an input header says "Order Id",
 * the template says {Order Id}, and the parser sees the column 'Order'
 * followed by garbage. The advice names the quoted form that compiles.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "scheme/scheme_internal.h"

int scheme_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
int scheme_ident_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

int scheme_name_is_bare(const char *name, size_t n) {
  if (n == 0 || !scheme_ident_start(name[0])) return 0;
  for (size_t i = 1; i < n; i++)
    if (!scheme_ident_char(name[i])) return 0;
  return 1;
}

int scheme_read_quoted(const char *t, size_t at, hfg_buf *out, size_t *end) {
  char q = t[at];
  hfg_buf_reset(out);
  for (size_t i = at + 1; t[i]; i++) {
    if (t[i] == q) {
      if (t[i + 1] != q) {
        *end = i + 1;
        if (hfg_buf_put_u8(out, 0)) return HFG_ENOMEM;
        out->len--; /* NUL-terminated past len */
        return 0;
      }
      i++; /* a doubled quote is one quote character of the name */
    }
    if (hfg_buf_put_u8(out, (uint8_t)t[i])) return HFG_ENOMEM;
  }
  return 1;
}

const char *hfg_scheme_quote_name(const char *name, char *buf, size_t cap) {
  if (!cap) return buf;
  size_t n = strlen(name), k = 0;
  if (scheme_name_is_bare(name, n)) {
    snprintf(buf, cap, "%s", name);
    return buf;
  }
  if (cap < 3) {
    buf[0] = '\0';
    return buf;
  }
  buf[k++] = '"';
  for (size_t i = 0; i < n && k + 2 + (name[i] == '"') < cap; i++) {
    if (name[i] == '"') buf[k++] = '"';
    buf[k++] = name[i];
  }
  buf[k++] = '"';
  buf[k] = '\0';
  return buf;
}

/* ---- advice for a name written bare that must be quoted ---- */

static size_t skip_blanks(const char *t, size_t i) {
  while (t[i] == ' ' || t[i] == '\t') i++;
  return i;
}

/* What may follow a column inside a part: the end of the part, a pad, a
 * bucket count, the next argument or the end of a call. */
static int ends_term(char c) { return c == '}' || c == ':' || c == '%' || c == ',' || c == ')' || !c; }

/* Offset just past a quoted run (string, "name", `name`) starting at t[i]. */
static size_t skip_quoted(const char *t, size_t i) {
  char q = t[i];
  for (i++; t[i]; i++) {
    if (q == '\'' && t[i] == '\\' && t[i + 1]) {
      i++;
      continue;
    }
    if (t[i] == q) {
      if (q != '\'' && t[i + 1] == q) {
        i++;
        continue;
      }
      return i + 1;
    }
  }
  return i;
}

/* The longest column that needs quotes and that t spells at q, followed by
 * what may follow a column: its length, or 0. */
static size_t column_at(const char *t, size_t q, const char *const *cols, size_t ncols) {
  size_t best = 0;
  for (size_t c = 0; c < ncols; c++) {
    size_t n = strlen(cols[c]);
    if (n <= best || scheme_name_is_bare(cols[c], n) || strncmp(t + q, cols[c], n)) continue;
    if (ends_term(t[skip_blanks(t, q + n)])) best = n;
  }
  return best;
}

/* Without the input's columns: the text at q up to what ends a term, when it
 * is no bare name, no number and not a call: a guess at one name. */
static size_t guess_at(const char *t, size_t q) {
  size_t e = q;
  while (t[e] && !ends_term(t[e]) && !strchr("(\"'`{", t[e])) e++;
  if (!ends_term(t[e])) return 0;
  while (e > q && (t[e - 1] == ' ' || t[e - 1] == '\t')) e--;
  int number = 1;
  for (size_t i = q; i < e; i++) number &= isdigit((unsigned char)t[i]) || (i == q && t[i] == '-');
  if (e == q || number || scheme_name_is_bare(t + q, e - q)) return 0;
  return e - q;
}

int scheme_quote_advice(const char *t, size_t part, size_t err_pos, const char *const *cols,
                        size_t ncols, int have_cols, char *buf, size_t cap) {
  size_t q = part + 1, n = 0;
  char prev = '{';
  while (t[q] && t[q] != '}' && q <= err_pos) { /* the starts of the part's terms */
    q = skip_blanks(t, q);
    if (prev == '{' || prev == '(' || prev == ',') {
      n = have_cols ? column_at(t, q, cols, ncols) : guess_at(t, q);
      if (n) break;
    }
    if (t[q] == '\'' || t[q] == '"' || t[q] == '`') {
      q = skip_quoted(t, q);
      prev = 'x';
    } else if (t[q] && t[q] != '}') {
      prev = t[q++];
    }
  }
  if (!n) return 0;
  size_t end = q + n; /* the rest of the part, up to its '}' */
  while (t[end] && t[end] != '}')
    end = t[end] == '\'' || t[end] == '"' || t[end] == '`' ? skip_quoted(t, end) : end + 1;
  if (t[end] == '}') end++;
  char name[256], quoted[600];
  snprintf(name, sizeof name, "%.*s", (int)(n < 255 ? n : 255), t + q);
  hfg_scheme_quote_name(name, quoted, sizeof quoted);
  const char *why = strchr(name, ' ') ? "holds a space"
                    : !scheme_ident_start(name[0]) ? "does not start with a letter or _"
                                                   : "holds more than letters, digits, _ . -";
  int k;
  if (have_cols)
    k = snprintf(buf, cap, "the column '%s' %s, so a template quotes it: write ", name, why);
  else
    k = snprintf(buf, cap, "if '%s' is one column name, quote it: write ", name);
  if (k < 0 || (size_t)k >= cap) return 1;
  snprintf(buf + k, cap - (size_t)k, "%.*s%s%.*s%s", (int)(q - part), t + part, quoted,
           (int)(end - q - n), t + q + n, t[end - 1] == '}' ? "" : "}");
  return 1;
}
