/*
 * SQL scripts where a dump's rows were expected (contract in record_sql.h).
 *
 * The scan walks the constructs at an input's start, as the dump tools write
 * them: comments, then statements, each to its ';' outside quotes (a COPY
 * ... FROM stdin with its data block to the `\.` line). It stops at the first
 * byte that starts none of them, at the end of the window, or at a statement
 * cut by it; what it saw decides. A statement keyword counts only when a
 * space and the word the tools write after it follow (CREATE TABLE, INSERT
 * INTO, LOCK TABLES, SET @x or SET NAMES ...), and the short ones (SET, USE,
 * LOCK ...) must end on their line: a TSV row whose first value is "set" or
 * "Create" is rows.
 */
#include "input/record_sql.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "input/record_input.h"
#include "util/alloc.h"

/* ---- the scan ---- */

typedef struct sqlscan {
  int stmts;          /* statements seen whole (a comment is none) */
  int cond;           /* MySQL's conditional comments (the !40101 and M!999999 kinds) */
  int my_sign, pg_sign; /* the tools' header comments */
  int create, insert, copy;
  int cut_first;      /* the input's first construct, an INSERT or CREATE TABLE, runs past the window */
  const char *table;  /* the first CREATE TABLE's name as written, NULL none */
  size_t table_len;
  int backtick;       /* that name is `quoted`: MySQL's */
} sqlscan;

static int is_word(int c) { return isalnum(c) || c == '_'; }

/* The length of keyword w (upper case) at p, case-insensitive and not
 * followed by a word byte, else 0. */
static size_t kw_at(const char *p, const char *e, const char *w) {
  size_t k = strlen(w);
  if ((size_t)(e - p) < k || strncasecmp(p, w, k) != 0) return 0;
  if (p + k < e && is_word((unsigned char)p[k])) return 0;
  return k;
}

static const char *skip_spaces(const char *p, const char *e) {
  while (p < e && *p == ' ') p++;
  return p;
}

static const char *skip_ws(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
  return p;
}

static int has_prefix(const char *p, const char *e, const char *pre) {
  size_t k = strlen(pre);
  return (size_t)(e - p) >= k && memcmp(p, pre, k) == 0;
}

/* After a quote byte q at p: the byte after its closing one, or NULL (not in [p, e)). */
static const char *skip_quoted(const char *p, const char *e) {
  char q = *p++;
  while (p < e) {
    if (*p == '\\' && q == '\'' && p + 1 < e) {
      p += 2;
      continue;
    }
    if (*p++ == q) {
      if (p < e && *p == q) { /* doubled */
        p++;
        continue;
      }
      return p;
    }
  }
  return NULL;
}

/* The ';' that ends the statement from p, NULL when the window ends first or
 * (one_line) a line does. *stdin_seen: "FROM stdin" in it (COPY). */
static const char *statement_end(const char *p, const char *e, int one_line, int *stdin_seen) {
  while (p < e) {
    char c = *p;
    if (c == ';') return p;
    if (c == '\n' && one_line) return NULL;
    if (c == '\'' || c == '"' || c == '`') {
      if (!(p = skip_quoted(p, e))) return NULL;
      continue;
    }
    if (stdin_seen && !is_word((unsigned char)p[-1]) && kw_at(p, e, "FROM")) {
      const char *q = skip_spaces(p + 4, e);
      if (kw_at(q, e, "STDIN")) *stdin_seen = 1;
    }
    p++;
  }
  return NULL;
}

enum { K_NONE, K_CREATE, K_INSERT, K_COPY, K_LINE, K_MULTI };

/* The words the tools write after CREATE, DROP and ALTER. */
static int object_word(const char *q, const char *e) {
  static const char *const w[] = {
      "TABLE",    "DATABASE",  "SCHEMA",    "VIEW",    "INDEX",     "UNIQUE", "SEQUENCE",
      "TYPE",     "FUNCTION",  "PROCEDURE", "TRIGGER", "EXTENSION", "EVENT",  "DEFINER",
      "ALGORITHM", "OR",       "IF",        "DEFAULT", "TEMPORARY", "USER",   "ROLE",
      "AGGREGATE", "DOMAIN",   "PUBLICATION", "POLICY"};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++)
    if (kw_at(q, e, w[i])) return 1;
  return 0;
}

/* The statement that starts at p: its kind, *after the keywords. */
static int statement_kind(const char *p, const char *e, const char **after) {
  size_t k;
  const char *q;
#define NEXT(kw_len) (q = p + (kw_len), (q < e && *q == ' ') ? (q = skip_spaces(q, e)) : NULL)
  if ((k = kw_at(p, e, "CREATE")) && NEXT(k)) {
    if ((k = kw_at(q, e, "TEMPORARY"))) q = skip_spaces(q + k, e);
    if ((k = kw_at(q, e, "TABLE"))) {
      *after = q + k;
      return K_CREATE;
    }
    *after = q;
    return object_word(q, e) ? K_MULTI : K_NONE;
  }
  if (((k = kw_at(p, e, "INSERT")) || (k = kw_at(p, e, "REPLACE"))) && NEXT(k) &&
      (kw_at(q, e, "INTO") || kw_at(q, e, "IGNORE"))) {
    *after = q;
    return K_INSERT;
  }
  if (((k = kw_at(p, e, "DROP")) || (k = kw_at(p, e, "ALTER"))) && NEXT(k) && object_word(q, e)) {
    *after = q;
    return K_MULTI;
  }
  if ((k = kw_at(p, e, "COPY")) && NEXT(k) && q < e &&
      (is_word((unsigned char)*q) || *q == '"')) {
    *after = q;
    return K_COPY;
  }
  if ((k = kw_at(p, e, "SET")) && NEXT(k) && q < e &&
      (isalpha((unsigned char)*q) || *q == '@')) {
    *after = q;
    return K_LINE;
  }
  if (((k = kw_at(p, e, "LOCK")) || (k = kw_at(p, e, "UNLOCK"))) && NEXT(k) &&
      kw_at(q, e, "TABLES")) {
    *after = q;
    return K_LINE;
  }
  if ((k = kw_at(p, e, "USE")) && NEXT(k) && q < e && (is_word((unsigned char)*q) || *q == '`')) {
    *after = q;
    return K_LINE;
  }
  if ((k = kw_at(p, e, "SELECT")) && NEXT(k) && has_prefix(q, e, "pg_catalog.")) {
    *after = q;
    return K_LINE;
  }
  if ((k = kw_at(p, e, "START")) && NEXT(k) && kw_at(q, e, "TRANSACTION")) {
    *after = q;
    return K_LINE;
  }
  if (((k = kw_at(p, e, "BEGIN")) || (k = kw_at(p, e, "COMMIT"))) && p + k < e && p[k] == ';') {
    *after = p + k;
    return K_LINE;
  }
#undef NEXT
  return K_NONE;
}

/* A COPY block's data after its statement's ';' at p: the byte after its `\.`
 * line, NULL when the window ends first. */
static const char *copy_data_end(const char *p, const char *e) {
  p = memchr(p, '\n', (size_t)(e - p));
  while (p && ++p < e) {
    if (has_prefix(p, e, "\\.\n") || has_prefix(p, e, "\\.\r\n")) return memchr(p, '\n', (size_t)(e - p)) + 1;
    p = memchr(p, '\n', (size_t)(e - p));
  }
  return NULL;
}

static void scan_sql(const char *s, size_t n, sqlscan *sc) {
  memset(sc, 0, sizeof *sc);
  const char *p = s, *e = s + n;
  int first = 1;
  for (;; first = 0) {
    p = skip_ws(p, e);
    if (p == e) return;
    if (has_prefix(p, e, "--") && (p + 2 == e || strchr(" \t\r\n", p[2]))) {
      const char *nl = memchr(p, '\n', (size_t)(e - p));
      const char *le = nl ? nl : e;
      const char *t = skip_spaces(p + 2, le);
      if (has_prefix(t, le, "MySQL dump") || has_prefix(t, le, "MariaDB dump")) sc->my_sign = 1;
      if (has_prefix(t, le, "PostgreSQL database")) sc->pg_sign = 1;
      if (!nl) return;
      p = nl + 1;
      continue;
    }
    if (has_prefix(p, e, "/*")) {
      const char *end = NULL;
      for (const char *q = p + 2; q + 1 < e; q++)
        if (q[0] == '*' && q[1] == '/') {
          end = q + 2;
          break;
        }
      if (has_prefix(p, e, "/*!") || has_prefix(p, e, "/*M!")) sc->cond++;
      if (!end) return;
      p = skip_spaces(end, e);
      if (p < e && *p == ';') p++;
      continue;
    }
    if (*p == '\\' && sc->pg_sign) { /* psql meta-commands pg_dump writes (\connect, \restrict) */
      const char *nl = memchr(p, '\n', (size_t)(e - p));
      if (!nl) return;
      p = nl + 1;
      continue;
    }
    const char *after;
    int kind = statement_kind(p, e, &after);
    if (kind == K_NONE) return;
    if (kind == K_CREATE && !sc->table) { /* its name, for the messages */
      const char *q = skip_spaces(after, e);
      size_t k;
      if ((k = kw_at(q, e, "IF"))) { /* IF NOT EXISTS */
        q = skip_spaces(q + k, e);
        if ((k = kw_at(q, e, "NOT"))) q = skip_spaces(q + k, e);
        if ((k = kw_at(q, e, "EXISTS"))) q = skip_spaces(q + k, e);
      }
      const char *t = q;
      if (q < e && (*q == '`' || *q == '"')) {
        const char *z = skip_quoted(q, e);
        if (z) q = z;
        sc->backtick = *t == '`';
      } else {
        while (q < e && (is_word((unsigned char)*q) || *q == '.')) q++;
      }
      sc->table = t;
      sc->table_len = (size_t)(q - t);
    }
    int from_stdin = 0;
    const char *end = statement_end(after, e, kind == K_LINE, kind == K_COPY ? &from_stdin : NULL);
    if (!end) {
      if (first && (kind == K_INSERT || kind == K_CREATE)) sc->cut_first = 1;
      if (kind == K_INSERT) sc->insert = 1;
      if (kind == K_CREATE) sc->create = 1;
      return;
    }
    sc->stmts++;
    if (kind == K_INSERT) sc->insert = 1;
    if (kind == K_CREATE) sc->create = 1;
    p = end + 1;
    if (kind == K_COPY && from_stdin) {
      sc->copy = 1;
      if (!(p = copy_data_end(p, e))) return;
    }
  }
}

int hfg_sql_candidate(const char *s, size_t n) {
  const char *e = s + (n < HFG_SQL_PEEK ? n : HFG_SQL_PEEK);
  if (has_prefix(s, e, "PGDMP")) return 1;
  const char *p = skip_ws(s, e);
  if (p == e) return 0;
  if (has_prefix(p, e, "--") && (p + 2 == e || strchr(" \t\r\n", p[2]))) return 1;
  if (has_prefix(p, e, "/*")) return 1;
  const char *after;
  if (statement_kind(p, e, &after) != K_NONE) return 1;
  /* a keyword cut by the peek's end (a long first word is no keyword) */
  return (size_t)(e - p) < 24 && isalpha((unsigned char)*p);
}

/* What to run instead, per tool. */
static const char MY_ADVICE[] =
    "dump the rows with mysqldump --tab=DIR (DIR/TABLE.txt) or SELECT ... INTO OUTFILE, or "
    "read the table from the server (mysql://...)";
static const char PG_ADVICE[] =
    "export the table with COPY ... TO or psql's \\copy, or read it from the server "
    "(postgresql://...)";

/* The TABLE.txt of a TABLE.sql named name, into out ("" when name is no *.sql). */
static void txt_beside(const char *name, char *out, size_t cap) {
  size_t n = strlen(name);
  out[0] = '\0';
  if (n > 4 && !strcasecmp(name + n - 4, ".sql") && n - 4 < 200)
    snprintf(out, cap, "%.*s.txt", (int)(n - 4), name);
}

int hfg_sql_script_why(const char *s, size_t n, int complete, hfg_input_format fmt,
                       const char *name, char *why, size_t cap) {
  if (has_prefix(s, s + n, "PGDMP")) {
    snprintf(why, cap, "the input is a pg_dump archive (pg_dump -Fc), not rows: %s", PG_ADVICE);
    return 1;
  }
  sqlscan sc;
  scan_sql(s, n, &sc);
  if (!(sc.stmts || sc.cond || sc.my_sign || sc.pg_sign || sc.cut_first)) return 0;
  int pg = sc.pg_sign || sc.copy ||
           (!sc.my_sign && !sc.cond && !sc.backtick && fmt != HFG_INPUT_MYSQL);
  if (pg) {
    const char *by = sc.pg_sign ? " written by pg_dump" : "";
    if (sc.copy || (!complete && !sc.insert))
      snprintf(why, cap,
               "the input is an SQL script%s (its rows sit in COPY blocks among SQL statements), "
               "not rows: %s", by, PG_ADVICE);
    else if (sc.insert)
      snprintf(why, cap, "the input is an SQL script%s of INSERT statements, not rows: %s", by,
               PG_ADVICE);
    else
      snprintf(why, cap, "the input is an SQL script%s that holds no rows (a schema): %s", by,
               PG_ADVICE);
    return 1;
  }
  int tl = sc.table_len > 80 ? 80 : (int)sc.table_len;
  if (sc.insert)
    snprintf(why, cap, "the input is an SQL script of INSERT statements%s, not rows: %s",
             sc.my_sign ? " written by mysqldump/mariadb-dump without --tab" : "", MY_ADVICE);
  else if (sc.create && complete) {
    char txt[256];
    txt_beside(name ? name : "", txt, sizeof txt);
    if (txt[0])
      snprintf(why, cap,
               "the input is the schema of table %.*s (CREATE TABLE, no rows), as mysqldump "
               "--tab writes it beside the rows: give %s instead",
               tl, sc.table, txt);
    else
      snprintf(why, cap,
               "the input is the schema of table %.*s (CREATE TABLE, no rows), as mysqldump "
               "--tab writes it into TABLE.sql: give the TABLE.txt beside it instead",
               tl, sc.table);
  } else if (sc.create)
    snprintf(why, cap,
             "the input is an SQL script (CREATE TABLE %.*s and more), not rows: if it is the "
             "TABLE.sql of mysqldump --tab, give the TABLE.txt beside it; else %s",
             tl, sc.table, MY_ADVICE);
  else
    snprintf(why, cap, "the input is an SQL script%s, not rows: %s",
             sc.my_sign ? " written by mysqldump/mariadb-dump" : "", MY_ADVICE);
  return 1;
}

/* ---- mysqldump --tab's TABLE.sql ---- */

#define SCHEMA_MAX ((size_t)8 << 20) /* a --tab schema is small; a larger .sql is some other script */

void hfg_sql_schema_free(hfg_sql_schema *s) {
  if (!s) return;
  for (size_t i = 0; s->names && i < s->ncols; i++) hfg_free(s->names[i]);
  hfg_free(s->names);
  hfg_free(s->bits);
  hfg_free(s->not_null);
  hfg_free(s->numeric);
  hfg_free(s->table);
  hfg_free(s->path);
  hfg_free(s);
}

/* A `quoted` name at p (`` for one `) into a new string; *end after it. NULL: none or ENOMEM. */
static char *unquote_name(const char *p, const char *e, const char **end) {
  if (p >= e || *p != '`') return NULL;
  const char *z = skip_quoted(p, e);
  if (!z) return NULL;
  char *out = hfg_malloc((size_t)(z - p));
  if (!out) return NULL;
  size_t k = 0;
  for (const char *q = p + 1; q < z - 1; q++) {
    out[k++] = *q;
    if (*q == '`') q++; /* doubled */
  }
  out[k] = '\0';
  *end = z;
  return out;
}

/* 1 when the type at p is a number's (its value is written as digits, or as BIT's bytes). */
static int number_type(const char *p, const char *e) {
  static const char *const w[] = {"TINYINT", "SMALLINT", "MEDIUMINT", "INT",    "INTEGER",
                                  "BIGINT",  "DECIMAL",  "NUMERIC",   "FLOAT",  "DOUBLE",
                                  "REAL",    "YEAR",     "BOOL",      "BOOLEAN"};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++)
    if (kw_at(p, e, w[i])) return 1;
  return 0;
}

/* "NOT NULL" among the words of [p, e) (outside quotes and parentheses' strings). */
static int line_not_null(const char *p, const char *e) {
  while (p < e) {
    if (*p == '\'' || *p == '"' || *p == '`') {
      if (!(p = skip_quoted(p, e))) return 0;
      continue;
    }
    size_t k;
    if (!is_word((unsigned char)p[-1]) && (k = kw_at(p, e, "NOT"))) {
      const char *q = skip_spaces(p + k, e);
      if (q > p + k && kw_at(q, e, "NULL")) return 1;
    }
    p++;
  }
  return 0;
}

/* The columns of the CREATE TABLE whose "(" line ends at body (one line per
 * column, "  `name` type ...", as mysqldump writes them). 0 or HFG_ENOMEM. */
static int read_columns(hfg_sql_schema *sc, const char *p, const char *e) {
  size_t cap = 0;
  while (p < e && has_prefix(p, e, "  `")) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    const char *le = nl ? nl : e;
    const char *q;
    if (!skip_quoted(p + 2, le)) break; /* no closing ` on the line: not mysqldump's */
    char *name = unquote_name(p + 2, le, &q);
    if (!name) return HFG_ENOMEM;
    if (sc->ncols == cap) {
      size_t nc = cap ? cap * 2 : 16;
      char **nn = hfg_realloc(sc->names, nc * sizeof *nn);
      if (nn) sc->names = nn;
      int *nb = nn ? hfg_realloc(sc->bits, nc * sizeof *nb) : NULL;
      if (nb) sc->bits = nb;
      int *nz = nb ? hfg_realloc(sc->not_null, nc * sizeof *nz) : NULL;
      if (nz) sc->not_null = nz;
      int *nm = nz ? hfg_realloc(sc->numeric, nc * sizeof *nm) : NULL;
      if (!nm) {
        hfg_free(name);
        return HFG_ENOMEM;
      }
      sc->numeric = nm;
      cap = nc;
    }
    size_t i = sc->ncols++;
    sc->names[i] = name;
    q = skip_spaces(q, le);
    size_t k = kw_at(q, le, "BIT");
    int bits = 0;
    if (k) {
      q += k;
      bits = 1; /* BIT is BIT(1) */
      if (q < le && *q == '(') {
        bits = 0;
        for (q++; q < le && isdigit((unsigned char)*q) && bits < 1000; q++) bits = bits * 10 + (*q - '0');
        if (bits < 1) bits = 1;
      }
      sc->nbit++;
    }
    sc->bits[i] = bits;
    sc->numeric[i] = bits || number_type(q, le);
    sc->not_null[i] = line_not_null(q, le);
    if (!nl) break;
    p = nl + 1;
  }
  return 0;
}

/* The CREATE TABLE of table want in [s, s+n) (else the only one) into sc. 1
 * found, 0 none, HFG_ENOMEM. */
static int parse_schema(const char *s, size_t n, const char *want, hfg_sql_schema *sc) {
  const char *e = s + n, *pick = NULL;
  size_t found = 0;
  for (const char *p = s; p < e;) { /* lines that start "CREATE TABLE `" */
    size_t k = kw_at(p, e, "CREATE");
    const char *q = k ? skip_spaces(p + k, e) : NULL;
    if (q && (k = kw_at(q, e, "TABLE"))) {
      q = skip_spaces(q + k, e);
      const char *z;
      char *name = unquote_name(q, e, &z);
      if (name) {
        found++;
        if (!strcmp(name, want) || !pick) pick = p;
        if (!strcmp(name, want)) want = ""; /* keep the first match */
        hfg_free(name);
      }
    }
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl) break;
    p = nl + 1;
  }
  if (!pick || (found > 1 && want[0])) return 0; /* several, none of them the table */
  const char *q = skip_spaces(pick + kw_at(pick, e, "CREATE"), e);
  q = skip_spaces(q + kw_at(q, e, "TABLE"), e);
  const char *z;
  if (!(sc->table = unquote_name(q, e, &z))) return HFG_ENOMEM;
  const char *nl = memchr(z, '\n', (size_t)(e - z));
  if (!nl) return 0;
  return read_columns(sc, nl + 1, e) ? HFG_ENOMEM : 1;
}

static int regular_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int hfg_sql_tab_schema(const char *path, hfg_sql_schema **out, hfg_err *err) {
  static const char *const zsuffix[] = {".gz", ".zst", ".bz2", ".xz"};
  *out = NULL;
  size_t n = strlen(path), z = 0;
  for (size_t i = 0; i < sizeof zsuffix / sizeof *zsuffix; i++) {
    size_t k = strlen(zsuffix[i]);
    if (n > k && !strcasecmp(path + n - k, zsuffix[i])) z = k;
  }
  if (!strcmp(path, "-") || n - z <= 4 || strncasecmp(path + n - z - 4, ".txt", 4) != 0) return 0;
  size_t base = n - z - 4;
  char *sql = hfg_malloc(base + 4 + z + 1);
  if (!sql) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  memcpy(sql, path, base);
  memcpy(sql + base, ".sql", 5);
  if (!regular_file(sql) && z) {
    memcpy(sql + base + 4, path + n - z, z + 1);
    if (!regular_file(sql)) sql[base + 4] = '\0';
  }
  if (!regular_file(sql)) {
    hfg_free(sql);
    return 0;
  }
  /* the table: the file name without its directory and .txt */
  const char *slash = strrchr(sql, '/');
  size_t t0 = slash ? (size_t)(slash + 1 - sql) : 0;
  char table[256];
  snprintf(table, sizeof table, "%.*s", (int)(base - t0 < 255 ? base - t0 : 255), sql + t0);
  hfg_rin in;
  memset(&in, 0, sizeof in);
  int rc = hfg_rin_open(&in, sql, sql, err);
  char *buf = NULL;
  size_t len = 0, bcap = 0;
  while (!rc) {
    if (len == bcap) {
      if (bcap >= SCHEMA_MAX) break; /* not a --tab schema */
      size_t nc = bcap ? bcap * 2 : 65536;
      char *nb = hfg_realloc(buf, nc);
      if (!nb) {
        rc = hfg_err_set(err, HFG_ENOMEM, "%s: out of memory", sql);
        break;
      }
      buf = nb;
      bcap = nc;
    }
    size_t got;
    if ((rc = hfg_rin_read(&in, buf + len, bcap - len, &got, err)) || !got) break;
    len += got;
  }
  hfg_rin_close(&in);
  hfg_sql_schema *sc = NULL;
  if (!rc && len < SCHEMA_MAX && (sc = hfg_calloc(1, sizeof *sc))) {
    int prc = parse_schema(buf, len, table, sc);
    if (prc == 1) {
      sc->path = sql;
      sql = NULL;
      *out = sc;
    } else {
      if (prc) rc = hfg_err_set(err, HFG_ENOMEM, "%s: out of memory", sql);
      hfg_sql_schema_free(sc);
    }
  } else if (!rc && len < SCHEMA_MAX) {
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  hfg_free(buf);
  hfg_free(sql);
  return rc;
}
