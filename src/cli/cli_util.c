#include "cli/cli_util.h"

#include <inttypes.h>
#include <string.h>

#include "hfilegen/reader.h"
#include "hfilegen/scheme.h"
#include "input/record_reader.h"
#include "build/splits.h"
#include "util/buf.h"
#include "util/escape.h"

int cli_parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s) return -1;
  uint64_t v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9') return -1;
    uint64_t d = (uint64_t)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

const char *cli_type_name(uint8_t type, char buf[8]) {
  const char *n = hfg_read_type_name(type);
  if (n) return n;
  snprintf(buf, 8, "%u", type);
  return buf;
}

/* The rendered key text (see cli_print_key) appended to b. */
static int key_text(hfg_buf *b, const uint8_t *key, size_t len) {
  hfg_cell c;
  char tmp[64];
  if (hfg_parse_key(key, len, &c) != 0) {
    if (hfg_buf_append(b, "<malformed key: ", 16)) return -1;
    for (size_t i = 0; i < len; i++) {
      snprintf(tmp, sizeof tmp, "%02x", key[i]);
      if (hfg_buf_append(b, tmp, 2)) return -1;
    }
    return hfg_buf_append(b, ">", 1);
  }
  char tb[8];
  if (hfg_escape(b, c.row, c.row_len) || hfg_buf_append(b, "/", 1) ||
      hfg_escape(b, c.family, c.family_len) || hfg_buf_append(b, ":", 1) ||
      hfg_escape(b, c.qualifier, c.qualifier_len))
    return -1;
  int n = snprintf(tmp, sizeof tmp, "/%" PRId64 "/%s", c.timestamp, cli_type_name(c.type, tb));
  return hfg_buf_append(b, tmp, (size_t)n);
}

void cli_print_key(FILE *f, const uint8_t *key, size_t len) {
  hfg_buf b = HFG_BUF_INIT;
  if (key_text(&b, key, len)) fputs("<out of memory>", f);
  else fwrite(b.p, 1, b.len, f);
  hfg_buf_free(&b);
}

static void json_escaped_text(FILE *f, const char *s, size_t n) {
  fputc('"', f);
  for (size_t i = 0; i < n; i++) {
    /* escaped text is printable ASCII: only quote and backslash need care */
    if (s[i] == '"' || s[i] == '\\') fputc('\\', f);
    fputc(s[i], f);
  }
  fputc('"', f);
}

void cli_json_bytes(FILE *f, const uint8_t *p, size_t n) {
  hfg_buf b = HFG_BUF_INIT;
  if (hfg_escape(&b, p, n) != 0) {
    fputs("\"<out of memory>\"", f);
  } else {
    json_escaped_text(f, (const char *)b.p, b.len);
  }
  hfg_buf_free(&b);
}

void cli_ruby_sq(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('\'', f);
}

/* Length of the valid UTF-8 sequence of 2..4 bytes at p (n left), 0 if none. */
static size_t utf8_seq(const uint8_t *p, size_t n) {
  size_t k = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
           : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
  if (!k || k > n) return 0;
  for (size_t i = 1; i < k; i++)
    if ((p[i] & 0xc0) != 0x80) return 0;
  if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
      (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
    return 0; /* overlong, a surrogate, above U+10FFFF */
  return k;
}

/* Text as a JSON string: quote and backslash escaped, control characters as
 * \u00XX, UTF-8 as it is, a byte that is not UTF-8 as the text \xNN. (Keys
 * and other bytes go through cli_json_bytes, their escaped form.) */
void cli_json_str(FILE *f, const char *str) {
  const uint8_t *s = (const uint8_t *)str;
  size_t n = strlen(str);
  fputc('"', f);
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    size_t k;
    if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc(c, f);
    } else if (c < 0x20 || c == 0x7f) {
      fprintf(f, "\\u%04x", c);
    } else if (c < 0x80) {
      fputc(c, f);
    } else if ((k = utf8_seq(s + i, n - i)) != 0) {
      fwrite(s + i, 1, k, f);
      i += k - 1;
    } else {
      fprintf(f, "\\\\x%02x", c);
    }
  }
  fputc('"', f);
}

void cli_json_key(FILE *f, const uint8_t *key, size_t len) {
  hfg_buf b = HFG_BUF_INIT;
  if (key_text(&b, key, len)) fputs("\"<out of memory>\"", f);
  else json_escaped_text(f, (const char *)b.p, b.len);
  hfg_buf_free(&b);
}

const char *cli_human(uint64_t n, char buf[32]) {
  static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = (double)n;
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    u++;
  }
  if (u == 0) snprintf(buf, 32, "%" PRIu64 " B", n);
  else snprintf(buf, 32, "%.1f %s", v, unit[u]);
  return buf;
}

void cli_template_caret(FILE *f, const char *tmpl, const char *err) {
  const char *at = strstr(err, "template position ");
  unsigned long pos;
  if (!at || !strchr(tmpl, '{') || strchr(tmpl, '\n')) return;
  if (sscanf(at + 18, "%lu", &pos) != 1 || pos == 0 || pos > strlen(tmpl) + 1) return;
  fprintf(f, "  %s\n  ", tmpl);
  /* a tab stays a tab so the caret lines up; UTF-8 continuation bytes take no column */
  for (unsigned long i = 0; i + 1 < pos; i++)
    if (((unsigned char)tmpl[i] & 0xc0) != 0x80) fputc(tmpl[i] == '\t' ? '\t' : ' ', f);
  fputs("^\n", f);
}

void cli_warn_splits(const char *cmd, const char *path) {
  hfg_splits sp;
  hfg_err e = {0};
  if (!path || hfg_splits_load(path, &sp, &e)) return; /* the command reports errors */
  if (sp.n == 0) fprintf(stderr, "hfilegen %s: warning: %s: no split points: one region\n", cmd, path);
  hfg_splits_free(&sp);
}

int cli_check_rowkey_syntax(const char *cmd, const char *tmpl) {
  hfg_scheme *s = NULL;
  char err[512];
  if (!tmpl) return 0;
  int rc = hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err);
  hfg_scheme_free(s);
  if (!rc || rc == HFG_ENOMEM) return 0; /* out of memory: the command will tell */
  /* A bare name that may be a quoted column's ({Order Id}) is only a guess without the
   * input's columns: the job's compile against them says exactly what to write. */
  if (strstr(err, "quote it: write")) return 0;
  fprintf(stderr, "hfilegen %s: --rowkey '%s': %s\n", cmd, tmpl, err);
  cli_template_caret(stderr, tmpl, err);
  return -1;
}

int cli_check_rowkey_columns(const char *cmd, const char *tmpl) {
  hfg_scheme *s = NULL;
  char err[256];
  if (cli_check_rowkey_syntax(cmd, tmpl)) return -1;
  if (!tmpl || hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) return 0;
  size_t n = hfg_scheme_column_count(s);
  hfg_scheme_free(s);
  if (n) return 0;
  fprintf(stderr,
          "hfilegen %s: --rowkey '%s' uses no column: every record would get this one rowkey "
          "(the whole input one row); name columns in braces, e.g. '{id}' or '{id %% 10}|{id}'\n",
          cmd, tmpl);
  return -1;
}

void cli_template_columns_hint(FILE *f, const hfg_scheme *s, const char *err) {
  const char *at = strstr(err, "the template has no column '");
  if (!at) return;
  char name[256];
  snprintf(name, sizeof name, "%s", at + 28);
  char *q = strrchr(name, '\'');
  if (q) *q = '\0';
  size_t n = hfg_scheme_column_count(s);
  fprintf(f, "  the template's column%s: ", n == 1 ? "" : "s");
  for (size_t i = 0; i < n; i++) fprintf(f, "%s'%s'", i ? ", " : "", hfg_scheme_column_name(s, i));
  if (!n) fputs("none", f);
  for (size_t i = 0; i < n; i++)
    if (hfg_name_loose_same(name, strlen(name), hfg_scheme_column_name(s, i))) {
      fprintf(f, "; did you mean '%s'?", hfg_scheme_column_name(s, i));
      break;
    }
  fputc('\n', f);
}

void cli_splits_hint(FILE *f, const char *cmd, const char *path, const char *err) {
  /* (a byte order mark is refused by the loader itself, naming it) */
  if (!path || !err || !strstr(err, "strictly ascending")) return;
  fprintf(f, "hfilegen %s: split keys compare as unsigned bytes, as in HBase, and each must be "
          "new: LC_ALL=C sort -u %s puts them in that order without repeats (not keys "
          "written with \\xNN escapes: order those by their bytes)\n", cmd, path);
}

int cli_is_usage_error(const char *err) {
  /* the message's start, and what it says (a timestamp pattern the job refuses is not
   * a column the input lacks) */
  static const struct { const char *start, *says; } U[] = {
      {"rowkey '", ""},
      {"column mapping '", "': no column named '"},
      {"timestamp column '", "' is not a column"},
      {"--op-column '", "' is not a column"},
      {"--delete-if '", "' is not a column"},
      {"check column '", "' is not a column of the result"},
      {"family '", "' is not a family of the table"}, /* build --table: --family, --map */
      {"no column names: give", ""},
      {"column mapping '", "': expected COL=FAMILY:QUALIFIER"},
      {"column '", "': unknown encoding '"},
      {"columns ", " both become the cell "},
      {"no column is mapped to a cell", ""},
      {"", " column names were given to rename them (--columns)"}};
  for (size_t k = 0; k < sizeof U / sizeof *U; k++)
    if (!strncmp(err, U[k].start, strlen(U[k].start)) && strstr(err, U[k].says)) return 1;
  return 0;
}
